//go:build unix

package kernel

import (
	"io"
	"os"
	"syscall"
)

// drainBuffered reads what r's non-blocking pipe holds right now, up to
// lateReadLimit bytes, ignoring r's deadline.
func drainBuffered(r *os.File, b io.Writer, buf []byte) {
	rc, err := r.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		for left := lateReadLimit; left > 0; {
			n, err := syscall.Read(int(fd), buf[:min(len(buf), left)])
			if err == syscall.EINTR {
				continue
			}
			if err != nil || n <= 0 { // EAGAIN: empty; 0: EOF
				return
			}
			b.Write(buf[:n])
			left -= n
		}
	})
}
