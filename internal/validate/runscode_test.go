package validate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// runsCodeSpec is a spec of template cmd with one required string slot
// per {slot}.
func runsCodeSpec(cmd string, runsCode bool) tool.Spec {
	s := tool.Spec{Name: "t", Description: "d", Command: cmd, RunsCode: runsCode}
	for _, w := range strings.Fields(cmd) {
		if i := strings.IndexByte(w, '{'); i >= 0 {
			name := strings.TrimSuffix(w[i+1:], "}")
			s.Args = append(s.Args, tool.Arg{Name: name, Type: tool.String, Description: "v", Required: true})
		}
	}
	return s
}

// TestRunsCodeDenyList: runs_code lifts the build-tools entries of a
// toolchain profile and nothing else; without it, those binaries are a
// 613 that names runs_code. Programs dangerous for another reason stay
// denied whatever the declaration.
func TestRunsCodeDenyList(t *testing.T) {
	for _, c := range []struct {
		cmd      string
		runsCode bool
		want     string // "" accepted; else a substring of the 613
	}{
		{"go test ./...", true, ""},
		{"go test ./...", false, `declares "runs_code": true`},
		{"make test", false, `"runs_code"`},
		{"cargo test", false, `"runs_code"`},
		{"npm test", false, `"runs_code"`},
		{"pnpm test", false, `"runs_code"`},
		{"yarn test", false, `"runs_code"`},
		{"cmake --build build", false, `"runs_code"`},
		{"ctest --test-dir build", false, `"runs_code"`},
		{"ninja -C build", false, `"runs_code"`},
		{"pytest -q", false, `"runs_code"`},
		{"python3 -m pytest", false, `"runs_code"`},
		{"node --test", false, `"runs_code"`},
		{"npm test", true, ""},
		{"/usr/local/go/bin/go vet ./...", true, ""},
		{"GO test ./...", true, ""},
		// dangerous for another reason: never lifted
		{"rm -rf {x}", true, `"runs_code" does not lift`},
		{"sudo make", true, `"runs_code" does not lift`},
		{"sh -c {x}", true, `"runs_code" does not lift`},
		{"bash run.sh", true, `"runs_code" does not lift`},
		{"env go test", true, `"runs_code" does not lift`},
		{"apt-get install {x}", true, `"runs_code" does not lift`},
		{"apt install {x}", true, `"runs_code" does not lift`},
		{"dpkg -i {x}", true, `"runs_code" does not lift`},
		{"pip install {x}", true, `"runs_code" does not lift`},
		{"pip3 install -r requirements.txt", true, `"runs_code" does not lift`},
		{"rustup run stable cargo", true, `"runs_code" does not lift`},
		{"npx jest", true, `"runs_code" does not lift`},
		{"corepack enable", true, `"runs_code" does not lift`},
		{"gradle test", true, `"runs_code" does not lift`},
		{"docker build .", true, `"runs_code" does not lift`},
		{"xargs go test", true, `"runs_code" does not lift`},
		{"timeout 5 go test", true, `"runs_code" does not lift`},
		{"perl Makefile.PL", true, `"runs_code" does not lift`},
		// a runs_code template of the right program in the wrong form
		{"python3 -c {x}", true, "only as a test runner"},
		{"node -e {x}", true, "only as its test runner"},
		{"go test -exec {x} ./...", true, "-exec"},
		{"go test -toolexec=/bin/sh ./...", true, "-toolexec"},
		{"make -f {x}", true, "path slot"},
		{"make {x}", true, "variable assignment"},
		// runs_code on a program no profile covers
		{"grep -rn {x} .", true, "no build or test runner"},
		{"git log", true, "no build or test runner"},
	} {
		s := runsCodeSpec(c.cmd, c.runsCode)
		_, err := Spec(&s)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q (runs_code %v): %v, want accepted", c.cmd, c.runsCode, err)
		case c.want != "" && err == nil:
			t.Errorf("%q (runs_code %v) accepted, want a 613 with %q", c.cmd, c.runsCode, c.want)
		case c.want != "" && (tool.CodeOf(err) != tool.CodeSpec || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q (runs_code %v): %v, want a 613 with %q", c.cmd, c.runsCode, err, c.want)
		}
	}
}

