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
