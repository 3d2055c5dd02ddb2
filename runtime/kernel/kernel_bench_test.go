//go:build unix

package kernel

import (
	"context"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

const gib = 1 << 30

// heapNow returns the bytes of live and not yet swept heap objects.
// runtime/metrics does not stop the world, so sampling it often does not slow
// the measured work.
func heapNow() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// heapPeak samples heapNow every millisecond until stop is called, which
// returns the highest value seen.
func heapPeak() (stop func() uint64) {
	read := heapNow
	var peak atomic.Uint64
	peak.Store(read())
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if v := read(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// bareRun runs argv with plain os/exec, stdout discarded (exec's own
// /dev/null), as the baseline for the kernel's overhead.
func bareRun(b *testing.B, argv ...string) {
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkBareExecTrue(b *testing.B) {
	for b.Loop() {
		bareRun(b, "/bin/true")
	}
}

// BenchmarkBareExecTrueOutput is bare os/exec doing what any command tool
// must: capture stdout and stderr (CombinedOutput). The kernel adds to this
// a process group, a bounded buffer, a timeout and the group kill.
func BenchmarkBareExecTrueOutput(b *testing.B) {
	for b.Loop() {
		if _, err := exec.Command("/bin/true").CombinedOutput(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKernelRunTrue is the kernel with confinement off: private
// HOME, PID namespace, limits (and the pids cgroup, as root) still on.
func BenchmarkKernelRunTrue(b *testing.B) {
	runTrue(b, newKernel(b))
}

// BenchmarkKernelRunTrueConfined is BenchmarkKernelRunTrue confined by
// Landlock in strict mode: the same workspace and command, with the
// execute set, the PID namespace and the limits, from a spawner thread.
func BenchmarkKernelRunTrueConfined(b *testing.B) {
	if _, ok := sandbox.Available(); !ok {
		b.Skip("Landlock cannot enforce the policy here")
	}
	runTrue(b, newKernel(b, WithConfinement(sandbox.Strict)))
}

// runTrue runs /bin/true on k b.N times, in one workspace.
func runTrue(b *testing.B, k *Kernel) {
	for b.Loop() {
		if res, err := k.Run(context.Background(), []string{"/bin/true"}); err != nil || res.ExitCode != 0 || res.Notice != "" {
			b.Fatal(res.Text(), err)
		}
	}
}

func BenchmarkBareDrain1GiB(b *testing.B) {
	b.SetBytes(gib)
	buf := make([]byte, drainBufSize)
	stop := heapPeak()
	for b.Loop() {
		cmd := exec.Command("head", "-c", strconv.Itoa(gib), "/dev/zero")
		r, w, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = w, w
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		w.Close()
		var n int64
		for {
			m, err := r.Read(buf)
			k, _ := io.Discard.Write(buf[:m])
			n += int64(k)
			if err != nil {
				break
			}
		}
		r.Close()
		if err := cmd.Wait(); err != nil || n != gib {
			b.Fatal(n, err)
		}
	}
	b.ReportMetric(float64(stop())/(1<<20), "peak-heap-MiB")
}

func BenchmarkKernelDrain1GiB(b *testing.B) {
	b.SetBytes(gib)
	k := newKernel(b, WithTimeout(time.Minute))
	stop := heapPeak()
	for b.Loop() {
		res, err := k.Run(context.Background(), []string{"head", "-c", strconv.Itoa(gib), "/dev/zero"})
		if err != nil || res.ExitCode != 0 || res.Omitted != gib-int64(k.OutputLimit()) {
			b.Fatal(res.Omitted, err)
		}
	}
	b.ReportMetric(float64(stop())/(1<<20), "peak-heap-MiB")
}

// TestDrainLargeOutputKeepsHeapFlat runs a command printing 256 MiB and
// checks the heap does not grow with it.
func TestDrainLargeOutputKeepsHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 256 MiB")
	}
	const size = 256 << 20
	k := newKernel(t)
	runtime.GC()
	before := heapNow()
	stop := heapPeak()
	res := mustRun(t, k, "head", "-c", strconv.Itoa(size), "/dev/zero")
	peak := stop()
	if res.Omitted != size-int64(k.OutputLimit()) || !res.Truncated {
		t.Errorf("Omitted = %d, want %d", res.Omitted, size-k.OutputLimit())
	}
	if growth := int64(peak) - int64(before); growth > 8<<20 {
		t.Errorf("heap grew by %d bytes while draining %d bytes", growth, size)
	}
}
