package preset

import (
	"time"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

// limits are the resource caps WithMemoryLimit, WithCPULimit and
// WithProcessLimit ask for; nil leaves the kernel's default.
type limits struct {
	memory    *int64
	cpu       *time.Duration
	processes *int
}

// WithMemoryLimit caps the address space of each process a call starts at
// bytes (kernel.WithMemoryLimit; 0: no cap). Default: the kernel's, 1 GiB.
func WithMemoryLimit(bytes int64) Option { return func(c *config) { c.limits.memory = &bytes } }

// WithCPULimit caps the CPU time of each process a call starts
// (kernel.WithCPULimit; 0: the default). Default: the timeout.
func WithCPULimit(d time.Duration) Option { return func(c *config) { c.limits.cpu = &d } }

// WithProcessLimit caps how many processes one call may have at once
// (kernel.WithProcessLimit; 0: no cap). Default: the kernel's, 256.
func WithProcessLimit(n int) Option { return func(c *config) { c.limits.processes = &n } }

// kernelOptions returns kopts plus the kernel options of the limits asked for.
func (l limits) kernelOptions(kopts []kernel.Option) []kernel.Option {
	if l.memory != nil {
		kopts = append(kopts, kernel.WithMemoryLimit(*l.memory))
	}
	if l.cpu != nil {
		kopts = append(kopts, kernel.WithCPULimit(*l.cpu))
	}
	if l.processes != nil {
		kopts = append(kopts, kernel.WithProcessLimit(*l.processes))
	}
	return kopts
}
