package kernel

import (
	"fmt"
	"strings"
	"syscall"
	"time"
)

// Default resource limits of every call.
const (
	// DefaultMemoryLimit caps a command's address space (RLIMIT_AS) at
	// 1 GiB: enough for git, grep, sed, find and the like on large
	// repositories, and far from what hurts a host; a program that reserves
	// much more virtual memory than it uses (a JVM, Node, anything built
	// with the race detector or a sanitizer) needs a higher WithMemoryLimit
	// or none. (A Go program reserves about 1.2 GiB at start without a cap,
	// and adapts to one it finds in force at start.)
	DefaultMemoryLimit int64 = 1 << 30
	// DefaultProcessLimit caps the processes a call may have at once: far
	// more than any command tool needs, far fewer than a fork bomb wants.
	DefaultProcessLimit = 256
)

// Limits are the resource caps of every call. A zero field means none.
type Limits struct {
	// Memory is the address-space cap of each process of the call, in
	// bytes (RLIMIT_AS).
	Memory int64
	// CPU is the CPU-time cap of each process of the call (RLIMIT_CPU,
	// whole seconds, rounded up); by default the timeout.
	CPU time.Duration
	// Processes caps how many processes the call may have at once (see
	// WithProcessLimit for what enforces it, as root and not).
	Processes int
	// Data caps what each process of the call allocates (RLIMIT_DATA:
	// its heap and private writable mappings, not what it only reserves),
	// in bytes. The kernel sets it, instead of Memory, for a tool that runs
	// code (a compiler reserves far more address space than it uses); see
	// Access.RunsCode.
	Data int64
}

// WithMemoryLimit caps the address space of each process a call starts at
// bytes (RLIMIT_AS): an allocation beyond it fails, and the Result says the
// limit was the likely reason. Default DefaultMemoryLimit (1 GiB). New
// rejects bytes < 0 and, unless 0 (no cap), bytes < 16 MiB, in which no
// program starts.
func WithMemoryLimit(bytes int64) Option { return func(c *config) { c.limits.Memory = bytes } }

// WithCPULimit caps the CPU time of each process a call starts (RLIMIT_CPU,
// rounded up to whole seconds): past it the process gets SIGXCPU, one
// second later SIGKILL, and the Result says "cpu time limit D exceeded".
// Default: the timeout. New rejects d < 0; 0 means the default.
func WithCPULimit(d time.Duration) Option { return func(c *config) { c.limits.CPU = d } }

// WithProcessLimit caps how many processes a call may have at once; a
// fork beyond it fails (EAGAIN). Default DefaultProcessLimit (256). New
// rejects n < 0; 0 means no cap. What enforces it depends on the system
// (ProcessLimitEnforcement): not root, RLIMIT_NPROC in the call's own user
// namespace, exactly per call; as root, whom RLIMIT_NPROC does not bind, a
// pids cgroup per spawner thread, shared by the concurrent calls of one
// program under one policy, or of all unconfined calls (a fork bomb in one
// call can starve the others until it ends).
func WithProcessLimit(n int) Option { return func(c *config) { c.limits.Processes = n } }

// Limits returns the resource caps of every call.
func (k *Kernel) Limits() Limits { return k.limits }

// check validates l.
func (l Limits) check() error {
	switch {
	case l.Memory < 0 || (l.Memory > 0 && l.Memory < 16<<20):
		return fmt.Errorf("kernel: memory limit %d bytes: want 0 (none) or at least 16 MiB", l.Memory)
	case l.CPU < 0:
		return fmt.Errorf("kernel: cpu limit must not be negative, got %v", l.CPU)
	case l.Data < 0:
		return fmt.Errorf("kernel: data limit must not be negative, got %d", l.Data)
	case l.Processes < 0:
		return fmt.Errorf("kernel: process limit must not be negative, got %d", l.Processes)
	}
	return nil
}

// cpuSeconds is the CPU cap in whole seconds, rounded up.
func (l Limits) cpuSeconds() uint64 {
	return uint64((l.CPU + time.Second - 1) / time.Second)
}

// String describes l in one line, e.g.
// "memory 1 GiB (address space), cpu 30s, 256 processes".
func (l Limits) String() string {
	parts := []string{"memory none", "cpu none", "processes none"}
	switch {
	case l.Memory > 0 && l.Data > 0:
		parts[0] = "memory " + formatBytes(l.Memory) + " (address space per process), " + formatBytes(l.Data) + " of data per process"
	case l.Memory > 0:
		parts[0] = "memory " + formatBytes(l.Memory) + " (address space per process)"
	case l.Data > 0:
		parts[0] = "memory " + formatBytes(l.Data) + " of data per process (RLIMIT_DATA: what it allocates; its address space is not capped)"
	}
	if l.CPU > 0 {
		parts[1] = fmt.Sprintf("cpu %ds per process", l.cpuSeconds())
	}
	if l.Processes > 0 {
		parts[2] = fmt.Sprintf("%d processes", l.Processes)
	}
	return strings.Join(parts, ", ")
}

// formatBytes writes n in the largest binary unit that divides it.
func formatBytes(n int64) string {
	for _, u := range []struct {
		name  string
		shift uint
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// limitReason says which limit most likely ended a command, "" for none.
// cpu is the leader's CPU time, maxRSS the peak resident size (bytes) of
// the leader and its reaped descendants; forkRefused reports that the
// process cap refused a fork (known exactly where a pids cgroup enforces
// it). The memory reason is a judgement: RLIMIT_AS makes an allocation
// fail, and what a program does then is up to it (GNU sed 4.9 takes a
// failed line read for the end of its input and exits 0), so a peak RSS of
// 40 % of the cap or more, or an error message about memory, is reported.
// The peak is the kernel's ru_maxrss, which starts from the host's own
// peak (the child shares the host's memory from the vfork until its exec):
// the caller passes 0 when it is not above the host's, since it then
// says nothing about the command (a host of 1 GiB would otherwise blame
// every command's memory).
func (l Limits) limitReason(ws syscall.WaitStatus, cpu time.Duration, maxRSS int64, output string, forkRefused bool) string {
	switch {
	case l.CPU > 0 && ws.Signaled() && (ws.Signal() == sigXCPU ||
		ws.Signal() == syscall.SIGKILL && cpu >= time.Duration(l.cpuSeconds())*time.Second):
		return fmt.Sprintf("cpu time limit %ds exceeded", l.cpuSeconds())
	case l.Processes > 0 && forkRefused:
		return fmt.Sprintf("process limit %d reached: a fork was refused", l.Processes)
	}
	memCap, kind := l.Memory, "address space"
	if memCap == 0 && l.Data > 0 {
		memCap, kind = l.Data, "data"
	}
	if memCap > 0 && maxRSS >= memCap/10*4 {
		return fmt.Sprintf("memory: peak %s resident, near the memory limit %s (%s): "+
			"an allocation may have failed and the output may be incomplete", formatBytes(maxRSS&^(1<<20-1)), formatBytes(memCap), kind)
	}
	if ws.ExitStatus() == 0 && !ws.Signaled() {
		return ""
	}
	low := strings.ToLower(output)
	switch {
	case memCap > 0 && (strings.Contains(low, "memory") || strings.Contains(low, "cannot allocate")):
		return "memory limit " + formatBytes(memCap) + " (" + kind + ") reached, most likely"
	case l.Processes > 0 && strings.Contains(low, "resource temporarily unavailable"):
		return fmt.Sprintf("process limit %d reached, most likely", l.Processes)
	}
	return ""
}
