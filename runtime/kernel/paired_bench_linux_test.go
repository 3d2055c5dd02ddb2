//go:build linux

package kernel

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// BenchmarkSpawnPaired runs /bin/true once per variant in turn, b.N rounds,
// and reports each variant's median: bare os/exec capturing output (the
// floor), the kernel with confinement off, the kernel confined (strict),
// the same for a tool that declares the network (confined-net: no network
// namespace of the call's own, the rest of confinement's cost), and the
// kernel without each of its costs in turn (no PID namespace, no post-exec
// stop for the limits, no limits, none of them); and the kernel forking
// from the host itself (inproc, inproc-confined: how toolgen call and
// toolgen serve start their calls, with no spawner process). Interleaving
// keeps a loaded machine's drift out of the ratios, which separate
// benchmarks on this shared 2-core machine do not.
//
//	go test -run '^$' -bench SpawnPaired -benchtime 400x ./runtime/kernel/
func BenchmarkSpawnPaired(b *testing.B) {
	if _, ok := sandbox.Available(); !ok {
		b.Skip("Landlock cannot enforce the policy here")
	}
	defer func() { nsForce.Store(nil); noPtrace.Store(false) }()
	none := nsNone
	type variant struct {
		name   string
		k      *Kernel
		noNS   bool
		noStop bool
		times  []time.Duration
	}
	noLimits := []Option{WithProcessLimit(0), WithMemoryLimit(0), WithCPULimit(0)}
	vs := []*variant{
		{name: "bare"},
		{name: "kernel", k: newKernel(b)},
		{name: "confined", k: newKernel(b, WithConfinement(sandbox.Strict))},
		{name: "confined-net", k: newKernel(b, WithConfinement(sandbox.Strict)).WithAccess(Access{Network: true})},
		{name: "no-pidns", k: newKernel(b), noNS: true},
		{name: "no-stop", k: newKernel(b), noStop: true},
		{name: "no-limits", k: newKernel(b, noLimits...)},
		{name: "none", k: newKernel(b, noLimits...), noNS: true, noStop: true},
		{name: "inproc", k: newKernel(b, inProcess)},
		{name: "inproc-confined", k: newKernel(b, inProcess, WithConfinement(sandbox.Strict))},
	}
	for b.Loop() {
		for _, v := range vs {
			nsForce.Store(nil)
			if v.noNS {
				nsForce.Store(&none)
			}
			noPtrace.Store(v.noStop)
			start := time.Now()
			if v.k == nil {
				if _, err := exec.Command("/bin/true").CombinedOutput(); err != nil {
					b.Fatal(err)
				}
			} else if res, err := v.k.Run(context.Background(), []string{"/bin/true"}); err != nil || res.ExitCode != 0 {
				b.Fatal(v.name, res.Text(), err)
			}
			v.times = append(v.times, time.Since(start))
		}
	}
	bare := median(vs[0].times)
	for _, v := range vs {
		m := median(v.times)
		b.ReportMetric(float64(m.Microseconds()), v.name+"-µs")
		if v.k != nil {
			b.ReportMetric(float64(m)/float64(bare), v.name+"/bare")
		}
	}
	by := map[string]time.Duration{}
	for _, v := range vs {
		by[v.name] = median(v.times)
	}
	b.ReportMetric(float64(by["confined"])/float64(by["kernel"]), "confined/kernel")
	b.ReportMetric(float64(by["inproc-confined"])/float64(by["inproc"]), "inproc-confined/inproc")
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}
