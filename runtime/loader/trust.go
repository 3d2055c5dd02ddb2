package loader

import (
	"io/fs"
	"os"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// A descriptor grants the model a command, so who may write descriptors is a
// security question: a model (or another user) that can drop a file into the
// tools directory must not be able to grant itself new commands that way.
// Unless WithUntrustedFiles is given, the loader therefore refuses
//
//   - a tools directory that is writable by others, or by a group other than
//     the user's own primary group (anyone could add a tool), or that is
//     owned by another user, with a 613 from New;
//   - a descriptor file that is writable in the same way, or that is not
//     owned by the user running the loader, with a 613 for that file.
//
// Group write is accepted for the user's primary group only: with the user
// private groups of Debian and Ubuntu (umask 002), that group holds the user
// alone, and files a user creates are group-writable.
//
// Whether the served tools themselves can write into the tools directory is
// decided where the tools are assembled (package preset).

// WithUntrustedFiles turns off the ownership and permission checks on the
// tools directory and its files. Use it only for directories that no one
// else and no tool can write to by other means.
func WithUntrustedFiles() Option { return func(c *config) { c.untrusted = true } }

// checkDirTrust refuses a directory writable by group or others.
func checkDirTrust(dir string, info fs.FileInfo) error {
	if writableByOthers(info) {
		e := tool.SpecErrorf("", "tools directory is writable by group or others (mode %s): anyone who can write it could grant the model new commands; run chmod go-w %s", info.Mode().Perm(), dir)
		e.File = dir
		return e
	}
	return checkOwner(dir, "tools directory", info)
}

// checkFileTrust refuses a descriptor writable by group or others or owned
// by another user.
func checkFileTrust(file string, info fs.FileInfo) error {
	if writableByOthers(info) {
		return fileErr(file, "is writable by group or others (mode %s): a descriptor grants a command, so only files its owner alone can write are trusted; run chmod go-w %s", info.Mode().Perm(), file)
	}
	return checkOwner(file, "file", info)
}

// writableByOthers reports whether someone other than the owner may write:
// the world-write bit, or the group-write bit for a group that is not the
// user's primary group.
func writableByOthers(info fs.FileInfo) bool {
	perm := info.Mode().Perm()
	if perm&0o002 != 0 {
		return true
	}
	if perm&0o020 == 0 {
		return false
	}
	_, gid, ok := owner(info) // owner_unix.go, owner_other.go
	return !ok || gid != os.Getegid()
}

func checkOwner(path, what string, info fs.FileInfo) error {
	owner, _, ok := owner(info)
	if !ok {
		return nil
	}
	if uid := os.Geteuid(); owner != uid {
		e := tool.SpecErrorf("", "%s is owned by uid %d, not by the user running toolgen (uid %d); a descriptor grants a command, so only the user's own files are trusted", what, owner, uid)
		e.File = path
		return e
	}
	return nil
}
