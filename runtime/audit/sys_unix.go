//go:build unix

package audit

import (
	"io/fs"
	"syscall"
)

// noFollowFlags make opening the log refuse a symbolic link as its last
// element, never take the process's controlling terminal or block on a
// FIFO, and not leak into children.
const noFollowFlags = syscall.O_NOFOLLOW | syscall.O_CLOEXEC | syscall.O_NONBLOCK

// linkCount returns how many directory entries name the file fi describes.
func linkCount(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true //nolint:unconvert // Nlink's type differs across systems
}
