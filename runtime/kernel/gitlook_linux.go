//go:build linux

package kernel

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// startLook starts the git config look that mk makes as a child that dies
// with the host (parent-death signal: the caller keeps its goroutine locked
// to its thread until the look is reaped, as that signal follows the
// thread) and that runs no instruction of git before the limits l are on
// it (stopped at its exec by ptrace, as the kernel's commands are; where
// ptrace is refused, the limits follow the start at once).
func startLook(mk func() *exec.Cmd, l Limits) (*exec.Cmd, error) {
	trace := !noPtrace.Load()
	cmd := mk()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Ptrace: trace}
	if err := cmd.Start(); err != nil {
		if !trace || !errors.Is(err, syscall.EPERM) {
			return nil, err
		}
		// PTRACE_TRACEME refused (see noPtrace). An exec.Cmd starts once.
		trace = false
		cmd = mk()
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			return nil, err
		}
	}
	fail := func(err error) (*exec.Cmd, error) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, err
	}
	pid := cmd.Process.Pid
	if trace {
		var info unix.Siginfo
		for {
			err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT|unix.WALL, nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return fail(fmt.Errorf("waiting for the look to stop: %w", err))
			}
			break
		}
		if info.Code != cldTrapped && info.Code != cldStopped {
			return cmd, nil // gone already: Wait says how
		}
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WALL, nil); err != nil || !ws.Stopped() {
			return fail(fmt.Errorf("the look did not stop after exec: %v %v", ws, err))
		}
	}
	err := applyRlimits(pid, l, nsPID)
	if trace {
		if derr := unix.PtraceDetach(pid); err == nil && derr != nil && derr != unix.ESRCH {
			err = derr
		}
	}
	if err != nil {
		return fail(fmt.Errorf("limits of the look: %w", err))
	}
	return cmd, nil
}
