//go:build linux

package kernel

import (
	"os"
	"syscall"
	"unsafe"
)

// pPID is waitid's P_PID id type.
const pPID = 1

// watchLeader returns a channel closed once the started leader has exited,
// and reap, which then collects its status. On Linux the leader is not
// reaped before reap is called: until then its pid, which is also the
// process group id, stays allocated, so killGroup cannot hit an unrelated
// group.
func watchLeader(l *leaderProc) (exited <-chan struct{}, reap func() (exitStatus, error)) {
	if l.remote != nil {
		return l.remote.watch()
	}
	ch := make(chan struct{})
	p := l.local
	var (
		reaped  bool
		ps      *os.ProcessState
		waitErr error
	)
	go func() {
		defer close(ch)
		if waitNoReap(p.Pid) != nil {
			// waitid refused: fall back to a reaping wait.
			reaped = true
			ps, waitErr = p.Wait()
		}
	}()
	return ch, func() (exitStatus, error) {
		<-ch
		if !reaped {
			ps, waitErr = p.Wait()
		}
		if ps == nil {
			return nil, waitErr
		}
		return ps, waitErr
	}
}

// waitNoReap blocks until process pid has exited, leaving it waitable.
func waitNoReap(pid int) error {
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info)), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		switch errno {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		default:
			return errno
		}
	}
}
