//go:build unix && !linux

package kernel

import "syscall"

// groupAttr makes the started command the leader of a new process group,
// which a timeout kills whole.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// descendantNote is what DescendantControl says here.
const descendantNote = "process group only (no PID namespace outside Linux): a descendant that calls setsid can outlive the call"
