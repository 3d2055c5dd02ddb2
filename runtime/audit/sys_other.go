//go:build !unix

package audit

import (
	"io/fs"
	"os"
)

// noFollowFlags is 0 off Unix: there is no O_NOFOLLOW to ask for (the
// regular-file check after opening still holds).
const noFollowFlags = 0

// linkCount is not known off Unix.
func linkCount(fs.FileInfo) (uint64, bool) { return 0, false }

// idOf is not known off Unix: every file looks the same, so a log
// replaced at its path is not noticed there (a deleted one is: lstatID
// fails).
func idOf(fs.FileInfo) fileID { return fileID{} }

// lstatID reports only whether path exists off Unix.
func lstatID(path string) (fileID, error) {
	_, err := os.Lstat(path)
	return fileID{}, err
}
