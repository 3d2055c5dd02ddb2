//go:build linux && (amd64 || arm64)

package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// seccompInput is the part of seccomp_data the filter reads.
type seccompInput struct {
	nr, arch, arg0 uint32
}

// runFilter interprets prog on in as the kernel does, for the instructions
// buildFilter emits, and fails on anything else or on a jump out of the
// program.
func runFilter(t testing.TB, prog []unix.SockFilter, in seccompInput) uint32 {
	t.Helper()
	var data [64]byte
	binary.LittleEndian.PutUint32(data[offNr:], in.nr)
	binary.LittleEndian.PutUint32(data[offArch:], in.arch)
	binary.LittleEndian.PutUint32(data[offArg0:], in.arg0)
	var a uint32
	for pc := 0; ; pc++ {
		if pc >= len(prog) {
			t.Fatalf("filter runs off its end at %d", pc)
		}
		ins := prog[pc]
		switch ins.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			if ins.K+4 > uint32(len(data)) || ins.K%4 != 0 {
				t.Fatalf("load at %d reads offset %d", pc, ins.K)
			}
			a = binary.LittleEndian.Uint32(data[ins.K:])
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			a &= ins.K
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K:
			taken := a == ins.K
			if ins.Code&0xf0 == unix.BPF_JGE {
				taken = a >= ins.K
			}
			if taken {
				pc += int(ins.Jt)
			} else {
				pc += int(ins.Jf)
			}
		case unix.BPF_RET | unix.BPF_K:
			return ins.K
		default:
			t.Fatalf("unexpected instruction %#x at %d", ins.Code, pc)
		}
	}
}

// wantFilter is the filter's contract, written independently of it.
func wantFilter(arch seccompArch, spawnFlags uint32, in seccompInput) uint32 {
	if in.arch != arch.audit || arch.x32 && in.nr >= x32Bit {
		return retEPERM
	}
	for _, nr := range seccompDenied {
		if in.nr == nr {
			return retEPERM
		}
	}
	switch in.nr {
	case unix.SYS_CLONE3:
		return retENOSYS
	case unix.SYS_CLONE:
		if ns := in.arg0 & nsFlags; ns != 0 && ns != spawnFlags&nsFlags {
			return retEPERM
		}
	case unix.SYS_PTRACE:
		if in.arg0 == unix.PTRACE_ATTACH || in.arg0 == unix.PTRACE_SEIZE {
			return retEPERM
		}
	case unix.SYS_PERSONALITY:
		if in.arg0 != personalityQuery && in.arg0 != perLinux {
			return retEPERM
		}
	}
	return retAllow
}

// sigchld is the exit signal a fork asks for in clone's flags.
const sigchld = 17

// spawnRoot and spawnUser are the flag sets the kernel's spawners use.
const (
	spawnRoot = unix.CLONE_NEWPID | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWNET
	spawnUser = spawnRoot | unix.CLONE_NEWUSER
)

