package kernel

import "time"

// exitStatus is how a reaped leader ended: an *os.ProcessState when this
// process reaped it, what the spawner process reported when it did.
type exitStatus interface {
	// ExitCode is the exit code, -1 when a signal ended it.
	ExitCode() int
	// Sys is the syscall.WaitStatus (on Unix).
	Sys() any
	// SysUsage is the *syscall.Rusage (on Unix).
	SysUsage() any
	// UserTime and SystemTime are the CPU time it used.
	UserTime() time.Duration
	SystemTime() time.Duration
}
