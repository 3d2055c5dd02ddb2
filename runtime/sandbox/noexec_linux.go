//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// NoExecWorkspace gives the calling OS thread a mount namespace of its own
// in which dir (absolute) is mounted noexec, nosuid and nodev, its other
// flags (read-only, atime, nosymfollow) kept. Every process started from
// the thread afterwards lives in that namespace: no file under dir can be executed,
// nor mapped as code (the kernel refuses PROT_EXEC on a noexec mount), so a
// granted program that loads a library or plugin named in its arguments
// (openssl engines, linker plugins, LD_PRELOAD, dlopen) cannot load one
// from the workspace. Landlock does not cover this: it checks execve, not
// mmap. Mounts below dir are made noexec, nosuid and nodev too.
//
// Host mounts made later still appear in the namespace (it is a slave of
// the host's); nothing done in it reaches the host. It needs CAP_SYS_ADMIN
// (root): elsewhere it fails with EPERM and changes nothing. Like
// RestrictThread it is for a thread locked to its goroutine for good, never
// the main thread (GoThread), and must come first: a Landlock-restricted
// thread may not mount.
func NoExecWorkspace(dir string) error {
	// CLONE_NEWNS implies CLONE_FS: the thread also stops sharing its
	// working directory and root with the other threads, which a locked
	// thread that only starts processes from absolute paths does not mind.
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("sandbox: noexec workspace: unshare(CLONE_NEWNS): %w", err)
	}
	return NoExecMounts(dir)
}

// NoExecMounts is NoExecWorkspace for a caller already in a mount namespace
// of its own (a process started with CLONE_NEWNS, inside a user namespace
// where it holds CAP_SYS_ADMIN): it makes the namespace a slave of its
// parent and mounts dir (absolute) and every mount below it noexec, nosuid
// and nodev, keeping their other flags.
func NoExecMounts(dir string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("sandbox: noexec workspace: make / a slave: %w", err)
	}
	if err := unix.Mount(dir, dir, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("sandbox: noexec workspace: bind %s: %w", dir, err)
	}
	// The bind carries the mounts below dir (a volume, a tmpfs), which
	// Landlock counts as the workspace: each must be noexec too.
	// mount_setattr changes those three flags on every one of them and
	// keeps the others (read-only, atime, nosymfollow).
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOEXEC | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	err := mountSetattr(unix.AT_FDCWD, dir, unix.AT_RECURSIVE, &attr)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
		return fmt.Errorf("sandbox: noexec workspace: mount_setattr %s: %w", dir, err)
	}
	// No mount_setattr (before Linux 5.12, or a seccomp filter that
	// refuses it): remount dir and each mount below it, one by one.
	points, err := mountsBelow(dir)
	if err != nil {
		return fmt.Errorf("sandbox: noexec workspace: %w", err)
	}
	for _, p := range append([]string{dir}, points...) {
		var st unix.Statfs_t
		if err := unix.Statfs(p, &st); err != nil {
			return fmt.Errorf("sandbox: noexec workspace: %w", err)
		}
		flags := uintptr(unix.MS_REMOUNT|unix.MS_BIND|unix.MS_NOEXEC|unix.MS_NOSUID|unix.MS_NODEV) | keptFlags(st.Flags)
		if err := unix.Mount("", p, "", flags, ""); err != nil {
			return fmt.Errorf("sandbox: noexec workspace: remount %s noexec: %w", p, err)
		}
	}
	return nil
}

// mountSetattr is unix.MountSetattr (a variable for the test of the
// fallback).
var mountSetattr = unix.MountSetattr

// mountsBelow returns the mount points strictly below dir in the calling
// thread's mount namespace (/proc/thread-self: the thread may have a
// namespace of its own), parents first.
func mountsBelow(dir string) ([]string, error) {
	b, err := os.ReadFile("/proc/thread-self/mountinfo")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		if p := unescapeMountinfo(f[4]); strings.HasPrefix(p, dir+"/") || dir == "/" && p != "/" {
			out = append(out, p)
		}
	}
	return out, nil
}

// unescapeMountinfo undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// stNoSymFollow is statfs's ST_NOSYMFOLLOW (Linux 5.10), which x/sys does
// not name.
const stNoSymFollow = 0x2000

// keptFlags are the mount flags of a statfs f_flags that a bind remount
// must repeat so as not to clear them (or, where a container runtime locked
// them, so as not to be refused): read-only, nosymfollow and the atime
// policy, strict when neither noatime nor relatime is set (a remount would
// otherwise make it relatime).
func keptFlags(f int64) uintptr {
	var out uintptr
	for _, m := range []struct {
		st int64
		ms uintptr
	}{
		{unix.ST_RDONLY, unix.MS_RDONLY},
		{unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME},
		{unix.ST_RELATIME, unix.MS_RELATIME},
		{stNoSymFollow, unix.MS_NOSYMFOLLOW},
	} {
		if f&m.st != 0 {
			out |= m.ms
		}
	}
	if f&(unix.ST_NOATIME|unix.ST_RELATIME) == 0 {
		out |= unix.MS_STRICTATIME
	}
	return out
}

// NoExecAvailable reports whether NoExecWorkspace works for dir in this
// process, and if not, why: it tries, on a thread of its own that then dies
// with the mount namespace it made, once per dir.
func NoExecAvailable(dir string) (bool, string) {
	if v, ok := noExecTried.Load(dir); ok {
		r := v.(noExecResult)
		return r.ok, r.why
	}
	done := make(chan noExecResult)
	GoThread(func() { // the thread dies with the goroutine, and its namespace with it
		if err := NoExecWorkspace(dir); err != nil {
			done <- noExecResult{why: err.Error()}
			return
		}
		done <- noExecResult{ok: true}
	})
	r := <-done
	noExecTried.Store(dir, r)
	return r.ok, r.why
}

type noExecResult struct {
	ok  bool
	why string
}

// noExecTried caches NoExecAvailable's answer per directory.
var noExecTried sync.Map // string -> noExecResult
