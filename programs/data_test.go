package programs_test

import (
	"context"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	toolexec "github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var update = flag.Bool("update", false, "rewrite the results in testdata/*.txtar")

// TestProgramData replays testdata/NAME.txtar, one file per program or
// family. Its comment says what it covers; its sections are
//
//	-- template --   templates, each followed by what Spec says of it: "ok",
//	                 or its 613 lines ("error 613: …"); every slot is a
//	                 required string, and the deny list allows the binary
//	-- exec --       ExecTool command lines, each followed by what Plan says
//	                 of it: "ok" or its 614 line; the first word is granted
//	                 (and allowed by the deny list); a line whose binary is
//	                 not installed is skipped
//	-- env PATH --   the environment the kernel's hook forces on the program
//	                 at PATH, one entry a line (git's look finds nothing set)
//
// go test -run TestProgramData -update rewrites the results; review the
// diff.
func TestProgramData(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.txtar: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if len(strings.TrimSpace(string(ar.Comment))) == 0 {
				t.Error("the file has no comment saying what it covers")
			}
			changed := false
			for i := range ar.Files {
				f := &ar.Files[i]
				var got []byte
				switch kind, arg, _ := strings.Cut(f.Name, " "); kind {
				case "template":
					got = replay(t, f.Data, templateResult)
				case "exec":
					got = replay(t, f.Data, execResult(t))
				case "env":
					got = []byte(strings.Join(envOf(t, arg), "\n") + "\n")
				case "runs_code":
					got = replay(t, f.Data, runsCodeResult)
				case "toolenv":
					got = []byte(strings.Join(toolEnv(t, arg), "\n") + "\n")
				default:
					t.Fatalf("%s: unknown section %q", file, f.Name)
				}
				if string(got) == string(f.Data) {
					continue
				}
				if *update {
					f.Data, changed = got, true
					continue
				}
				t.Errorf("%s, section %q:\n%s", file, f.Name, lineDiff(string(f.Data), string(got)))
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// isResult reports whether line is a result line rather than a case.
func isResult(line string) bool {
	return line == "ok" || strings.HasPrefix(line, "error ") || strings.HasPrefix(line, "skip ")
}

// replay returns data with each case's result lines replaced by what
// result says of it (nil: keep the lines there are, the case being
// skipped). Blank lines and # comments are kept.
func replay(t *testing.T, data []byte, result func(string) []string) []byte {
	var out []string
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" || strings.HasPrefix(line, "#") {
			out = append(out, line)
			continue
		}
		if isResult(line) {
			t.Errorf("result %q follows no case", line)
			continue
		}
		j := i + 1
		for j < len(lines) && isResult(lines[j]) {
			j++
		}
		res := result(line)
		if res == nil {
			res = lines[i+1 : j]
		}
		out = append(out, line)
		out = append(out, res...)
		i = j - 1
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

// slotRE finds a template's slots.
var slotRE = regexp.MustCompile(`\{([a-z_][a-z0-9_]*)\}`)

// templateResult is what Spec says of a template whose slots are required
// strings.
func templateResult(line string) []string {
	s := tool.Spec{Name: "t", Description: "a template of the program data", Command: line}
	seen := map[string]bool{}
	for _, m := range slotRE.FindAllStringSubmatch(line, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			s.Args = append(s.Args, tool.Arg{Name: m[1], Type: tool.String, Description: "a value", Required: true})
		}
	}
	deny := programs.DefaultDenyList()
	if entry, denied := deny.Match(strings.Fields(line)[0]); denied {
		deny = deny.Without(entry)
	}
	_, err := validate.Spec(&s, validate.WithDenyList(deny))
	if err == nil {
		return []string{"ok"}
	}
	return strings.Split(err.Error(), "\n")
}

// runsCodeResult is what Spec says of a template of a tool that declares
// runs_code, checked against the default deny list. A slot's name gives
// its kind: path… a path slot, enum… an enum of "unit" and "all", num…
// an integer, flag… a boolean whose flag is -v, pat… a string with the
// pattern ^[a-z0-9_]+$; any other a string.
func runsCodeResult(line string) []string {
	s := tool.Spec{Name: "t", Description: "a template of the toolchain data", Command: line, RunsCode: true}
	seen := map[string]bool{}
	for _, m := range slotRE.FindAllStringSubmatch(line, -1) {
		if seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		a := tool.Arg{Name: m[1], Type: tool.String, Description: "a value", Required: true}
		switch name := m[1]; {
		case strings.HasPrefix(name, "path"):
			a.Type = tool.Path
		case strings.HasPrefix(name, "enum"):
			a.Enum = []string{"unit", "all"}
		case strings.HasPrefix(name, "num"):
			a.Type = tool.Integer
		case strings.HasPrefix(name, "flag"):
			a.Type, a.Flag, a.Required = tool.Boolean, "-v", false
		case strings.HasPrefix(name, "pat"):
			a.Pattern = "^[a-z0-9_]+$"
		}
		s.Args = append(s.Args, a)
	}
	_, err := validate.Spec(&s)
	if err == nil {
		return []string{"ok"}
	}
	return strings.Split(err.Error(), "\n")
}

// toolEnv is the environment the toolchain of the program named forces
// on a call in /ws with the cache /cache and the scratch directory
// /scratch, offline, for a user whose HOME is /home/u; then, after a
// line "online:", the same for a tool that names hosts.
func toolEnv(t *testing.T, prog string) []string {
	tc := programs.ToolchainOf(prog)
	if tc == nil {
		t.Fatalf("no toolchain profile covers %q", prog)
	}
	host := func(k string) string {
		if k == "HOME" {
			return "/home/u"
		}
		return ""
	}
	b := programs.Build{Path: "/usr/bin/" + prog, Workspace: "/ws", Cache: "/cache", Scratch: "/scratch", Env: host}
	out := tc.Env(b)
	b.Online = true
	return append(append(out, "online:"), tc.Env(b)...)
}

// execResult returns what Plan says of an ExecTool command line, granting
// its first word on a kernel of a fresh workspace.
//
// The binary is looked up on the kernel's PATH, then on the host's (go
// lives in /usr/local/go/bin), and the deny list allows it under both its
// names (awk is mawk).
func execResult(t *testing.T) func(string) []string {
	ws := t.TempDir()
	return func(line string) []string {
		bin := strings.Fields(line)[0]
		k, err := kernel.New(ws, kernel.WithPrograms(programs.Hook{}))
		if err != nil {
			t.Fatal(err)
		}
		path, err := k.LookPath(bin)
		if err != nil {
			if path, err = exec.LookPath(bin); err != nil {
				t.Logf("%s: not installed here, skipped: %q", bin, line)
				return nil
			}
			if k, err = kernel.New(ws, kernel.WithPrograms(programs.Hook{}), kernel.WithPath(filepath.Dir(path))); err != nil {
				t.Fatal(err)
			}
		}
		deny := programs.DefaultDenyList()
		real, _ := filepath.EvalSymlinks(path)
		for _, name := range []string{bin, real} {
			if entry, denied := deny.Match(name); denied {
				deny = deny.Without(entry)
			}
		}
		tl, err := toolexec.New(k, []string{bin}, toolexec.WithDenyList(deny))
		if err != nil {
			return strings.Split(err.Error(), "\n")
		}
		if _, _, err := tl.Plan(line); err != nil {
			return strings.Split(err.Error(), "\n")
		}
		return []string{"ok"}
	}
}

// envOf is the environment the hook forces on the program at path, run in
// the workspace /workspace (a fixed path: git's safe.directory names it;
// the look, nothingSet, runs nothing there) with the configuration
// directory /cfg; git's look finds nothing set.
func envOf(t *testing.T, path string) []string {
	return programs.Hook{}.Env(path, "/workspace", "/cfg", []string{"status"}, nothingSet)
}

// nothingSet is a look whose git config finds nothing (exit status 1).
func nothingSet(context.Context, []string, []string, io.Writer, io.Writer, time.Duration) error {
	return exec.Command("false").Run()
}

// lineDiff shows want and got line by line where they differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
		}
	}
	return b.String()
}
