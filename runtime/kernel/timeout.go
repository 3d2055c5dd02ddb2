package kernel

import (
	"fmt"
	"time"
)

// DefaultMaxTimeout is the longest a call may run unless WithMaxTimeout
// says otherwise (or the kernel's own timeout is longer): 10 minutes, long
// enough for a test suite, short enough that a stuck call does not hold an
// agent for long.
const DefaultMaxTimeout = 10 * time.Minute

// WithMaxTimeout sets the longest any call of the kernel, or of a kernel
// derived from it (WithTimeoutOf), may run. Default: DefaultMaxTimeout, or
// the kernel's timeout when that is longer. New rejects d <= 0 and a d
// shorter than the timeout (WithTimeout).
func WithMaxTimeout(d time.Duration) Option {
	return func(c *config) { c.maxTimeout, c.hasMaxTimeout = d, true }
}

// MaxTimeout returns the longest a call of k may run.
func (k *Kernel) MaxTimeout() time.Duration { return k.maxTimeout }

// WithTimeoutOf returns a kernel that is k in every respect except that a
// command may run for d, capped at k's MaxTimeout (a d <= 0 keeps k's
// timeout). When k's CPU limit is the default (its timeout), the derived
// kernel's follows the new timeout. It returns k itself when nothing
// changes. A tool whose Spec sets its own timeout derives its kernel this
// way (package base does).
func (k *Kernel) WithTimeoutOf(d time.Duration) *Kernel {
	if d <= 0 {
		return k
	}
	d = min(d, k.maxTimeout)
	if d == k.timeout {
		return k
	}
	n := *k // every field is immutable after New: sharing them is safe
	n.timeout = d
	if k.cpuFromTimeout {
		n.limits.CPU = d
	}
	return &n
}

// checkMaxTimeout settles c's maximum: the default (at least the timeout)
// when none was given, else the given one, which must be positive and
// not shorter than the timeout.
func (c *config) checkMaxTimeout() error {
	if !c.hasMaxTimeout {
		c.maxTimeout = max(DefaultMaxTimeout, c.timeout)
		return nil
	}
	switch {
	case c.maxTimeout <= 0:
		return fmt.Errorf("kernel: maximum timeout must be positive, got %v", c.maxTimeout)
	case c.maxTimeout < c.timeout:
		return fmt.Errorf("kernel: maximum timeout %v is shorter than the timeout %v", c.maxTimeout, c.timeout)
	}
	return nil
}
