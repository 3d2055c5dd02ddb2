package sandbox_test

import (
	"context"
	"testing"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

// runTrue runs /bin/true on k b.N times.
func runTrue(b *testing.B, k *kernel.Kernel) {
	for b.Loop() {
		if res, err := k.Run(context.Background(), []string{"/bin/true"}); err != nil || res.ExitCode != 0 || res.Notice != "" {
			b.Fatal(res.Text(), err)
		}
	}
}

// BenchmarkPlainRunTrue is the kernel's plain run of /bin/true, the
// baseline for BenchmarkConfinedRunTrue.
func BenchmarkPlainRunTrue(b *testing.B) {
	runTrue(b, plain(b, b.TempDir()))
}

// BenchmarkConfinedRunTrue runs /bin/true confined read-only without
// network.
func BenchmarkConfinedRunTrue(b *testing.B) {
	requireLandlock(b)
	runTrue(b, confined(b, b.TempDir(), kernel.Access{}))
}
