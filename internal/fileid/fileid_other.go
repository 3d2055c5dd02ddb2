//go:build !unix

package fileid

import (
	"io/fs"
	"os"
)

// Of reports false: off Unix, a file's identity (device and inode) is
// not at hand, so the deny list judges a program by its names and #!
// line only; a hard link to a denied program under another name is not
// recognised there.
func Of(fs.FileInfo) (Key, bool) { return Key{}, false }

// SingleLink reports true: with no identity to compare, no directory is
// indexed.
func SingleLink(fs.FileInfo) bool { return true }

// RegularAt reports false (see Of).
func RegularAt(*os.File, string) (Key, bool) { return Key{}, false }