// TestRunsCodeCheckBinary: npm is a script run by node, and node is
// denied: only a runs_code tool's check lifts node's entry for it.
func TestRunsCodeCheckBinary(t *testing.T) {
	npm := guarantee.Program(t, "npm")
	look := func(string) (string, error) { return npm, nil }
	ws := t.TempDir()
	if err := CheckBinary("npm", ws, look); err == nil || !strings.Contains(err.Error(), "deny list") {
		t.Errorf("CheckBinary(npm) without runs_code = %v, want denied", err)
	}
	if err := CheckBinary("npm", ws, look, RunsCode(true)); err != nil {
		t.Errorf("CheckBinary(npm) with runs_code = %v, want accepted", err)
	}
	sh, _ := filepath.EvalSymlinks("/bin/sh")
	if err := CheckBinary("/bin/sh", ws, func(string) (string, error) { return sh, nil }, RunsCode(true)); err == nil {
		t.Error("CheckBinary(/bin/sh) with runs_code accepted")
	}
}

// TestPatternAdmits pins the reading of patterns for a rune.
func TestPatternAdmits(t *testing.T) {
	for _, c := range []struct {
		pattern string
		r       rune
		want    bool
	}{
		{"^[a-z0-9_]+$", '=', false},
		{"^[a-z0-9_]+$", 'q', true},
		{"[^a]+", '=', true},
		{".*", '@', true},
		{"a|b=c", '=', true},
		{"(?i)X", 'x', true},
		{`\w+`, '=', false},
		{`\W`, '=', true},
		{"[", '=', true}, // not a pattern: read as admitting everything
	} {
		a := tool.Arg{Type: tool.String, Pattern: c.pattern}
		if got := admits(a, c.r); got != c.want {
			t.Errorf("admits(%q, %q) = %v, want %v", c.pattern, c.r, got, c.want)
		}
	}
	if admits(tool.Arg{Type: tool.Integer}, '=') || !admits(tool.Arg{Type: tool.Path}, '=') {
		t.Error("integer admits '=' or path does not")
	}
	if admits(tool.Arg{Type: tool.String, Enum: []string{"a", "b"}}, '=') || !admits(tool.Arg{Type: tool.String, Enum: []string{"a=b"}}, '=') {
		t.Error("enum read wrong")
	}
}

// FuzzRunsCodeSpec: whatever the template, a runs_code Spec that passes
// runs a program a toolchain profile covers, and one that is not
// runs_code never runs a program of the build-tools group a profile
// lifts.
func FuzzRunsCodeSpec(f *testing.F) {
	for _, s := range []string{"go test ./...", "make {x}", "node --test {x}", "python3 -m pytest -p {x}", "npm exec {x}",
		"cargo --config {x} test", "rm -rf /", "go test -exec={x}", "make -f{x}", "cmake -E {x}", "yarn {x}"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, cmd string, runsCode bool) {
		s := runsCodeSpec(cmd, runsCode)
		tm, err := Spec(&s)
		if err != nil {
			if tool.CodeOf(err) != tool.CodeSpec {
				t.Fatalf("Spec(%q) = %v, want a 613", cmd, err)
			}
			return
		}
		tc := programs.ToolchainOf(tm.Binary())
		if runsCode && tc == nil {
			t.Fatalf("runs_code %q accepted, but no toolchain covers %q", cmd, tm.Binary())
		}
		if entry, denied := programs.DefaultDenyList().Match(tm.Binary()); denied && (!runsCode || !tc.LiftsEntry(entry)) {
			t.Fatalf("%q (runs_code %v) accepted, but its binary is denied by %q", cmd, runsCode, entry)
		}
	})
}
