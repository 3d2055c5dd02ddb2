//go:build unix && !linux

package sandbox

import "golang.org/x/sys/unix"

// FileID is "DEV:INODE" of path (not following a last symlink), "" when
// it does not exist.
func FileID(path string) string {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return ""
	}
	return idString(uint64(st.Dev), uint64(st.Ino), 0)
}
