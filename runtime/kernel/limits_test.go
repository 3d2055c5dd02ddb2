//go:build unix

package kernel

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestLimitsDefaults(t *testing.T) {
	k := newKernel(t)
	assert.Equal(t, Limits{Memory: DefaultMemoryLimit, CPU: DefaultTimeout, Processes: DefaultProcessLimit}, k.Limits())
	assert.Equal(t, "memory 1 GiB (address space per process), cpu 30s per process, 256 processes", k.Limits().String())
	k = newKernel(t, WithTimeout(90*time.Second))
	assert.Equal(t, 90*time.Second, k.Limits().CPU, "the CPU cap follows the timeout")
	k = newKernel(t, WithMemoryLimit(0), WithCPULimit(1500*time.Millisecond), WithProcessLimit(0))
	assert.Equal(t, "memory none, cpu 2s per process, processes none", k.Limits().String())
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GiB", 3 << 29: "1536 MiB", 64 << 20: "64 MiB", 1 << 10: "1 KiB", 1000: "1000 bytes"} {
		assert.Equal(t, want, formatBytes(n))
	}
}

func TestLimitReason(t *testing.T) {
	l := Limits{Memory: 64 << 20, CPU: 2 * time.Second, Processes: 10}
	const (
		exit1   = syscall.WaitStatus(1 << 8)
		exit0   = syscall.WaitStatus(0)
		killed  = syscall.WaitStatus(syscall.SIGKILL)
		xcpu    = syscall.WaitStatus(syscall.SIGXCPU)
		segv    = syscall.WaitStatus(syscall.SIGSEGV)
		noCPU   = time.Duration(0)
		fullCPU = 2 * time.Second
	)
	for _, tc := range []struct {
		ws      syscall.WaitStatus
		cpu     time.Duration
		rss     int64
		output  string
		refused bool
		want    string
	}{
		{xcpu, noCPU, 0, "", false, "cpu time limit 2s exceeded"},
		{killed, fullCPU, 0, "", false, "cpu time limit 2s exceeded"},
		{killed, noCPU, 0, "", false, ""}, // killed by someone else
		{exit1, noCPU, 0, "sed: couldn't re-allocate memory", false, "memory limit 64 MiB (address space) reached, most likely"},
		{segv, noCPU, 0, "fatal: Out of memory, malloc failed", false, "memory limit 64 MiB (address space) reached, most likely"},
		{exit0, noCPU, 0, "out of memory", false, ""}, // it printed that, and succeeded
		{exit1, noCPU, 0, "bash: fork: retry: Resource temporarily unavailable", false, "process limit 10 reached, most likely"},
		{exit0, noCPU, 0, "", true, "process limit 10 reached: a fork was refused"},
		{exit1, noCPU, 0, "grep: x: No such file or directory", false, ""},
		{exit0, noCPU, 30 << 20, "", false, "memory: peak 30 MiB resident, near the memory limit 64 MiB (address space): " +
			"an allocation may have failed and the output may be incomplete"},
		{exit0, noCPU, 20 << 20, "", false, ""},
	} {
		assert.Equal(t, tc.want, l.limitReason(tc.ws, tc.cpu, tc.rss, tc.output, tc.refused), "%v %q", tc.ws, tc.output)
	}
	assert.Equal(t, "", Limits{}.limitReason(xcpu, fullCPU, 1<<40, "out of memory", true), "no limits, no reasons")
}
