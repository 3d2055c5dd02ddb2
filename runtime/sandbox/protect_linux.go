//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"slices"

	"golang.org/x/sys/unix"
)

// ProtectMounts makes pr hold in the caller's mount namespace, which must
// be its own (after NoExecWorkspace or NoExecMounts, or ProtectWorkspace):
// each of pr.Pinned is bound onto itself, then each of pr.ReadOnly is
// bound onto itself read-only (the mounts below it too), parents first. A
// command in the namespace then gets EROFS writing there, and EBUSY
// renaming or removing any of them. Each of pr.Masked (a daemon's socket)
// gets the null device bound over it: connecting to it is refused. It
// needs CAP_SYS_ADMIN in the
// namespace's user namespace.
func ProtectMounts(pr Protection) error {
	pinned := slices.Clone(pr.Pinned)
	slices.Sort(pinned) // a parent sorts before what is below it
	for _, d := range pinned {
		if err := bindSelf(d); err != nil && !errors.Is(err, errGone) {
			return fmt.Errorf("sandbox: protected paths: bind %s: %w", d, err)
		}
	}
	ro := slices.Clone(pr.ReadOnly)
	slices.Sort(ro)
	for _, p := range ro {
		if err := bindSelf(p); errors.Is(err, errGone) {
			continue
		} else if err != nil {
			return fmt.Errorf("sandbox: protected paths: bind %s: %w", p, err)
		}
		if err := readOnly(p); err != nil {
			return fmt.Errorf("sandbox: protected paths: %s read-only: %w", p, err)
		}
	}
	for _, s := range pr.Masked {
		// A socket gone since it was found (its daemon stopped) has
		// nothing to mask; one that a daemon creates during the call is
		// not masked either (the namespace sees the host's new files).
		if err := unix.Mount(devNull, s, "", unix.MS_BIND, ""); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("sandbox: masking the daemon socket %s: %w", s, err)
		}
	}
	return nil
}

// ProtectWorkspace is ProtectMounts for a thread in the host's mount
// namespace: like NoExecWorkspace it first gives the calling thread a
// mount namespace of its own, a slave of the host's, for a spawner whose
// commands do not get the noexec workspace (tools that run the
// repository's code) but must get the protected paths.
func ProtectWorkspace(pr Protection) error {
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("sandbox: protected paths: unshare(CLONE_NEWNS): %w", err)
	}
	if err := SlaveMounts(); err != nil {
		return err
	}
	return ProtectMounts(pr)
}

// SlaveMounts makes every mount of the caller's mount namespace (one of its
// own) a slave of the host's: mounts made here do not reach the host, the
// host's still arrive.
func SlaveMounts() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("sandbox: protected paths: make / a slave: %w", err)
	}
	return nil
}

// readOnly makes the mount at p, and every mount below it, read-only,
// keeping its other flags.
func readOnly(p string) error {
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	err := mountSetattr(unix.AT_FDCWD, p, unix.AT_RECURSIVE, &attr)
	if err == nil || !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
		return err
	}
	points, err := mountsBelow(p)
	if err != nil {
		return err
	}
	for _, m := range append([]string{p}, points...) {
		var st unix.Statfs_t
		if err := unix.Statfs(m, &st); err != nil {
			return err
		}
		flags := uintptr(unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY) | keptFlags(int64(st.Flags))
		for _, f := range []struct {
			st int64
			ms uintptr
		}{{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}} {
			if int64(st.Flags)&f.st != 0 {
				flags |= f.ms
			}
		}
		if err := unix.Mount("", m, "", flags, ""); err != nil {
			return err
		}
	}
	return nil
}

// errGone is bindSelf's error for a path that vanished or became a
// symbolic link since it was looked at: a mount would follow the link,
// so it is not mounted (its identity changed, so the spawner's key has
// too: the next call gets a spawner that sees it as it is).
var errGone = errors.New("gone or replaced by a symbolic link")

// bindSelf binds p onto itself, unless p is (now) a symbolic link or gone.
func bindSelf(p string) error {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return errGone
	}
	err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, "")
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
		return errGone
	}
	return err
}
