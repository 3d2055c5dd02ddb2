package exec

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkPlan measures defences 1 to 5 without running anything (target:
// at most 20µs per typical command); compare with the kernel's spawn cost,
// BenchmarkKernelRunTrue in runtime/kernel, and BenchmarkCallTrue below.
func BenchmarkPlan(b *testing.B) {
	e := newStubEnv(b)
	tl := e.tool(b)
	for _, bc := range []struct{ name, line string }{
		{"ls", "ls -la"},
		{"git-log", "git log --oneline -5"},
		{"grep", `grep -rn "func main" --include='*.go' .`},
		{"sed", "sed -n '1,20p' a.txt"},
		{"refused", "ls; rm -rf /"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				tl.Plan(bc.line)
			}
		})
	}
}

// BenchmarkCallTrue is a whole call: decode, plan and run /bin/true through
// the kernel.
func BenchmarkCallTrue(b *testing.B) {
	e := newStubEnv(b)
	if err := symlink("/bin/true", e.bin+"/true"); err != nil {
		b.Fatal(err)
	}
	tl, err := New(e.k, []string{"true"})
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"command":"true"}`)
	for b.Loop() {
		if _, err := tl.Call(context.Background(), args); err != nil {
			b.Fatal(err)
		}
	}
}
