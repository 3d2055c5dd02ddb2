package base_test

import (
	"encoding/json"
	"testing"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// BenchmarkValidateAndAssemble measures a typical grep call from the model's
// JSON to the argv, with no process: decode, slot-value rules, path
// confinement, assembly. Target: ≤ 2 µs and ≤ 10 allocations. The path is
// the workspace itself ("."), which needs no system call.
func BenchmarkValidateAndAssemble(b *testing.B) {
	benchArgv(b, `{"pattern":"func\\s+main","path":"."}`)
}

// BenchmarkValidateAndAssembleSubdir is the same call on a path below the
// workspace: one lstat per path element, to catch a symlink escape.
func BenchmarkValidateAndAssembleSubdir(b *testing.B) {
	benchArgv(b, `{"pattern":"func\\s+main","path":"src/main.go"}`)
}

func benchArgv(b *testing.B, args string) {
	spec := tool.Spec{Name: "grep_text", Description: "d", Command: "grep -rn {pattern} {path}",
		Args: []tool.Arg{
			{Name: "pattern", Type: tool.String, Description: "p", Required: true},
			{Name: "path", Type: tool.Path, Description: "p", Default: ".", HasDefault: true},
		}}
	k := workspace(b, map[string]string{"src/main.go": "package main"})
	t, err := base.New(spec, k)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := t.Argv(json.RawMessage(args)); err != nil {
			b.Fatal(err)
		}
	}
}
