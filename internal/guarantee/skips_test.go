package guarantee

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// allowedSkips are the skips, outside this package's helpers, that are
// not of a guarantee: "path/of/file_test.go:Func" (the function holding the
// skip call, relative to the repository's root) and why the skip is right
// everywhere, CI included. A new bare skip fails TestNoBareSkips until it
// goes through Missing, Program, AsRoot or AsUser, or is named here.
var allowedSkips = map[string]string{
	"internal/validate/fuzz_test.go:fuzzWorkspace":                                "a file system without symlinks has no symlink escape to fuzz",
	"internal/validate/fuzz_test.go:FuzzPath":                                     "the oracle asks /proc where the kernel opened the path; without /proc there is no oracle",
	"internal/validate/path_test.go:workspace":                                    "a file system without symlinks has no symlink escape to test",
	"internal/validate/path_test.go:TestPathEscapeDotDot":                         "a file system without symlinks has no symlink escape to test",
	"runtime/tool/descriptor_fuzz_test.go:FuzzDecodeTimeout":                      "a fuzz input that no JSON string can hold is no descriptor: nothing to decode",
	"runtime/audit/audit_test.go:TestAFailedWriteIsARefusal":                      "/dev/full is how the test makes a write fail, and every Linux has it; the refusal is not a confinement guarantee",
	"runtime/explain/explain_test.go:TestExplainShowsPrivilegesSyscallsProtected": "namespaces, capabilities and seccomp are Linux-only (TestLimitsTextOffLinux covers what explain says elsewhere)",
	"runtime/kernel/attack_linux_test.go:TestLoaderCannotLoadAShell":              "a statically linked find has no dynamic loader to abuse",
	"runtime/kernel/attack_linux_test.go:TestLoaderWorkspaceELF":                  "a statically linked echo has no dynamic loader in its execute set",
	"runtime/kernel/cgroup_internal_linux_test.go:deadPID":                        "the process id was reused at once: the test cannot tell its process from another",
	"runtime/kernel/programs_test.go:TestCurlAndWgetIgnoreWorkspaceConfig":        "one subtest per program whose configuration file could run code; a program not installed has nothing to attack",
	"examples/build-tools/run_test.go:TestPytest":                                 "pytest is not one of the toolchains CI installs; the tool is tested where it is",
	"examples/build-tools/run_test.go:TestCargoTest":                              "cargo is not one of the toolchains CI installs; the tool is tested where it is",
	"gen/target_test.go:TestResolveErrors":                                        "a temporary directory inside a module cannot show generation outside one",
	"cmd/toolgen/fifo_other_test.go:mkfifo":                                       "systems without FIFOs have none to plant",
	"cmd/toolgen/terminal_test.go:openPTY":                                        "a pseudo-terminal is how the test is a terminal; a machine without one has no terminal to detect",
	"cmd/toolgen/serve_e2e_test.go:TestServeHTTPEndToEnd":                         "under -short TestMain puts the test binary on PATH as toolgen; the full run builds the binary",
	// The adapters are modules of their own and cannot import this
	// package; their skips are all under testing.Short().
}

// TestNoBareSkips: no test of the module skips but through this package,
// under testing.Short(), in a benchmark or with a reason in allowedSkips;
// no testscript skips on a condition a CI machine must meet. Every entry of
// allowedSkips is still used.
func TestNoBareSkips(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository's root is not two levels up: %v", err)
	}
	var bad []string
	used := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasSuffix(rel, "_test.go") && !strings.Contains(rel, "/testdata/"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			found, err := bareSkips(rel, src)
			if err != nil {
				return err
			}
			for _, s := range found {
				if _, ok := allowedSkips[s.key]; ok {
					used[s.key] = true
					continue
				}
				bad = append(bad, s.String())
			}
		case strings.HasPrefix(rel, "cmd/toolgen/testdata/script/") && strings.HasSuffix(rel, ".txtar"):
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			lines, err := badScriptSkips(rel, f)
			if err != nil {
				return err
			}
			bad = append(bad, lines...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("a bare skip: %s\n\tuse guarantee.Missing (or Program, AsRoot, AsUser), put it under testing.Short(), or name it with its reason in allowedSkips", b)
	}
	for key := range allowedSkips {
		if !used[key] {
			t.Errorf("allowedSkips names %s, which skips no more: remove it", key)
		}
	}
}

// skipCall is one skip found in a test file.
type skipCall struct {
	key string // "file:Func"
	pos token.Position
}

func (s skipCall) String() string { return fmt.Sprintf("%s (%s)", s.pos, s.key) }

// bareSkips returns the calls of a Skip, Skipf or SkipNow method in the
// Go source src (file name rel) that are not under an if of
// testing.Short() alone and not in a Benchmark function.
func bareSkips(rel string, src []byte) ([]skipCall, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var found []skipCall
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil || strings.HasPrefix(fn.Name.Name, "Benchmark") {
			continue
		}
		var stack []ast.Node
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if isSkipCall(n) && !underShort(stack) {
				found = append(found, skipCall{key: rel + ":" + fn.Name.Name, pos: fset.Position(n.Pos())})
			}
			stack = append(stack, n)
			return true
		})
	}
	return found, nil
}

// isSkipCall reports whether n calls a method Skip, Skipf or SkipNow.
func isSkipCall(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "Skip", "Skipf", "SkipNow":
		return true
	}
	return false
}

// underShort reports whether the innermost if around the node whose
// ancestors are stack has the condition testing.Short() and the node is in
// its then-block.
func underShort(stack []ast.Node) bool {
	for i := len(stack) - 1; i > 0; i-- {
		ifs, ok := stack[i-1].(*ast.IfStmt)
		if !ok {
			continue
		}
		if stack[i] != ifs.Body {
			return false
		}
		call, ok := ifs.Cond.(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "testing" && sel.Sel.Name == "Short"
	}
	return false
}

// scriptSkip matches a testscript line that skips on conditions.
var scriptSkip = regexp.MustCompile(`^\s*((?:\[[^\]]*\]\s*)*)skip\b`)

// scriptConds are the conditions a script may skip on: the platform, root
// or not (CI runs both), a path that must be absent, and [!tool:NAME],
// which fails instead where TOOLGEN_REQUIRE_GUARANTEES is set.
var scriptConds = regexp.MustCompile(`^\[(!linux|!amd64|!arm64|root|!root|short|!absent:[^\]]+|!tool:[^\]]+)\]$`)

// badScriptSkips returns the skip lines of the testscript r (file name rel)
// (its script, before the first file) that skip unconditionally or on a
// condition other than scriptConds.
func badScriptSkips(rel string, r io.Reader) ([]string, error) {
	var bad []string
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan() && !strings.HasPrefix(sc.Text(), "-- "); n++ {
		m := scriptSkip.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		conds := regexp.MustCompile(`\[[^\]]*\]`).FindAllString(m[1], -1)
		if len(conds) == 0 || slices.ContainsFunc(conds, func(c string) bool { return !scriptConds.MatchString(c) }) {
			bad = append(bad, fmt.Sprintf("%s:%d: %s", rel, n, strings.TrimSpace(sc.Text())))
		}
	}
	return bad, sc.Err()
}
