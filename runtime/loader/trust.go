package loader

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// A descriptor grants the model a command, so who may write descriptors is a
// security question: a model (or another user) that can drop a file into the
// tools directory must not be able to grant itself new commands that way.
// Unless WithUntrustedFiles is given, the loader therefore refuses
//
//   - a tools directory that is writable by others, or by a group other than
//     the user's own primary group (anyone could add a tool), or that is
//     owned by a user other than root and the user running the loader, with
//     a 613 from New;
//   - a descriptor file that is writable in the same way, or owned in the
//     same way, with a 613 for that file; for a file reached through a
//     symlink (which must lead inside the directory), the file the link
//     leads to and every directory between it and the tools directory.
//
// A directory owned by root and writable by no one else is trusted as the
// user's own: only root could change it, and root can change anything the
// user runs. That is the tools directory of a container image (COPY'd,
// root-owned, read-only), a Kubernetes ConfigMap, or /etc/toolgen/tools.
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

// checkDirTrust refuses a directory writable by others or owned by another
// user (see above).
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

// checkLinkTrust checks, for the descriptor name of the directory real
// (absolute, symlinks resolved) when it is a symlink, every directory from
// the one holding the file it leads to up to real, excluded (New checked
// it): whoever can write one of them can swap the file. file names the
// descriptor in messages. A name that is no symlink, or one that does not
// lead inside real (the reader refuses it), has nothing to check.
func checkLinkTrust(real, name, file string) error {
	link := filepath.Join(real, name)
	li, err := os.Lstat(link)
	if err != nil || li.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	target, err := filepath.EvalSymlinks(link)
	if err != nil {
		return nil
	}
	if !within.Clean(real, target) {
		return nil // outside: the reader refuses the link
	}
	for dir := filepath.Dir(target); dir != real && within.Clean(real, dir); dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err != nil {
			return fileErr(file, "is a symlink through %s, which cannot be checked: %v", dir, err)
		}
		if writableByOthers(info) {
			return fileErr(file, "is a symlink through the directory %s, which is writable by group or others (mode %s): "+
				"whoever can write it can swap the descriptor; run chmod go-w %s", dir, info.Mode().Perm(), dir)
		}
		if uid, _, ok := owner(info); ok && !trustedOwner(uid, os.Geteuid()) {
			return fileErr(file, "is a symlink through the directory %s, which is owned by uid %d, neither root nor the user "+
				"running toolgen (uid %d): that user can swap the descriptor", dir, uid, os.Geteuid())
		}
	}
	return nil
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

// trustedOwner reports whether a file owned by uid is trusted by the user
// euid: it is the user's own, or root's.
func trustedOwner(uid, euid int) bool { return uid == euid || uid == 0 }

func checkOwner(path, what string, info fs.FileInfo) error {
	owner, _, ok := owner(info)
	if !ok {
		return nil
	}
	if uid := os.Geteuid(); !trustedOwner(owner, uid) {
		e := tool.SpecErrorf("", "%s is owned by uid %d, neither root nor the user running toolgen (uid %d); a descriptor grants a command, so only files of root or of the user are trusted", what, owner, uid)
		e.File = path
		return e
	}
	return nil
}
