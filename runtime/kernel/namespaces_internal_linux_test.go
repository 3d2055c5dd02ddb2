//go:build linux

package kernel

import (
	"syscall"
	"testing"
)

// TestSysProcAttrVfork checks that every leader, a user namespace
// included, is started as a vfork (no page-table copy of the spawner),
// and that no attributes ask os.StartProcess to write maps before the
// execve, which a vfork would deadlock on.
func TestSysProcAttrVfork(t *testing.T) {
	for _, state := range []int32{nsPID, nsUserPID, nsNone} {
		for _, noNet := range []bool{false, true} {
			for _, shim := range []bool{false, true} {
				a := sysProcAttr(state, "/proc/self/fd/9", noNet, shim)
				if a.UidMappings != nil || a.GidMappings != nil {
					t.Errorf("state %d noNet %v shim %v: maps written before the execve", state, noNet, shim)
				}
				if state == nsUserPID && a.Cloneflags&cloneVfork != cloneVfork {
					t.Errorf("user namespace, noNet %v shim %v: flags %#x lack CLONE_VM|CLONE_VFORK: the spawner's memory is copied", noNet, shim, a.Cloneflags)
				}
				if state == nsUserPID && a.Cloneflags&syscall.CLONE_NEWUSER == 0 {
					t.Errorf("user namespace state without CLONE_NEWUSER: %#x", a.Cloneflags)
				}
			}
		}
	}
}
