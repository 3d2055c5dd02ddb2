//go:build linux

package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// hostCmds are the script commands that make, outside toolgen, the host
// objects a confined call attacks, and check them afterwards.
var hostCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"shmget":         shmGet,
	"shmexists":      shmExists,
	"addkey":         addKey,
	"keyvalid":       keyValid,
	"now":            now,
	"sysattacktools": sysAttackTools,
	"listenunix":     listenUnixScript,
}

// listenUnixScript listens on the Unix socket PATH (which must not exist) for
// the rest of the script, accepting and closing connections, and removes
// it at the end.
func listenUnixScript(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: listenunix PATH")
	}
	if _, err := os.Lstat(args[0]); err == nil {
		ts.Fatalf("%s exists: not replacing it", args[0])
	}
	ln, err := net.Listen("unix", args[0])
	ts.Check(err)
	ts.Defer(func() { ln.Close(); os.Remove(args[0]) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
}

// hostPrograms are the programs the privilege and seccomp scripts run
// (this test binary, by name).
var hostPrograms = map[string]func(){
	"sysattack":      sysAttackMain,
	"sysattack-exit": func() { os.Exit(0) },
}

// sysAttackTools writes, into DIR, the descriptor sysattack (WHAT: which
// system call family to try), running the sysattack helper by its absolute
// path.
func sysAttackTools(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sysattacktools DIR")
	}
	bin := ""
	for _, d := range filepath.SplitList(ts.Getenv("PATH")) {
		if p := filepath.Join(d, "sysattack"); fileExists(p) {
			bin = p
			break
		}
	}
	if bin == "" {
		ts.Fatalf("no sysattack helper on PATH")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	desc := `{"name": "sysattack", "description": "try a system call family", "command": "` + bin + ` {what}", ` +
		`"arguments": {"what": {"type": "string", "description": "which", "required": true}}}` + "\n"
	ts.Check(os.WriteFile(filepath.Join(dir, "sysattack.tool.json"), []byte(desc), 0o644))
}

// shmGet makes a SysV shared-memory segment of the host's for the rest of
// the script and sets $SHMID to its id.
func shmGet(ts *testscript.TestScript, neg bool, args []string) {
	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	ts.Check(err)
	ts.Defer(func() { _, _ = unix.SysvShmCtl(id, unix.IPC_RMID, nil) })
	ts.Setenv("SHMID", strconv.Itoa(id))
}

// shmExists fails unless the segment ID still exists ("! shmexists": unless
// it is gone).
func shmExists(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: shmexists ID")
	}
	id, err := strconv.Atoi(args[0])
	ts.Check(err)
	var ds unix.SysvShmDesc
	_, err = unix.SysvShmCtl(id, unix.IPC_STAT, &ds)
	switch {
	case neg && err == nil:
		ts.Fatalf("segment %d still exists", id)
	case !neg && err != nil:
		ts.Fatalf("segment %d is gone: %v", id, err)
	}
}

// addKey adds a key to this user's keyring (root's, run as root) for the
// rest of the script and sets $KEYID to its serial.
func addKey(ts *testscript.TestScript, neg bool, args []string) {
	id, err := unix.AddKey("user", "toolgen-test-"+strconv.Itoa(os.Getpid()), []byte("secret"), unix.KEY_SPEC_USER_KEYRING)
	ts.Check(err)
	ts.Defer(func() { _, _ = unix.KeyctlInt(unix.KEYCTL_UNLINK, id, unix.KEY_SPEC_USER_KEYRING, 0, 0) })
	ts.Setenv("KEYID", strconv.Itoa(id))
}

// keyValid fails unless the key ID can still be read (not revoked,
// unlinked or changed).
func keyValid(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: keyvalid ID")
	}
	id, err := strconv.Atoi(args[0])
	ts.Check(err)
	buf := make([]byte, 64)
	n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
	if err != nil || string(buf[:n]) != "secret" {
		ts.Fatalf("key %d was changed: %q, %v", id, buf[:max(n, 0)], err)
	}
}

// now sets $NOW to the current time in seconds since the epoch: a call
// that managed to set the clock to it would move it by less than a second.
func now(ts *testscript.TestScript, neg bool, args []string) {
	ts.Setenv("NOW", strconv.FormatInt(time.Now().Unix(), 10))
}

// sysAttackMain is the program "sysattack WHAT" (the test binary): it
// tries one system call family a command tool never needs and prints
// "WHAT: refused: ERR" or "WHAT: allowed". The seccomp script runs it
// through confined tools.
func sysAttackMain() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: sysattack WHAT")
		os.Exit(2)
	}
	what := os.Args[1]
	err := sysAttack(what)
	if err != nil {
		fmt.Printf("%s: refused: %v\n", what, err)
		return
	}
	fmt.Printf("%s: allowed\n", what)
}

// sysAttack tries one system call (family); nothing it does outlives the
// process or reaches the host when allowed.
func sysAttack(what string) error {
	switch what {
	case "keyctl": // read the serial of this user's keyring
		_, err := unix.KeyctlGetKeyringID(unix.KEY_SPEC_USER_KEYRING, false)
		return err
	case "add_key":
		_, err := unix.AddKey("user", "toolgen-sysattack", []byte("x"), unix.KEY_SPEC_PROCESS_KEYRING)
		return err
	case "unshare-user":
		runtime.LockOSThread() // the thread dies with the process
		return unix.Unshare(unix.CLONE_NEWUSER)
	case "clone-user": // a child in a user namespace of its own
		return cloneWith(unix.CLONE_NEWUSER)
	case "clone3":
		_, _, errno := unix.RawSyscall(unix.SYS_CLONE3, 0, 0, 0)
		if errno == unix.EFAULT || errno == unix.EINVAL { // the kernel looked at the (null) arguments: allowed
			return nil
		}
		return errno
	case "io_uring":
		var params [120]byte
		fd, _, errno := unix.RawSyscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params[0])), 0)
		if errno != 0 {
			return errno
		}
		unix.Close(int(fd))
		return nil
	case "bpf":
		_, _, errno := unix.RawSyscall(unix.SYS_BPF, 0xffff, 0, 0) // an unknown command: EINVAL when allowed
		if errno == unix.EINVAL {
			return nil
		}
		return errno
	case "fsopen": // a file system context, no mount
		fd, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
		if err == nil {
			unix.Close(fd)
		}
		return err
	case "ptrace-attach": // the parent (the call's leader's parent is outside)
		err := unix.PtraceAttach(os.Getppid())
		if err == nil {
			_ = unix.PtraceDetach(os.Getppid())
		}
		return err
	case "personality":
		_, _, errno := unix.RawSyscall(unix.SYS_PERSONALITY, 0x0040000, 0, 0) // ADDR_NO_RANDOMIZE
		if errno != 0 {
			return errno
		}
		return nil
	case "fork": // an ordinary child: must keep working
		return cloneWith(0)
	case "docker": // the Docker daemon's socket
		c, err := net.DialTimeout("unix", "/run/docker.sock", 2*time.Second)
		if err == nil {
			c.Close()
		}
		return err
	}
	return fmt.Errorf("unknown attack %q", what)
}

// cloneWith starts a child of this executable with the namespace flags
// ns and waits for it ("sysattack exit").
func cloneWith(ns uintptr) error {
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	cmd := exec.Command(self, "sysattack-exit")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: ns}
	return cmd.Run()
}
