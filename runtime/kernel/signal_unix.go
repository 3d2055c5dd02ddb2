//go:build unix

package kernel

import "syscall"

// sigXCPU is the signal the kernel sends a process past its CPU-time limit.
const sigXCPU = syscall.SIGXCPU

// killPgid sends SIGKILL to every process in the group led by pid. Errors
// (typically ESRCH: the group is already empty) are of no interest.
func killPgid(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
