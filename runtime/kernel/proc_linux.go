//go:build linux

package kernel

import (
	"encoding/binary"
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

// waitExited blocks until the child pid has exited and returns how,
// leaving it waitable (waitid's WNOWAIT; Linux fills the resource usage
// then too).
func waitExited(pid int) (syscall.WaitStatus, syscall.Rusage, error) {
	var info [128]byte // siginfo_t
	var ru syscall.Rusage
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info)), syscall.WEXITED|syscall.WNOWAIT, uintptr(unsafe.Pointer(&ru)), 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return 0, ru, errno
		}
		break
	}
	// si_code at byte 8, si_status at byte 24 (after si_pid and si_uid).
	code := int32(binary.NativeEndian.Uint32(info[8:]))
	status := binary.NativeEndian.Uint32(info[24:])
	switch code {
	case cldExited:
		return syscall.WaitStatus(status << 8), ru, nil
	case cldDumped:
		return syscall.WaitStatus(status | 0x80), ru, nil
	}
	return syscall.WaitStatus(status), ru, nil // CLD_KILLED
}

// siginfo si_code values of waitid for a child that ended.
const (
	cldExited = 1 // CLD_EXITED
	cldDumped = 3 // CLD_DUMPED
)

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
