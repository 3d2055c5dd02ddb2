package gen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/base"
)

// e2eTest is the test written into the generated agent package: typed Run
// against real files, a success and a 614, and the package-level functions.
// The package declares tool and json itself (user.go), so its files import
// toolgen's tool package under another name, as the generated file must.
const e2eTest = `package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	rt "github.com/nanogpt/toolgen/runtime/tool"
)

func TestTypedRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("first\na needle here\nlast\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	k, err := kernel.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := NewSearchText(k)
	if err != nil {
		t.Fatal(err)
	}

	res, err := st.Run(ctx, SearchTextArgs{Pattern: "needle"})
	if err != nil || res.ExitCode != 0 || !strings.Contains(res.Output, "notes.txt:2:a needle here") || !strings.HasPrefix(res.Text(), "exit: 0\noutput: ") {
		t.Errorf("Run(needle) = %+v, %v", res, err)
	}
	res, err = st.Run(ctx, SearchTextArgs{Pattern: "needle", Path: new("notes.txt")})
	if err != nil || !strings.Contains(res.Output, "2:a needle here") {
		t.Errorf("Run(needle, notes.txt) = %+v, %v", res, err)
	}
	// A command that fails is a typed result, not an error: grep finds
	// nothing (exit 1), grep is asked for a missing file (exit 2).
	res, err = st.Run(ctx, SearchTextArgs{Pattern: "absent"})
	if err != nil || res.ExitCode != 1 || res.Text() != "exit: 1\noutput: " {
		t.Errorf("Run(absent) = %+v, %v; want exit 1 and no error", res, err)
	}
	res, err = st.Run(ctx, SearchTextArgs{Pattern: "x", Path: new("missing.txt")})
	if err != nil || res.ExitCode != 2 || !strings.Contains(res.Output, "missing.txt") || res.Duration <= 0 {
		t.Errorf("Run(missing file) = %+v, %v; want exit 2 and no error", res, err)
	}

	for _, bad := range []SearchTextArgs{
		{Pattern: "a;b"},
		{Pattern: "-f/etc/passwd"},
		{Pattern: "x", Path: new("../outside")},
		{Pattern: "x", Path: new("/etc")},
	} {
		res, err := st.Run(ctx, bad)
		var te *rt.Error
		if !errors.As(err, &te) || te.Code != rt.CodeValue || res.Output != "" || res.Argv != nil {
			t.Errorf("Run(%+v) = %+v, %v; want a 614 and nothing run", bad, res, err)
		}
	}

	hl, err := NewHeadLines(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err = hl.Run(ctx, HeadLinesArgs{Path: "notes.txt", Count: new(int64(1))})
	if err != nil || res.Output != "first\n" {
		t.Errorf("Run(count 1) = %+v, %v", res, err)
	}
	res, err = hl.Run(ctx, HeadLinesArgs{Path: "notes.txt"}) // nil: the default 10
	if err != nil || !strings.Contains(res.Output, "last") {
		t.Errorf("Run(default count) = %+v, %v", res, err)
	}
	out, err := hl.Call(ctx, []byte("{\"path\":\"notes.txt\",\"count\":1}"))
	if err != nil || out != "exit: 0\noutput: first\n" {
		t.Errorf("Call(count 1) = %q, %v", out, err)
	}
	if _, err := hl.Run(ctx, HeadLinesArgs{Path: "notes.txt", Count: new(int64(-1))}); rt.CodeOf(err) != rt.CodeValue {
		t.Errorf("Run(count -1) error = %v, want 614", err)
	}

	tools, err := Tools(k)
	if err != nil || len(tools) != 2 || tools[0].Name() != "head_lines" || tools[1].Name() != "search_text" {
		t.Fatalf("Tools = %v, %v", tools, err)
	}
	if Digests()["search_text"] != SearchTextDigest || st.Digest() != rt.Digest(st.Spec()) {
		t.Errorf("digests disagree: %v", Digests())
	}
	// The constructor checks the digest, then validates again (613).
	if _, err := base.NewGenerated[SearchTextArgs](SearchTextSpec(), "sha256:0", k); rt.CodeOf(err) != rt.CodeSpec || !strings.Contains(err.Error(), "run go generate") {
		t.Errorf("digest mismatch: %v", err)
	}
	denied := SearchTextSpec()
	denied.Command = "rm -rf {pattern} {path}"
	if _, err := base.NewGenerated[SearchTextArgs](denied, rt.Digest(denied), k); rt.CodeOf(err) != rt.CodeSpec || !strings.Contains(err.Error(), "deny list") {
		t.Errorf("denied binary: %v", err)
	}
	// The options reach the validator: a deny list naming grep refuses it.
	if _, err := NewSearchText(k, base.WithDenyList(programs.DefaultDenyList().With("grep"))); rt.CodeOf(err) != rt.CodeSpec || !strings.Contains(err.Error(), "binary \"grep\" is on the deny list") {
		t.Errorf("extended deny list: %v", err)
	}
	if json != "user's" || tool() != "user's" {
		t.Error("the package's own declarations changed")
	}
}
`

