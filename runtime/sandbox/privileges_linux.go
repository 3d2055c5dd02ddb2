//go:build linux

package sandbox

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// dropPrivileges makes sure that nothing started from the calling thread
// holds a capability after its execve, even as root: it clears the ambient
// set, then (where the thread holds CAP_SETPCAP, i.e. root) drops every
// capability from the bounding set but keep, and clears the inheritable
// set. Root's execve grants the bounding set, so a root command then runs
// with keep at most; the thread itself keeps its effective capabilities,
// which the spawner needs to make the call's namespaces. An ordinary user
// has nothing to drop: no_new_privs (set by RestrictThread) keeps setuid
// and file capabilities from applying.
func dropPrivileges(keep ...uintptr) error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: clearing the ambient capabilities: %w", err)
	}
	if os.Geteuid() != 0 {
		return nil
	}
	for c := uintptr(0); c <= lastCap(); c++ {
		if kept(c, keep) {
			continue
		}
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("sandbox: dropping capability %d from the bounding set: %w", c, err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("sandbox: capget: %w", err)
	}
	for i := range data {
		data[i].Inheritable = 0
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("sandbox: clearing the inheritable capabilities: %w", err)
	}
	return nil
}

func kept(c uintptr, keep []uintptr) bool {
	for _, k := range keep {
		if k == c {
			return true
		}
	}
	return false
}

// lastCap is the highest capability this kernel knows.
func lastCap() uintptr {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err == nil {
		var n int
		if _, err := fmt.Sscanf(string(b), "%d", &n); err == nil && n > 0 && n < 64 {
			return uintptr(n)
		}
	}
	return unix.CAP_LAST_CAP
}

// DropBoundingSet drops caps from the calling thread's bounding set: the
// egress shim, which a root call starts with CAP_NET_ADMIN and CAP_SETPCAP
// kept (Policy.ProxyPort), gives them up this way before it executes the
// command. It needs CAP_SETPCAP; an ordinary user has nothing to drop.
func DropBoundingSet(caps ...uintptr) error {
	if os.Geteuid() != 0 {
		return nil
	}
	for _, c := range caps {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil {
			return fmt.Errorf("sandbox: dropping capability %d from the bounding set: %w", c, err)
		}
	}
	return nil
}

// ShimCapabilities are the capabilities a root call whose policy has a
// ProxyPort keeps in its bounding set, for the egress shim only: it brings
// the call's loopback up (CAP_NET_ADMIN), then drops both (CAP_SETPCAP)
// with DropBoundingSet before it executes the command.
var ShimCapabilities = []uintptr{unix.CAP_NET_ADMIN, unix.CAP_SETPCAP}
