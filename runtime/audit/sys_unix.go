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

// idOf is the device and inode of the file st describes.
func idOf(st fs.FileInfo) fileID {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(sys.Dev), uint64(sys.Ino)} //nolint:unconvert // their types differ across systems
	}
	return fileID{}
}

// lstatID is the identity of the file path names, not following a final
// symbolic link; it allocates no os.FileInfo (it runs twice per call).
func lstatID(path string) (fileID, error) {
	var sys syscall.Stat_t
	if err := syscall.Lstat(path, &sys); err != nil {
		return fileID{}, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	return fileID{uint64(sys.Dev), uint64(sys.Ino)}, nil //nolint:unconvert // their types differ across systems
}
