//go:build linux

package sandbox

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// NoExecWorkspace gives the calling OS thread a mount namespace of its own
// in which dir (absolute) is mounted noexec, nosuid and nodev, its other
// flags (read-only, atime) kept. Every process started from the thread
// afterwards lives in that namespace: no file under dir can be executed,
// nor mapped as code (the kernel refuses PROT_EXEC on a noexec mount), so a
// granted program that loads a library or plugin named in its arguments
// (openssl engines, linker plugins, LD_PRELOAD, dlopen) cannot load one
// from the workspace. Landlock does not cover this: it checks execve, not
// mmap. Mounts under dir keep their own flags.
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
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("sandbox: noexec workspace: make / a slave: %w", err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return fmt.Errorf("sandbox: noexec workspace: %w", err)
	}
	if err := unix.Mount(dir, dir, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("sandbox: noexec workspace: bind %s: %w", dir, err)
	}
	flags := uintptr(unix.MS_REMOUNT|unix.MS_BIND|unix.MS_NOEXEC|unix.MS_NOSUID|unix.MS_NODEV) | keptFlags(st.Flags)
	if err := unix.Mount("", dir, "", flags, ""); err != nil {
		return fmt.Errorf("sandbox: noexec workspace: remount %s noexec: %w", dir, err)
	}
	return nil
}

// keptFlags are the mount flags of a statfs f_flags that a bind remount
// must repeat so as not to clear them (or, where a container runtime locked
// them, so as not to be refused): read-only and the atime policy, strict
// when neither noatime nor relatime is set (a remount would otherwise make
// it relatime).
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
