//go:build linux

package kernel

import (
	"context"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// ballast is the live heap BenchmarkSpawnHeap holds, every page touched.
var ballast []byte

// BenchmarkSpawnHeap runs /bin/true from a host holding a live heap of 0,
// 256 MiB and 1 GiB in turn (in one run), each round all variants in turn:
// bare os/exec capturing output (the floor), the kernel with confinement
// off, confined (strict), and both forking from the host itself (the
// in-process path, used where no spawner process starts). It reports each
// variant's median per heap and the ratios the targets name: a call from
// a 1 GiB host against one from an empty host, confined against
// unconfined, the kernel against bare os/exec. The heap stages run one
// after another: on a loaded machine compare the -vs-bare ratios.
//
//	go test -run '^$' -bench SpawnHeap -benchtime 200x ./runtime/kernel/
func BenchmarkSpawnHeap(b *testing.B) {
	confinedOK := true
	if _, ok := sandbox.Available(); !ok {
		confinedOK = false
	}
	type variant struct {
		name string
		k    *Kernel
		med  map[int]time.Duration
	}
	vs := []*variant{{name: "bare"}, {name: "kernel", k: newKernel(b)}, {name: "inproc", k: newKernel(b, inProcess)}}
	if confinedOK {
		vs = append(vs,
			&variant{name: "confined", k: newKernel(b, WithConfinement(sandbox.Strict))},
			&variant{name: "confined-inproc", k: newKernel(b, WithConfinement(sandbox.Strict), inProcess)})
	}
	sizes := []int{0, 256 << 20, 1 << 30}
	for _, v := range vs {
		v.med = map[int]time.Duration{}
	}
	for _, size := range sizes {
		ballast = make([]byte, size)
		for i := 0; i < size; i += 4096 {
			ballast[i] = 1
		}
		runtime.GC()
		times := make([][]time.Duration, len(vs))
		for i := 0; i < b.N; i++ {
			for j, v := range vs {
				start := time.Now()
				if v.k == nil {
					if _, err := exec.Command("/bin/true").CombinedOutput(); err != nil {
						b.Fatal(err)
					}
				} else if res, err := v.k.Run(context.Background(), []string{"/bin/true"}); err != nil || res.ExitCode != 0 {
					b.Fatal(v.name, res.Text(), err)
				}
				times[j] = append(times[j], time.Since(start))
			}
		}
		for j, v := range vs {
			v.med[size] = median(times[j])
			b.ReportMetric(float64(v.med[size].Microseconds()), v.name+"@"+mib(size)+"-µs")
		}
	}
	ballast = nil
	bare := vs[0]
	for _, v := range vs[1:] {
		b.ReportMetric(ratio(v.med[1<<30], v.med[0]), v.name+"-1GiB/0")
		// The same against bare os/exec at each heap: the stages run one
		// after another, and bare (which vforks whatever the heap) takes
		// the machine's drift between them out.
		b.ReportMetric(ratio(v.med[1<<30], bare.med[1<<30])/ratio(v.med[0], bare.med[0]), v.name+"-1GiB/0-vs-bare")
		b.ReportMetric(ratio(v.med[0], bare.med[0]), v.name+"/bare@0")
		b.ReportMetric(ratio(v.med[1<<30], bare.med[1<<30]), v.name+"/bare@1GiB")
	}
	if confinedOK {
		b.ReportMetric(ratio(vs[3].med[0], vs[1].med[0]), "confined/kernel@0")
		b.ReportMetric(ratio(vs[3].med[1<<30], vs[1].med[1<<30]), "confined/kernel@1GiB")
	}
}

func mib(n int) string { return strconv.Itoa(n>>20) + "MiB" }

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }
