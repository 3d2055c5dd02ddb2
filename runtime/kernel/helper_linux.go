//go:build linux

package kernel

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// The kernel starts its executable again (/proc/self/exe) for one helper:
// the holder of a workspace's noexec mount namespace, for users who are not
// root (see holder). helperEnv in the environment says which helper a
// process is; the package's init runs it and exits before anything else of
// the program runs, so any program that imports the kernel (toolgen, an
// agent, a test binary) can be started as one. The kernel never passes the
// variable to a command: a command's environment is the kernel's own.
const (
	helperEnv    = "TOOLGEN_KERNEL_HELPER"
	helperDirEnv = "TOOLGEN_KERNEL_HELPER_DIR"
	helperHolder = "noexec-holder"
)

func init() {
	if os.Getenv(helperEnv) == helperHolder {
		os.Exit(runHolder(os.Getenv(helperDirEnv)))
	}
}

// runHolder is the holder's life. It was started in a user namespace of its
// own, mapped root there (so that it may mount), and a mount namespace of
// its own: it mounts dir and every mount below it noexec, nosuid and nodev,
// says "ok" (or why not) on stdout, then keeps the namespace alive for as
// long as stdin, a pipe from the kernel, stays open: when the kernel closes
// it or its process dies, the holder exits and the namespace goes with it.
// To keep only a small process alive it becomes cat, reading stdin to its
// end, where cat exists.
func runHolder(dir string) int {
	if err := sandbox.NoExecMounts(dir); err != nil {
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
