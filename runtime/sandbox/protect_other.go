//go:build !unix

package sandbox

import "os"

// FileID is the modification time of path (no inode numbers here), ""
// when it does not exist.
func FileID(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	return idString(0, 0, fi.ModTime().UnixNano())
}
