package programs

import (
	"strings"
	"testing"
)

// TestRegistry checks the registry's own consistency: every program has a
// name, each of its plain names looks up to it (no program's entry
// shadows another's name: "diff" matches "diff3" as a version), no name is
// listed twice, and every code option says what its value does.
func TestRegistry(t *testing.T) {
	seen := map[string]string{}
	for _, p := range All() {
		if len(p.Names) == 0 {
			t.Fatal("a program without names")
		}
		for _, n := range p.Names {
			if other, dup := seen[n]; dup {
				t.Errorf("%q is a name of %s and of %s", n, other, p.Name())
			}
			seen[n] = p.Name()
			if strings.HasSuffix(n, "*") {
				continue
			}
			if got := Lookup(n); got != p {
				t.Errorf("Lookup(%q) = %v, want %s", n, nameOf(got), p.Name())
			}
		}
		for _, o := range p.Code {
			if o.Why == "" {
				t.Errorf("%s: a code option without Why", p.Name())
			}
			if o.Sub != "" && !p.Grammar.Subcommands {
				t.Errorf("%s: a code option for subcommand %q, but the program has none", p.Name(), o.Sub)
			}
		}
		for _, r := range p.Rows {
			if r.Why == "" {
				t.Errorf("%s: a row without Why", p.Name())
			}
		}
	}
	for name, want := range map[string]string{"diff3": "diff3", "diff": "diff", "sed4.9": "sed", "/usr/bin/GIT": "git",
		"python3.12": "python*", "vim.basic": "vi", "gitk": "", "cat": ""} {
		if got := nameOf(Lookup(name)); got != want {
			t.Errorf("Lookup(%q) = %q, want %q", name, got, want)
		}
	}
}

func nameOf(p *Program) string {
	if p == nil {
		return ""
	}
	return p.Name()
}

// FuzzLookup: whatever the name, Lookup does not panic, a path looks up
// to the program of its base name, and a program found has a name that
// matches the binary as a deny-list entry would.
func FuzzLookup(f *testing.F) {
	for _, s := range []string{"git", "/usr/bin/git", "GIT.EXE", "sed4.9", "diff3", "diff", "python3.12", "vim.basic",
		"x86_64-linux-gnu-nm", "nc.openbsd", "", "/", "..", "*", "gitk", "lua5.4", "pip3", "C:\\bin\\tar.exe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p := Lookup(name)
		if q := Lookup("/usr/bin/" + BinaryName(name)); BinaryName(name) != "" && q != p {
			t.Fatalf("Lookup(%q) = %v, but Lookup of its base name = %v", name, nameOf(p), nameOf(q))
		}
		if p == nil {
			return
		}
		if _, ok := NewDenyList(p.Names...).Match(name); !ok {
			t.Fatalf("Lookup(%q) = %s, none of whose names %q matches it", name, p.Name(), p.Names)
		}
	})
}
