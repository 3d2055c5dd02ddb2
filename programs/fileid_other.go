//go:build !unix

package programs

import (
	"io/fs"
	"os"
)

// keyOf reports false: off Unix, a file's identity (device and inode) is
// not at hand, so DenyList.Program judges a program by its names and #!
// line only; a hard link to a denied program under another name is not
// recognised there.
func keyOf(fs.FileInfo) (fileKey, bool) { return fileKey{}, false }

// singleLink reports true: with no identity to compare, no directory is
// indexed.
func singleLink(fs.FileInfo) bool { return true }

// regularKeyAt reports false (see keyOf).
func regularKeyAt(*os.File, string) (fileKey, bool) { return fileKey{}, false }
