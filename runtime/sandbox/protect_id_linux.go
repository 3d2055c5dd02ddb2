//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// FileID is "DEV:INODE:BIRTH" of path (not following a last symlink), ""
// when it does not exist. The birth time (where the file system records
// one) tells a file made again in place from the one it replaced, which
// may get the same inode number.
func FileID(path string) string {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_INO|unix.STATX_BTIME, &st); err != nil {
		return ""
	}
	var birth int64
	if st.Mask&unix.STATX_BTIME != 0 {
		birth = st.Btime.Sec*1e9 + int64(st.Btime.Nsec)
	}
	return idString(unix.Mkdev(st.Dev_major, st.Dev_minor), st.Ino, birth)
}
