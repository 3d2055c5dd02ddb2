//go:build linux

package kernel

import (
	"fmt"
	"os"
	"syscall"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// callIPCUTS are the namespaces every call with a PID namespace also gets:
// IPC (the host's SysV shared memory, semaphores and message queues, and
// its POSIX message queues, are out of reach) and UTS (a host name of its
// own).
const callIPCUTS = syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

// privileges says what a call started under state gets of the system's
// privileges (apply: it is confined), and adds to g.Missing what it lacks.
func (g *Guarantees) privileges(state int32, why error, apply bool, mode string) {
	if apply {
		line, ok := sandbox.SeccompFilter()
		g.Syscalls = line
		if !ok {
			g.Missing = append(g.Missing, "a seccomp filter ("+line+"): keyrings, bpf, io_uring, mount and namespace calls stay open")
		}
	}
	root := os.Geteuid() == 0
	var caps string
	switch {
	case !root:
		caps = "no capabilities (an ordinary user) and no_new_privs: setuid programs and file capabilities grant nothing"
	case apply:
		caps = "as root, no capabilities after its execve (bounding, inheritable and ambient sets cleared) and no_new_privs: " +
			"root's uid still owns root's files, but setting the clock, the ring buffer, modules and every other privileged operation fail"
	default:
		caps = "as root, every capability: the call is not confined"
		if mode != "off" {
			g.Missing = append(g.Missing, "dropping root's capabilities (the call is not confined): it may set the clock, clear the ring buffer, load modules")
		}
	}
	if state == nsNone {
		g.Privileges = caps + "; the host's IPC and UTS namespaces"
		g.Missing = append(g.Missing, fmt.Sprintf("IPC and UTS namespaces (%v): the call reaches the host's SysV IPC objects", why))
		return
	}
	g.Privileges = caps + "; IPC and UTS namespaces of its own: the host's SysV IPC objects and POSIX message queues are out of reach, its host name is its own"
}

// spawnNamespaces are the namespace flags of the clone with which a
// spawner starts k's confined calls (see sysProcAttr): the seccomp filter
// lets clone make exactly these.
func (k *Kernel) spawnNamespaces() uint32 {
	return uint32(sysProcAttr(nsWanted(), "", k.noNet(), false).Cloneflags)
}
