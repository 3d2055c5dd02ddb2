//go:build linux

package kernel

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// Descendant control: how a call's descendants are kept from outliving it.
const (
	// nsPID: each call's leader is pid 1 of a new PID namespace. When it
	// exits, the kernel kills every process left in the namespace, setsid
	// or not; when the host dies, the leader gets SIGKILL (parent-death
	// signal) and the namespace goes with it. Needs CAP_SYS_ADMIN (root).
	nsPID int32 = iota
	// nsUserPID: the same in a new user namespace too, which an ordinary
	// user may make where the system allows it. The user namespace also
	// makes RLIMIT_NPROC count the call's processes alone, and lets the
	// leader take the noexec holder's root (see holder).
	nsUserPID
	// nsNone: no namespace: the process group is killed, and a descendant
	// that left the group (setsid) escapes.
	nsNone
)

// nsRefusal is why the system refused the call namespaces, once a start
// showed it (nil until then). It is not a silent downgrade: every call
// that runs without them carries a warning, and Strict refuses them (see
// Guarantees).
var nsRefusal atomic.Pointer[error]

// nsForce, when set, is the descendant control every call gets: the
// benchmarks measure each one's cost with it.
var nsForce atomic.Pointer[int32]

var errForced = errors.New("forced by a benchmark")

// nsWanted is the descendant control this process asks for.
func nsWanted() int32 {
	if os.Geteuid() == 0 {
		return nsPID
	}
	return nsUserPID
}

// nsCurrent is the descendant control the next call gets, and why it is
// nsNone when it is.
func nsCurrent() (int32, error) {
	if f := nsForce.Load(); f != nil {
		return *f, errForced
	}
	if e := nsRefusal.Load(); e != nil {
		return nsNone, *e
	}
	return nsWanted(), nil
}

// sysProcAttr is how a call's leader is started under descendant control
// state: a process group of its own, SIGKILL when the host dies, and the
// namespaces; chroot, when not "", is the noexec holder's root (nsUserPID
// only: it needs the user namespace's CAP_SYS_CHROOT).
//
// The user namespace's maps are not written by os.StartProcess (it would
// write them from the spawner's thread, which Landlock keeps from writing
// /proc/PID/uid_map): setup writes them while the leader is stopped after
// its execve (writeIDMaps). Until then the leader's ids are unmapped, which
// grants nothing. Because nothing is written before the execve, the leader
// is started as a vfork (cloneVfork) in every state, a user namespace
// included.
//
// Go's child code checks right after setting the parent-death signal that
// getppid() still returns the parent and signals itself otherwise; in a new
// PID namespace getppid() returns 0, but pid 1 of a namespace ignores a
// signal it sends itself unless it has a handler (SIGNAL_UNKILLABLE), so the
// check is harmless, while the real parent-death signal, sent from the
// parent namespace, is delivered. TestHostKilled checks both.
//
// With a PID namespace the call also gets IPC and UTS namespaces of its
// own (callIPCUTS): the host's SysV IPC objects and POSIX message queues
// are out of its reach, and its host name is its own.
//
// noNet adds a network namespace of the call's own (a loopback, down, and
// nothing else), for a command that may not use the network.
//
// shim starts the egress shim (see egress_linux.go): it keeps
// CAP_NET_ADMIN of the call's namespaces across its execve.
func sysProcAttr(state int32, chroot string, noNet, shim bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	switch state {
	case nsPID:
		a.Cloneflags = syscall.CLONE_NEWPID
	case nsUserPID:
		a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | cloneVfork
		a.Chroot = chroot
	}
	if state != nsNone {
		a.Cloneflags |= callIPCUTS
	}
	if noNet && state != nsNone {
		a.Cloneflags |= syscall.CLONE_NEWNET
	}
	if shim && state == nsUserPID {
		a.AmbientCaps = []uintptr{unix.CAP_NET_ADMIN}
	}
	return a
}

