//go:build !unix

package kernel

import (
	"io/fs"
	"os"
)

// ownerOf returns os.Geteuid() (-1 off Unix): Windows files have an owner SID, not a
// user id, and the private HOME is a directory this process created under
// the user's own temporary directory, which other users cannot write.
func ownerOf(fs.FileInfo) (uid int, ok bool) { return os.Geteuid(), true }
