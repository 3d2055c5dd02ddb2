package buildtools

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

// BenchmarkGoTestWarm compares a warm go test of a small package through
// the generated go_test tool (confined, its workspace's build cache) with
// the same go test run bare (the user's environment and build cache), in
// one run, alternating: each iteration runs both. Reported: ms per call
// of each and their ratio (docs/performance.md). The workspace's path is
// fixed per user, so that its build cache stays warm between runs; the
// first run of a machine compiles the standard library once, before the
// timer starts.
func BenchmarkGoTestWarm(b *testing.B) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		b.Skip("go is not installed here")
	}
	ws := filepath.Join(os.TempDir(), fmt.Sprintf("toolgen-bench-gotest-%d", os.Geteuid()))
	files := map[string]string{
		"go.mod":       "module example.com/calc\n\ngo 1.22\n",
		"calc.go":      "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
		"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n",
	}
	if err := os.MkdirAll(ws, 0o755); err != nil {
		b.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	k, err := kernel.New(ws, kernel.WithTimeout(20*time.Minute))
	if err != nil {
		b.Fatal(err)
	}
	tl, err := NewGoTest(k)
	if err != nil {
		b.Fatal(err)
	}
	args := GoTestArgs{Run: str("."), Pkg: str(".")}
	viaToolgen := func() {
		res, err := tl.Run(context.Background(), args)
		if err != nil || res.ExitCode != 0 {
			b.Fatalf("toolgen: %v, exit %d: %s", err, res.ExitCode, res.Output)
		}
	}
	bare := func() {
		cmd := exec.Command(goBin, "test", "-count=1", "-run", ".", ".")
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("bare: %v: %s", err, out)
		}
	}
	viaToolgen() // warm both caches
	bare()
	var tg, bt time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		viaToolgen()
		t1 := time.Now()
		bare()
		tg += t1.Sub(t0)
		bt += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tg.Milliseconds())/n, "toolgen-ms/op")
	b.ReportMetric(float64(bt.Milliseconds())/n, "bare-ms/op")
	b.ReportMetric(float64(tg)/float64(bt), "ratio")
}
