//go:build linux

package kernel

import (
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// The kernel starts its executable again (/proc/self/exe) for its helpers:
// the spawner process that forks the calls (see spawnProc), the holder of
// a workspace's noexec mount namespace, for users who are not root (see
// holder), and a call's egress shim. helperEnv in the environment says which helper a
// process is; the package's init runs it and exits before anything else of
// the program runs, so any program that imports the kernel (toolgen, an
// agent, a test binary) can be started as one. The kernel never passes the
// variable to a command: a command's environment is the kernel's own.
const (
	helperEnv    = "TOOLGEN_KERNEL_HELPER"
	helperDirEnv = "TOOLGEN_KERNEL_HELPER_DIR"
	helperASEnv  = "TOOLGEN_KERNEL_HELPER_AS"
	// helperProtectEnv is the holder's protected paths (encodeProtection).
	helperProtectEnv = "TOOLGEN_KERNEL_HELPER_PROTECT"
	// helperNoExecEnv says whether the holder mounts the workspace
	// noexec ("true") or only binds the protected paths ("false").
	helperNoExecEnv = "TOOLGEN_KERNEL_HELPER_NOEXEC"
	helperHolder    = "noexec-holder"
	helperEgress    = "egress-shim"
	// helperSpawner is the process that forks the calls (spawnproc_linux.go).
	helperSpawner = "spawner"
)

func init() {
	switch os.Getenv(helperEnv) {
	case helperHolder:
		os.Exit(runHolder(os.Getenv(helperDirEnv), os.Getenv(helperProtectEnv), os.Getenv(helperNoExecEnv) != "false"))
	case helperEgress:
		os.Exit(runEgressShim())
	case helperSpawner:
		os.Exit(runSpawner(os.Getenv(helperParentEnv)))
	}
}

// runEgressShim is the first program of a call whose tool reaches named
// hosts (see egress_linux.go): fd 3 is the kernel's socket pair, the
// environment the command's own plus the helper variables, os.Args the
// command's argv. It runs in the call's namespaces with CAP_NET_ADMIN
// there; it brings the loopback up, listens on it at egressPort, passes
// the listener to the kernel, then executes the command on this thread
// without the capability. It returns only on failure, which it reports on
// fd 3 (and the output, through stderr).
func runEgressShim() int {
	runtime.LockOSThread() // the execve below keeps this thread's credentials
	ctl := os.NewFile(3, "egress-ctl")
	fail := func(what string, err error) int {
		msg := fmt.Sprintf("error: the egress shim could not %s: %v", what, err)
		_, _ = ctl.WriteString(msg)
		fmt.Fprintln(os.Stderr, msg)
		return 126
	}
	if err := loopbackUp(); err != nil {
		return fail("bring the loopback up", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(egressPort))
	if err != nil {
		return fail("listen", err)
	}
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		return fail("listen", err)
	}
	if err := unix.Sendmsg(3, []byte("ok"), unix.UnixRights(int(f.Fd())), nil, 0); err != nil {
		return fail("pass the listener", err)
	}
	f.Close()
	ln.Close()
	ctl.Close()
	path := os.Getenv(helperDirEnv)
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "egress shim: dropping CAP_NET_ADMIN:", err)
		return 126
	}
	if err := sandbox.DropBoundingSet(sandbox.ShimCapabilities...); err != nil { // root: what the spawner kept for the shim
		fmt.Fprintln(os.Stderr, "egress shim:", err)
		return 126
	}
	as, _ := strconv.ParseInt(os.Getenv(helperASEnv), 10, 64)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TOOLGEN_KERNEL_HELPER") {
			env = append(env, kv)
		}
	}
	if as > 0 { // last: the shim itself may need more (a race-detector build does)
		if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: uint64(as), Max: uint64(as)}); err != nil {
			fmt.Fprintln(os.Stderr, "egress shim: memory limit:", err)
			return 126
		}
	}
	err = syscall.Exec(path, os.Args, env)
	fmt.Fprintf(os.Stderr, "egress shim: exec %s: %v\n", path, err)
	return 126
}

// loopbackUp sets the flags of the network namespace's loopback to up.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// runHolder is the holder's life. It was started in a user namespace of its
// own, mapped root there (so that it may mount), and a mount namespace of
// its own: it mounts dir and every mount below it noexec, nosuid and nodev
// (unless noexec is false: a tool that runs code), binds the protected paths (protection, encodeProtection's) read-only,
// says "ok" (or why not) on stdout, then keeps the namespace alive for as
// long as stdin, a pipe from the kernel, stays open: when the kernel closes
// it or its process dies, the holder exits and the namespace goes with it.
// To keep only a small process alive it becomes cat, reading stdin to its
// end, where cat exists.
func runHolder(dir, protection string, noexec bool) int {
	mounts := sandbox.NoExecMounts
	if !noexec {
		mounts = func(string) error { return sandbox.SlaveMounts() }
	}
	if err := mounts(dir); err != nil {
		fmt.Fprintln(os.Stdout, err)
		return 1
	}
	pr, err := decodeProtection(protection)
	if err != nil {
		fmt.Fprintln(os.Stdout, "protected paths:", err)
		return 1
	}
	if err := sandbox.ProtectMounts(pr); err != nil {
		fmt.Fprintln(os.Stdout, err)
		return 1
	}
	if _, err := os.Stdout.WriteString("ok\n"); err != nil {
		return 1
	}
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		_ = syscall.Dup3(int(null.Fd()), 1, 0)
		_ = syscall.Dup3(int(null.Fd()), 2, 0)
	}
	for _, cat := range []string{"/usr/bin/cat", "/bin/cat"} {
		_ = syscall.Exec(cat, []string{"cat"}, []string{}) // returns only on failure
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}
