//go:build linux

package main

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// serveInput is what toolgen serve reads the protocol from: the pipe that
// fd is, opened again non-blocking (a new open file description of the same
// pipe: fd's own flags, which its writer may share, are left alone), so
// that a read waits in the runtime's poller; or def where fd is not a pipe
// or cannot be opened again. A read blocked in a system call between
// requests would hold one of the runtime's Ps, and while one is held the
// runtime's monitor thread does not sleep but polls (~20 wake-ups a call
// of a few milliseconds; docs/performance.md).
func serveInput(fd int, def *os.File) *os.File {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return def
	}
	nfd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(fd), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return def
	}
	return os.NewFile(uintptr(nfd), def.Name())
}
