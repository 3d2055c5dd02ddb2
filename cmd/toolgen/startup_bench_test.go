package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// toolgenBinary builds cmd/toolgen once per test binary, for the start-up
// benchmarks (the scripts run toolgen in-process instead).
var toolgenBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "toolgen-bench")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "toolgen")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{string(out), err}
	}
	return bin, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// BenchmarkStartup runs whole processes, one per iteration: a bare grep (the
// baseline), toolgen version (start-up alone), and toolgen call of grep_text
// doing the same search, unconfined and with the default confinement. Compare
// ns/op against grep in the same run:
//
//	go test -run '^$' -bench Startup ./cmd/toolgen
//
// TOOLGEN_BENCH_BEFORE=/path/to/an/older/toolgen adds its call (default
// confinement) as "before-toolgen-call", for a before/after in one run.
func BenchmarkStartup(b *testing.B) {
	bin, err := toolgenBinary()
	if err != nil {
		b.Fatal(err)
	}
	ws, err := filepath.Abs("../../runtime/builtin")
	if err != nil {
		b.Fatal(err)
	}
	args := `{"pattern":"CommandToolBase","path":"."}`
	for _, bc := range []struct {
		name string
		argv []string
	}{
		{"grep", []string{"grep", "-rn", "CommandToolBase", "."}},
		{"toolgen-version", []string{bin, "version"}},
		{"toolgen-call-confine-off", []string{bin, "call", "--workspace", ws, "--confine", "off", "grep_text", args}},
		{"toolgen-call", []string{bin, "call", "--workspace", ws, "grep_text", args}},
		{"before-toolgen-call", []string{os.Getenv("TOOLGEN_BENCH_BEFORE"), "call", "--workspace", ws, "grep_text", args}},
	} {
		if bc.argv[0] == "" {
			continue
		}
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(bc.argv[0], bc.argv[1:]...)
				cmd.Dir = ws
				if out, err := cmd.Output(); err != nil || len(out) == 0 {
					b.Fatalf("%v: %v (%q)", bc.argv, err, out)
				}
			}
		})
	}
}
