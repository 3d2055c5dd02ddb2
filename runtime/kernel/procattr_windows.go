//go:build windows

package kernel

import "syscall"

// groupAttr is nil: Windows has no process groups to kill; a timeout kills
// the started process alone.
func groupAttr() *syscall.SysProcAttr { return nil }

// descendantNote is what DescendantControl says here.
const descendantNote = "the started process only (Windows has no process groups): a process it starts can outlive the call"
