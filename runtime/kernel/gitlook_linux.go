//go:build linux

package kernel

import (
	"fmt"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// startLook starts cmd (the git config look) as a child that dies with the
// host (parent-death signal: the caller keeps its goroutine locked to its
// thread until the look is reaped, as that signal follows the thread) and
// that runs no instruction of git before the memory limit l and a CPU
// limit of cpu are on it (stopped at its exec by ptrace, as the kernel's
// commands are; where ptrace is refused, the limits follow the start at
// once).
func startLook(cmd *exec.Cmd, l Limits) error {
	trace := !noPtrace.Load()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Ptrace: trace}
	if err := cmd.Start(); err != nil {
		return err
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
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				return fmt.Errorf("waiting for the look to stop: %w", err)
			}
			break
		}
		if info.Code != cldTrapped && info.Code != cldStopped {
			return nil // gone already: Wait reports how
		}
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WALL, nil); err != nil || !ws.Stopped() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return fmt.Errorf("the look did not stop after exec: %v %v", ws, err)
		}
	}
	err := applyRlimits(pid, l, nsPID)
	if trace {
		if derr := unix.PtraceDetach(pid); err == nil && derr != nil && derr != unix.ESRCH {
			err = derr
		}
	}
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("limits of the look: %w", err)
	}
	return nil
}
