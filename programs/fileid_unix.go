//go:build unix

package programs

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// keyOf returns the device and inode of the file info describes.
func keyOf(info fs.FileInfo) (fileKey, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(st.Dev), uint64(st.Ino)}, true //nolint:unconvert // Dev and Ino differ in type across systems
}

// singleLink reports whether the file info describes has one directory
// entry only, so that no other name shares it.
func singleLink(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink < 2
}

// regularKeyAt returns the device and inode of the entry name of the open
// directory dir, symlinks followed, when it is a regular file.
func regularKeyAt(dir *os.File, name string) (fileKey, bool) {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), name, &st, 0); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fileKey{}, false
	}
	return fileKey{uint64(st.Dev), uint64(st.Ino)}, true //nolint:unconvert // as keyOf
}
