package gen

import (
	"fmt"
	"testing"
)

// synthetic returns n distinct valid descriptors of the usual shapes: two
// to four slots of every type, enums, patterns, defaults, and examples on
// every tenth.
func synthetic(n int) []Descriptor {
	descs := make([]Descriptor, n)
	for i := range descs {
		examples := ""
		if i%10 == 0 {
			examples = `,
  "examples": [
    {"args": {"pattern": "x"}, "argv": ["grep", "-rn", "--max-count=5", "x", "."]},
    {"args": {"pattern": "x;y"}, "rejects": "U+003B"}
  ]`
		}
		descs[i] = Descriptor{
			Path: fmt.Sprintf("tool_%04d.tool.json", i),
			Data: fmt.Appendf(nil, `{
  "name": "tool_%04d",
  "description": "Synthetic tool number %d: search text in the workspace",
  "command": "grep -rn --max-count={count} --mode={mode} {pattern} {path}",
  "arguments": {
    "pattern": {"type": "string", "description": "What to search for", "required": true},
    "count":   {"type": "integer", "description": "Matches per file", "default": 5},
    "mode":    {"type": "string", "description": "A prefix", "enum": ["a", "b"], "pattern": "[ab]"},
    "path":    {"type": "path", "description": "Where to search", "default": "."}
  }%s
}`, i, i, examples),
		}
	}
	return descs
}

// BenchmarkGenerate1000 is the generator alone on 1,000 descriptors:
// decode, validate, name, emit and format (budget: 500 ms; go/packages is
// not part of it).
func BenchmarkGenerate1000(b *testing.B) {
	descs := synthetic(1000)
	cfg := Config{Package: "tools", Source: "tools"}
	var size int
	for b.Loop() {
		out, err := Generate(cfg, descs)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out.Code) + len(out.Test)
	}
	b.ReportMetric(float64(size), "bytes/op")
}
