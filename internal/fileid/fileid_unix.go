//go:build unix

package fileid

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Of returns the device and inode of the file info describes.
func Of(info fs.FileInfo) (Key, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return Key{}, false
	}
	return Key{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true //nolint:unconvert // Dev and Ino differ in type across systems
}

// SingleLink reports whether the file info describes has one directory
// entry only, so that no other name shares it.
func SingleLink(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink < 2
}

// RegularAt returns the device and inode of the entry name of the open
// directory dir, symlinks followed, when it is a regular file.
func RegularAt(dir *os.File, name string) (Key, bool) {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), name, &st, 0); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return Key{}, false
	}
	return Key{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true //nolint:unconvert // as Of
}