// cloneVfork makes os.StartProcess start a leader in a user namespace the
// way it starts every other child: sharing the spawner's memory, the
// spawner's thread suspended until the child's execve, instead of copying
// the spawner's page tables (which costs an ordinary user's call several
// times root's on a machine whose page-table updates are slow, and which
// the spawner's threads pay again in copy-on-write faults). The os package
// forks instead of vforking for a user namespace only so that it can
// write the namespace's maps while the child waits before its execve; no
// leader is given maps to write (SysProcAttr.UidMappings stays nil: they
// are written after the execve), and the child's code is the same code it
// runs as a vfork for root. A SysProcAttr with UidMappings must never
// carry these flags: the parent would wait for a child that waits for it.
const cloneVfork = syscall.CLONE_VM | syscall.CLONE_VFORK

// writeIDMaps maps the uid and gid of this process to themselves in the
// user namespace of process pid (setgroups denied, as an unprivileged
// mapping requires). From a restricted (Landlock) spawner thread it runs
// on a goroutine of its own, hence on a thread that Landlock does not
// restrict, and waits for it; from an unrestricted one it writes at once.
func writeIDMaps(pid int, restricted bool) error {
	if !restricted {
		return writeIDMapsNow(pid)
	}
	done := make(chan error, 1)
	go func() { done <- writeIDMapsNow(pid) }()
	return <-done
}

// writeIDMapsNow writes pid's maps from the calling thread.
func writeIDMapsNow(pid int) error {
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	uid, gid := strconv.Itoa(os.Geteuid()), strconv.Itoa(os.Getegid())
	for _, w := range []struct{ file, data string }{
		{"uid_map", uid + " " + uid + " 1\n"},
		{"setgroups", "deny"}, // before gid_map, as an unprivileged mapping requires
		{"gid_map", gid + " " + gid + " 1\n"},
	} {
		if err := writeProcFile(dir+w.file, w.data); err != nil {
			return fmt.Errorf("user namespace maps: %w", err)
		}
	}
	return nil
}

// writeProcFile writes data to the /proc file at path in one write, with
// the system calls alone: the file is never polled, so it needs none of
// an *os.File's bookkeeping.
func writeProcFile(path, data string) error {
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	n, err := unix.Write(fd, []byte(data))
	if err == nil && n < len(data) {
		err = io.ErrShortWrite
	}
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return &os.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}

