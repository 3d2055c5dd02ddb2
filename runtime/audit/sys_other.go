//go:build !unix

package audit

import "io/fs"

// noFollowFlags is 0 off Unix: there is no O_NOFOLLOW to ask for (the
// regular-file check after opening still holds).
const noFollowFlags = 0

// linkCount is not known off Unix.
func linkCount(fs.FileInfo) (uint64, bool) { return 0, false }
