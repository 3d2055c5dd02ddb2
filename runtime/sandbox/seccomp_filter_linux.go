//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter of every confined command. It is installed on the
// spawner's thread, last (after no_new_privs, the capabilities and
// Landlock), so it holds for the command and everything it starts, and
// cannot be removed. What it refuses, with EPERM:
//
//   - kernel keyrings: add_key, keyctl, request_key;
//   - bpf, perf_event_open, userfaultfd, io_uring_setup, io_uring_enter,
//     io_uring_register;
//   - kexec_load, kexec_file_load, init_module, finit_module,
//     delete_module;
//   - mount and the mount API: mount, umount2, pivot_root, move_mount,
//     open_tree, open_tree_attr, fsopen, fsconfig, fsmount, fspick,
//     mount_setattr;
//   - namespaces: unshare and setns always; clone with namespace flags
//     other than exactly the spawner's own set (see below); clone3 fails
//     with ENOSYS instead, so that the C library falls back to clone,
//     whose flags a filter can read (clone3 passes them in memory);
//   - ptrace(PTRACE_ATTACH) and ptrace(PTRACE_SEIZE): a process may still
//     be traced by its parent (PTRACE_TRACEME), as debuggers and the
//     kernel's own start do;
//   - personality, except querying it and setting PER_LINUX;
//   - every system call of another ABI: the x32 ABI (numbers with bit 30
//     set) and, on amd64, 32-bit (int 0x80) calls.
//
// What it cannot stop: the spawner forks each command from the filtered
// thread with clone, asking for the call's namespaces, so clone with
// exactly that namespace set (Policy.SpawnFlags) passes the filter. A
// command can therefore make nested namespaces of that set: as root it
// holds no capability and the kernel refuses them (EPERM); an ordinary
// user's command can make a nested user namespace with that set unless it
// was started chrooted into the noexec holder's root (the kernel refuses a
// chrooted process a user namespace), and inside it Landlock still
// forbids mounting and its rules still hold. The filter reads register
// arguments only, never memory, so it does not look at paths.

// seccompArch says how one architecture's system calls are numbered.
type seccompArch struct {
	audit uint32 // AUDIT_ARCH_*
	// x32 reports that calls with bit 30 of the number set are the x32
	// ABI's (amd64).
	x32 bool
}

// seccompDenied are the system calls the filter refuses with EPERM,
// whatever their arguments.
var seccompDenied = []uint32{
	unix.SYS_ADD_KEY, unix.SYS_KEYCTL, unix.SYS_REQUEST_KEY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE,
	unix.SYS_OPEN_TREE_ATTR, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_MOUNT_SETATTR,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
}

// nsFlags are the clone flags that make a namespace.
const nsFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// perLinux and personalityQuery are the personality(2) arguments allowed.
const (
	perLinux         = 0
	personalityQuery = 0xffffffff
)

// seccomp_data offsets (see linux/seccomp.h): the number, the
// architecture, and the low 32 bits of the first argument (little endian).
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16
)

// x32Bit marks the system call numbers of amd64's x32 ABI.
const x32Bit = 0x40000000

// Filter returns.
const (
	retAllow  = unix.SECCOMP_RET_ALLOW
	retEPERM  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retENOSYS = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
)

// buildFilter returns the filter program for arch, letting clone make
// exactly the namespaces of spawnFlags (only its namespace bits count).
func buildFilter(arch seccompArch, spawnFlags uint32) []unix.SockFilter {
	var p []unix.SockFilter
	stmt := func(code uint16, k uint32) { p = append(p, unix.SockFilter{Code: code, K: k}) }
	jump := func(code uint16, k uint32, jt, jf uint8) {
		p = append(p, unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf})
	}
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		and = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
	)
	stmt(ld, offArch)
	jump(jeq, arch.audit, 1, 0)
	stmt(ret, retEPERM) // another ABI (32-bit calls on amd64)
	stmt(ld, offNr)
	if arch.x32 {
		jump(jge, x32Bit, 0, 1)
		stmt(ret, retEPERM)
	}
	for _, nr := range seccompDenied {
		jump(jeq, nr, 0, 1)
		stmt(ret, retEPERM)
	}
	jump(jeq, unix.SYS_CLONE3, 0, 1)
	stmt(ret, retENOSYS)
	// argBlock: for system call nr, when (arg0 & mask) is one of values,
	// return match, else other.
	argBlock := func(nr, mask uint32, values []uint32, match, other uint32) {
		n := len(values)
		size := 1 + n + 2
		if mask != 0xffffffff {
			size++
		}
		jump(jeq, nr, 0, uint8(size))
		stmt(ld, offArg0)
		if mask != 0xffffffff {
			stmt(and, mask)
		}
		for i, v := range values {
			jump(jeq, v, uint8(n-i), 0)
		}
		stmt(ret, other)
		stmt(ret, match)
	}
	argBlock(unix.SYS_CLONE, nsFlags, []uint32{0, spawnFlags & nsFlags}, retAllow, retEPERM)
	argBlock(unix.SYS_PTRACE, 0xffffffff, []uint32{unix.PTRACE_ATTACH, unix.PTRACE_SEIZE}, retEPERM, retAllow)
	argBlock(unix.SYS_PERSONALITY, 0xffffffff, []uint32{personalityQuery, perLinux}, retAllow, retEPERM)
	stmt(ret, retAllow)
	return p
}

// installFilter installs the filter for the calling thread only (no TSYNC:
// like Landlock, it confines the spawner's thread and what it starts). It
// needs no_new_privs.
func installFilter(p []unix.SockFilter) error {
	prog := unix.SockFprog{Len: uint16(len(p)), Filter: &p[0]}
	_, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(p)
	if errno != 0 {
		return fmt.Errorf("sandbox: seccomp filter: %w", errno)
	}
	return nil
}

// restrictSyscalls installs the filter for spawnFlags on the calling
// thread.
func restrictSyscalls(spawnFlags uint32) error {
	return installFilter(buildFilter(nativeSeccompArch(), spawnFlags))
}

// SeccompFilter describes the filter every confined command gets here, in
// one line, and reports whether there is one (explain prints the line).
func SeccompFilter() (string, bool) {
	return "EPERM for keyrings (add_key, keyctl, request_key), bpf, perf_event_open, userfaultfd, io_uring, kexec, " +
		"module loading, mount and the mount API, unshare, setns, clone with namespace flags other than the spawner's, " +
		"ptrace attach and seize, personality changes, and other ABIs (x32, 32-bit); clone3 fails with ENOSYS (the C library falls back to clone)", true
}