// nsRefused reports an error of a start that may be the system refusing the
// namespaces rather than the program.
func nsRefused(err error) bool {
	for _, e := range []error{syscall.EPERM, syscall.EINVAL, syscall.ENOSPC, syscall.EUSERS, syscall.ENOSYS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// errNamespacesRefused wraps why a Strict call did not run: the system
// refused the namespaces that descendant control needs.
var errNamespacesRefused = errors.New("strict: the system refused the call's PID namespace")

// errTrialOnly is the setup error of a start made only to see whether it
// would succeed: the process is killed while stopped after its execve,
// before it runs an instruction.
var errTrialOnly = errors.New("trial start")

// launched is how a leader was started.
type launched struct {
	proc   *os.Process
	state  int32 // the descendant control it got
	chroot bool  // it took the noexec holder's root
}

// startLeader starts the call's leader through s under the descendant
// control the system allows (nsCurrent), taking the root chroot names
// (the noexec holder's, "" for none), in a network namespace of its own
// when noNet (and there are namespaces). When a start fails in a way the
// namespaces or the chroot may explain, a trial start (killed before it
// runs) tells which: a refused namespace is recorded (nsRefusal) so that
// later calls know before they start, a failed chroot marks the holder
// broken. Strict then refuses the call (nothing ran); otherwise it starts
// without what failed, and launched says what it got.
func startLeader(s *spawner, strict bool, path string, argv []string, attr os.ProcAttr, chroot string, noNet, shim bool, setup func(pid int, state int32) error) (launched, error) {
	state, _ := nsCurrent()
	try := func(st int32, root string, setup func(int, int32) error) (*os.Process, error) {
		a := attr
		a.Sys = sysProcAttr(st, root, noNet, shim)
		return s.start(path, argv, &a, func(pid int) error { return setup(pid, st) })
	}
	trial := func(st int32, root string) bool {
		_, err := try(st, root, func(int, int32) error { return errTrialOnly })
		return errors.Is(err, errTrialOnly)
	}
	proc, err := try(state, chroot, setup)
	if err == nil || state == nsNone || !nsRefused(err) {
		return launched{proc, state, chroot != ""}, err
	}
	if chroot != "" && trial(state, "") {
		s.holder.broken.Store(true)
		if strict {
			return launched{}, fmt.Errorf("strict: the workspace cannot be mounted noexec for the call: taking the holder's root: %w", err)
		}
		proc, err := try(state, "", setup)
		return launched{proc, state, false}, err
	}
	if !trial(nsNone, "") {
		return launched{}, err // the program's fault, not the namespaces'
	}
	nsRefusal.CompareAndSwap(nil, &err)
	if strict {
		return launched{}, fmt.Errorf("%w: %w", errNamespacesRefused, err)
	}
	proc, err = try(nsNone, "", setup)
	return launched{proc, nsNone, false}, err
}

// applyRlimits caps the started process pid as l says (see startStopped
// for when).
func applyRlimits(pid int, l Limits, state int32) error {
	set := func(res int, cur, max uint64) error {
		return unix.Prlimit(pid, res, &unix.Rlimit{Cur: cur, Max: max}, nil)
	}
	if l.Memory > 0 {
		if err := set(unix.RLIMIT_AS, uint64(l.Memory), uint64(l.Memory)); err != nil {
			return err
		}
	}
	if l.Data > 0 {
		if err := set(unix.RLIMIT_DATA, uint64(l.Data), uint64(l.Data)); err != nil {
			return err
		}
	}
	if l.CPU > 0 {
		s := l.cpuSeconds()
		if err := set(unix.RLIMIT_CPU, s, s+1); err != nil {
			return err
		}
	}
	// RLIMIT_NPROC counts the processes of a user in a user namespace; only
	// in a user namespace of the call's own is that the call's processes.
	if l.Processes > 0 && state == nsUserPID {
		if err := set(unix.RLIMIT_NPROC, uint64(l.Processes), uint64(l.Processes)); err != nil {
			return err
		}
	}
	return nil
}

// descendantControl describes state for explain and the docs.
func descendantControl(state int32) string {
	switch state {
	case nsPID:
		return "PID namespace per call: every descendant dies with the command (setsid included); SIGKILL when the host dies"
	case nsUserPID:
		return "user and PID namespace per call: every descendant dies with the command (setsid included); SIGKILL when the host dies"
	}
	return "process group only (no PID namespace here): a descendant that calls setsid can outlive the call"
}

// DescendantControl describes how this process keeps the next call's
// descendants from outliving it, as far as it knows: before the first call
// (or Kernel.Guarantees, which tries) it says what the kernel will ask for.
// Kernel.Guarantees is what a given call gets.
func DescendantControl() string {
	state, _ := nsCurrent()
	return descendantControl(state)
}

// ProcessLimitEnforcement describes what enforces WithProcessLimit for the
// next call, as far as this process knows (see DescendantControl; as root
// the pids cgroup is per spawner, and Kernel.Guarantees says whether a
// call's spawner has one).
func ProcessLimitEnforcement() string {
	switch state, _ := nsCurrent(); {
	case state == nsUserPID:
		return "RLIMIT_NPROC in the call's own user namespace"
	case pidsRoot() != "":
		return "a pids cgroup per program and policy (one for all unconfined calls), shared by their concurrent calls"
	default:
		return "not enforced: " + noProcessCap(state)
	}
}
