//go:build windows

package kernel

import (
	"os"
	"syscall"
)

// sigXCPU stands for the CPU-time signal, which Windows does not have: no
// process status ever carries it.
const sigXCPU = syscall.Signal(-1)

// killPgid kills the process pid. Windows has no process groups to signal:
// a process the command started itself is not reached (DescendantControl
// says so).
func killPgid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
