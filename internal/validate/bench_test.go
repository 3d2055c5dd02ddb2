package validate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nanogpt/toolgen/programs"
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

// BenchmarkCheckBinary is what a tool's construction pays for the binary
// rule (LookPath included), per tool.
func BenchmarkCheckBinary(b *testing.B) {
	ws := b.TempDir()
	look := lookPathIn("/usr/local/bin", "/usr/bin", "/bin")
	b.Run("cold", func(b *testing.B) {
		o := options{deny: programs.DefaultDenyList()}
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
				if errs := checkCode(s, t, programs.DefaultDenyList()); len(errs) > 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