func TestSeccompFilterDecisions(t *testing.T) {
	arch := nativeSeccompArch()
	thread := uint32(unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_SIGHAND | unix.CLONE_THREAD | unix.CLONE_SYSVSEM |
		unix.CLONE_SETTLS | unix.CLONE_PARENT_SETTID | unix.CLONE_CHILD_CLEARTID)
	for _, c := range []struct {
		name  string
		spawn uint32
		in    seccompInput
		want  uint32
	}{
		{"read", spawnUser, seccompInput{unix.SYS_READ, arch.audit, 0}, retAllow},
		{"keyctl", spawnUser, seccompInput{unix.SYS_KEYCTL, arch.audit, 0}, retEPERM},
		{"add_key", spawnUser, seccompInput{unix.SYS_ADD_KEY, arch.audit, 0}, retEPERM},
		{"bpf", spawnUser, seccompInput{unix.SYS_BPF, arch.audit, 0}, retEPERM},
		{"io_uring_setup", spawnUser, seccompInput{unix.SYS_IO_URING_SETUP, arch.audit, 8}, retEPERM},
		{"mount", spawnRoot, seccompInput{unix.SYS_MOUNT, arch.audit, 0}, retEPERM},
		{"unshare user", spawnUser, seccompInput{unix.SYS_UNSHARE, arch.audit, unix.CLONE_NEWUSER}, retEPERM},
		{"setns", spawnUser, seccompInput{unix.SYS_SETNS, arch.audit, 3}, retEPERM},
		{"finit_module", spawnRoot, seccompInput{unix.SYS_FINIT_MODULE, arch.audit, 3}, retEPERM},
		{"clone3", spawnUser, seccompInput{unix.SYS_CLONE3, arch.audit, 0}, retENOSYS},
		{"fork via clone", spawnUser, seccompInput{unix.SYS_CLONE, arch.audit, sigchld}, retAllow},
		{"thread", spawnUser, seccompInput{unix.SYS_CLONE, arch.audit, thread}, retAllow},
		{"vfork with pidfd", spawnRoot, seccompInput{unix.SYS_CLONE, arch.audit, unix.CLONE_VFORK | unix.CLONE_VM | unix.CLONE_PIDFD | sigchld}, retAllow},
		{"the spawner's own clone", spawnUser, seccompInput{unix.SYS_CLONE, arch.audit, spawnUser | unix.CLONE_PIDFD | sigchld}, retAllow},
		{"a user namespace alone", spawnUser, seccompInput{unix.SYS_CLONE, arch.audit, unix.CLONE_NEWUSER | sigchld}, retEPERM},
		{"a mount namespace", spawnRoot, seccompInput{unix.SYS_CLONE, arch.audit, unix.CLONE_NEWNS | sigchld}, retEPERM},
		{"one more namespace", spawnRoot, seccompInput{unix.SYS_CLONE, arch.audit, spawnRoot | unix.CLONE_NEWNS}, retEPERM},
		{"root's set under a user spawner", spawnUser, seccompInput{unix.SYS_CLONE, arch.audit, spawnRoot}, retEPERM},
		{"ptrace attach", spawnUser, seccompInput{unix.SYS_PTRACE, arch.audit, unix.PTRACE_ATTACH}, retEPERM},
		{"ptrace seize", spawnUser, seccompInput{unix.SYS_PTRACE, arch.audit, unix.PTRACE_SEIZE}, retEPERM},
		{"ptrace traceme", spawnUser, seccompInput{unix.SYS_PTRACE, arch.audit, unix.PTRACE_TRACEME}, retAllow},
		{"ptrace peek (a tracee)", spawnUser, seccompInput{unix.SYS_PTRACE, arch.audit, unix.PTRACE_PEEKDATA}, retAllow},
		{"personality query", spawnUser, seccompInput{unix.SYS_PERSONALITY, arch.audit, 0xffffffff}, retAllow},
		{"personality linux", spawnUser, seccompInput{unix.SYS_PERSONALITY, arch.audit, 0}, retAllow},
		{"personality no-randomize", spawnUser, seccompInput{unix.SYS_PERSONALITY, arch.audit, 0x0040000}, retEPERM},
		{"another architecture", spawnUser, seccompInput{unix.SYS_READ, 0x40000003 /* AUDIT_ARCH_I386 */, 0}, retEPERM},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := runFilter(t, buildFilter(arch, c.spawn), c.in)
			if got != c.want {
				t.Errorf("got %#x, want %#x", got, c.want)
			}
			if ref := wantFilter(arch, c.spawn, c.in); ref != c.want {
				t.Errorf("the reference says %#x, the table %#x", ref, c.want)
			}
		})
	}
	if arch.x32 {
		if got := runFilter(t, buildFilter(arch, spawnUser), seccompInput{x32Bit, arch.audit, 0}); got != retEPERM {
			t.Errorf("x32 read: got %#x, want EPERM", got)
		}
	}
}

// FuzzSeccompFilter: for any spawner flag set and any system call, the
// program stays inside itself, ends on a return, and decides as the
// contract says.
func FuzzSeccompFilter(f *testing.F) {
	arch := nativeSeccompArch()
	f.Add(uint32(spawnUser), uint32(unix.SYS_CLONE), arch.audit, uint32(unix.CLONE_NEWUSER))
	f.Add(uint32(spawnRoot), uint32(unix.SYS_PTRACE), arch.audit, uint32(unix.PTRACE_SEIZE))
	f.Add(uint32(0), uint32(unix.SYS_KEYCTL), arch.audit, uint32(0))
	f.Add(uint32(0xffffffff), uint32(x32Bit|1), arch.audit, uint32(0))
	f.Fuzz(func(t *testing.T, spawn, nr, archValue, arg0 uint32) {
		prog := buildFilter(arch, spawn)
		if len(prog) == 0 || len(prog) > 4096 || prog[len(prog)-1].Code != unix.BPF_RET|unix.BPF_K {
			t.Fatalf("malformed program of %d instructions", len(prog))
		}
		in := seccompInput{nr, archValue, arg0}
		if got, want := runFilter(t, prog, in), wantFilter(arch, spawn, in); got != want {
			t.Fatalf("%+v under spawn flags %#x: got %#x, want %#x", in, spawn, got, want)
		}
	})
}
