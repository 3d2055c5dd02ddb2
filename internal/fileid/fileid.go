// Package fileid tells files apart by identity (device and inode) rather
// than by name: package programs indexes the directories of programs with
// it, so that a hard link to a denied program is denied under any name.
// Off Unix a file's identity is not at hand and Of reports false.
package fileid

// Key identifies a file: its device and inode.
type Key struct{ Dev, Ino uint64 }