// userGo declares, in the target package, names the generated file
// imports: the generator must alias its imports.
const userGo = `package agent

var json = "user's"

func tool() string { return "user's" }
`

const headLines = `{
  "name": "head_lines",
  "description": "Print the first lines of a file",
  "command": "head -n {count} {path}",
  "arguments": {
    "count": {"type": "integer", "description": "How many lines", "default": 10},
    "path":  {"type": "path", "description": "The file", "required": true}
  },
  "examples": [
    {"args": {"path": "a.txt"}, "argv": ["head", "-n", "10", "a.txt"]},
    {"args": {"path": "a.txt", "count": 1.5}, "rejects": "not a non-negative integer"}
  ]
}
`

// TestCompileAndRun proves the generator's output in a module of its own,
// as an agent repository would have it (a replace to this module):
//
//   - every golden of testdata/ is a package (the goldens compile);
//   - package agent is generated for real: Resolve (go/packages) on a
//     directory whose own file declares json and tool, then Generate;
//
// then go vet checks them all and go test runs the generated example tests
// and e2eTest, which calls generated tools through their typed Run against
// real files. It runs offline (GOPROXY=off, go.sum copied from this module).
func TestCompileAndRun(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds and tests a module with the go command; runs in make test-all")
	}
	goBin := guarantee.Program(t, "go")
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/agent\n\ngo 1.26.8\n\n"+
		"require github.com/nanogpt/toolgen v0.0.0-00010101000000-000000000000\n\n"+
		"replace github.com/nanogpt/toolgen => "+repo+"\n")
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(mod, "go.sum"), string(sum))

	for _, c := range goldenCases(t) {
		codeFile, testFile, _ := goldenFiles(c.name)
		dir := filepath.Join(mod, "golden", c.name)
		for src, dst := range map[string]string{codeFile: "tools_gen.go", testFile: "tools_gen_test.go"} {
			data, err := os.ReadFile(src)
			if os.IsNotExist(err) {
				continue
			}
			require.NoError(t, err)
			writeFile(t, filepath.Join(dir, dst), string(data))
		}
	}

	agent := filepath.Join(mod, "agent")
	writeFile(t, filepath.Join(agent, "user.go"), userGo)
	writeFile(t, filepath.Join(agent, "e2e_test.go"), e2eTest)
	writeFile(t, filepath.Join(agent, "head_lines.tool.json"), headLines)
	search, err := os.ReadFile(filepath.Join("testdata", "search_text.tool.json"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(agent, "search_text.tool.json"), string(search))
	target, err := Resolve(agent, "", generatedFile, "tools_gen_test.go")
	require.NoError(t, err)
	require.Equal(t, "agent", target.Name)
	require.Equal(t, "example.com/agent/agent", target.Path)
	require.Equal(t, "user.go", target.Reserved["json"])
	descs, err := ReadDir(agent)
	require.NoError(t, err)
	out, err := Generate(Config{Package: target.Name, Source: target.Source(agent), Reserved: target.Reserved}, descs)
	require.NoError(t, err)
	assert.Contains(t, string(out.Code), `toolgentool "github.com/nanogpt/toolgen/runtime/tool"`, "the generated code aliases runtime/tool")
	assert.Contains(t, string(out.Code), "// source: agent\n")
	writeFile(t, filepath.Join(agent, "tools_gen.go"), string(out.Code))
	writeFile(t, filepath.Join(agent, "tools_gen_test.go"), string(out.Test))

	env := append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	for _, args := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir, cmd.Env = mod, env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
		t.Logf("go %s:\n%s", strings.Join(args, " "), out)
	}

	// A generated file of a version the runtime does not run fails to
	// compile, on its assertion line, both ways: too new and too old.
	for _, v := range []int{base.MaxGeneratedVersion + 1, base.MinGeneratedVersion - 1} {
		stale := strings.ReplaceAll(string(out.Code), fmt.Sprintf("(%d - ", GeneratedVersion), fmt.Sprintf("(%d - ", v))
		stale = strings.ReplaceAll(stale, fmt.Sprintf(" - %d)", GeneratedVersion), fmt.Sprintf(" - %d)", v))
		writeFile(t, filepath.Join(mod, "testdata", "stale", "tools_gen.go"), stale)
		writeFile(t, filepath.Join(mod, "testdata", "stale", "user.go"), userGo)
		cmd := exec.Command(goBin, "build", "./testdata/stale")
		cmd.Dir, cmd.Env = mod, env
		got, err := cmd.CombinedOutput()
		assert.Error(t, err, "version %d: go build succeeded; want a compile error on the EnforceVersion line", v)
		assert.Contains(t, string(got), "EnforceVersion", "version %d", v)
		assert.Contains(t, string(got), "overflows", "version %d", v)
	}
}

// TestGeneratedVersionFitsRuntime: the version Generate emits is one the
// runtime of this module runs.
func TestGeneratedVersionFitsRuntime(t *testing.T) {
	assert.GreaterOrEqual(t, GeneratedVersion, base.MinGeneratedVersion, "gen.GeneratedVersion is below base's range")
	assert.LessOrEqual(t, GeneratedVersion, base.MaxGeneratedVersion, "gen.GeneratedVersion is above base's range")
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}
