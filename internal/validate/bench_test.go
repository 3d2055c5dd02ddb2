package validate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nanogpt/toolgen/runtime/tool"
)

func BenchmarkValue(b *testing.B) {
	for _, bc := range []struct {
		name, v string
		a       tool.Arg
	}{
		{"grep-pattern", `\bfunc\s+[A-Z]\w*\(ctx`, tool.Arg{Name: "pattern", Type: tool.String}},
		{"path", "internal/validate/value.go", tool.Arg{Name: "path", Type: tool.Path}},
		{"integer", "1024", tool.Arg{Name: "n", Type: tool.Integer}},
		{"non-ASCII", "日本語のテキスト", tool.Arg{Name: "pattern", Type: tool.String}},
		{"sed-range", "10,200", tool.Arg{Name: "range", Type: tool.String, Pattern: `[0-9]+(,[0-9]+)?`}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Value(&bc.a, bc.v, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPath(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "main.go"), nil, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, v := range []string{".", "src/main.go"} {
		b.Run(v, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Path("path", v, root); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPathPhysical compares Path, which walks the value name by name
// as the kernel resolves it, with filepath.EvalSymlinks of the same path as
// the baseline (the same Lstat per name, no confinement).
func BenchmarkPathPhysical(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "src", "pkg"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Symlink("src", filepath.Join(root, "in")); err != nil {
		b.Fatal(err)
	}
	for _, v := range []string{"src/pkg", "in/../src/pkg", "in/pkg/../pkg"} {
		b.Run("baseline-EvalSymlinks/"+v, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := filepath.EvalSymlinks(root + "/" + v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Path/"+v, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Path("path", v, root); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProgram is the per-call cost of judging the file a binary
// resolves to (what ExecTool pays on every call), against the name-only
// DenyList.Match it replaces as the baseline.
func BenchmarkProgram(b *testing.B) {
	d := DefaultDenyList()
	for _, p := range installed("/usr/bin/grep", "/usr/bin/egrep", "/usr/bin/python3") {
		b.Run("baseline-Match/"+filepath.Base(p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.Match(p)
			}
		})
		b.Run("Program/"+filepath.Base(p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.Program(p)
			}
		})
	}
}

// BenchmarkCheckBinary is what a tool's construction pays for the binary
// rule (LookPath included), per tool.
func BenchmarkCheckBinary(b *testing.B) {
	ws := b.TempDir()
	look := lookPathIn("/usr/local/bin", "/usr/bin", "/bin")
	b.Run("cold", func(b *testing.B) {
		o := options{deny: DefaultDenyList()}
		b.ReportAllocs()
		for b.Loop() {
			if err := checkBinary("grep", "/usr/bin/grep", ws, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("repeated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := CheckBinary("grep", ws, look); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDirIndex is what a process pays once per system directory for
// the same-file rule of a program with more than one link (/usr/bin/grep
// in some images): the directory's denied programs, indexed by inode.
// Baseline: listing the directory alone.
func BenchmarkDirIndex(b *testing.B) {
	d := DefaultDenyList()
	b.Run("baseline-list", func(b *testing.B) {
		for b.Loop() {
			f, err := os.Open("/usr/bin")
			if err != nil {
				b.Fatal(err)
			}
			f.Readdirnames(-1)
			f.Close()
		}
	})
	b.Run("index", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			indexes.Lock()
			indexes.m = nil
			indexes.Unlock()
			if len(d.index("/usr/bin", true).files) == 0 {
				b.Fatal("no denied program indexed in /usr/bin")
			}
		}
	})
}

// BenchmarkDenyListPreset is what assembling a preset pays for its deny
// list with no extra or allowed entries: DefaultDenyList().With().Without().
// Baseline: one With of a single entry, which must rebuild.
func BenchmarkDenyListPreset(b *testing.B) {
	d := DefaultDenyList()
	b.Run("baseline-With1", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.With("curl")
		}
	})
	b.Run("With-Without-nothing", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.With().Without()
		}
	})
}

// BenchmarkProgramCold is Program's first look at a program with two links
// in a process: every system bin directory indexed (see BenchmarkDirIndex
// for one). Baseline: the same look with the indexes cached.
func BenchmarkProgramCold(b *testing.B) {
	d := DefaultDenyList()
	dir := b.TempDir()
	prog := filepath.Join(dir, "tool")
	if err := os.WriteFile(prog, []byte("\x7fELF"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Link(prog, filepath.Join(dir, "tool2")); err != nil {
		b.Fatal(err)
	}
	b.Run("baseline-cached", func(b *testing.B) {
		d.Program(prog)
		for b.Loop() {
			if _, denied := d.Program(prog); denied {
				b.Fatal("denied")
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			indexes.Lock()
			indexes.m = nil
			indexes.Unlock()
			if _, denied := d.Program(prog); denied {
				b.Fatal("denied")
			}
		}
	})
}

// BenchmarkSpecCode compares the code-position rule (checkCode) with the
// whole of Spec, of which it is a part, in the same run: sed_print (a row
// of the code table, a pattern slot), a grep (no row), a git template with
// an enum for -c and an optional slot (two readings).
func BenchmarkSpecCode(b *testing.B) {
	specs := map[string]*tool.Spec{
		"sed": {Name: "sed_print", Description: "d", Command: "sed -n {range}p {path}", Args: []tool.Arg{
			{Name: "range", Type: tool.String, Description: "d", Required: true, Pattern: `[0-9]+(,[0-9]+)?`},
			{Name: "path", Type: tool.Path, Description: "d", Required: true}}},
		"grep": {Name: "grep", Description: "d", Command: "grep -rn {pattern} {path}", Args: []tool.Arg{
			{Name: "pattern", Type: tool.String, Description: "d", Required: true},
			{Name: "path", Type: tool.Path, Description: "d", Required: true}}},
		"git": {Name: "git_log", Description: "d", Command: "git -c {cfg} log -n {n} -- {path}", Args: []tool.Arg{
			{Name: "cfg", Type: tool.String, Description: "d", Required: true, Enum: []string{"color.ui=never", "core.quotepath=off"}},
			{Name: "n", Type: tool.Integer, Description: "d", Required: true},
			{Name: "path", Type: tool.Path, Description: "d"}}},
	}
	for name, s := range specs {
		t, err := Spec(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/Spec", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Spec(s); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/checkCode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if errs := checkCode(s, t, DefaultDenyList()); len(errs) > 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
