//go:build !unix

package serving

import "io/fs"

// openNoFollow is 0 off Unix, which has no O_NOFOLLOW.
const openNoFollow = 0

// ownedByMe cannot tell off Unix (no numeric owner): the directory is the
// user's own profile's, and its mode is checked.
func ownedByMe(fs.FileInfo) bool { return true }
