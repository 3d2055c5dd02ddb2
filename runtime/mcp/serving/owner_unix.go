//go:build unix

package serving

import (
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow makes an open refuse a symbolic link as the last element
// and keeps the file from leaking into children.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_CLOEXEC

// ownedByMe reports whether fi's file belongs to the user running this process.
func ownedByMe(fi fs.FileInfo) bool {
	sys, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Getuid()
}
