//go:build linux

package kernel

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The host and its spawner process (spawnproc_linux.go) talk over one
// AF_UNIX stream socket pair the host made and the spawner inherited: no
// path, no abstract name, nothing another process can connect to. A
// message is a 4-byte big-endian length, then that many bytes of JSON (an
// envelope); the descriptors it carries travel as SCM_RIGHTS, received
// close-on-exec, and the envelope says how many: they reach the receiver
// no later than the message's first byte, in the order they were sent.

// maxWireMsg bounds one message: the largest argv and environment a
// command can be given (ARG_MAX) fit many times over.
const maxWireMsg = 64 << 20

// maxWireFDs bounds the descriptors one message carries.
const maxWireFDs = 8

// envelope is one message: ID pairs a reply with its request, Op says what
// Body holds, NFD how many of the received descriptors are the message's.
type envelope struct {
	ID   uint64          `json:"id"`
	Op   string          `json:"op"`
	NFD  int             `json:"nfd,omitempty"`
	Body json.RawMessage `json:"body,omitempty"`
}

// wire is one end of the socket pair. send may be called from many
// goroutines; recv from one.
type wire struct {
	f   *os.File
	rc  syscall.RawConn
	wmu sync.Mutex
	buf []byte     // received bytes not yet decoded
	fds []*os.File // received descriptors not yet claimed
	in  []byte     // fill's read buffer, kept between reads
	oob []byte     // fill's control-message buffer, likewise
}

// newWire wraps fd, an AF_UNIX stream socket, made non-blocking so that a
// reader waits in the runtime's poller and Close wakes it.
func newWire(fd int, name string) (*wire, error) {
	if err := unix.SetNonblock(fd, true); err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &wire{f: f, rc: rc}, nil
}

// close closes the socket: the peer reads EOF, a blocked recv returns.
func (w *wire) close() { w.f.Close() }

// send writes one message with files (their descriptors duplicated into
// the peer; the caller still owns them).
func (w *wire) send(id uint64, op string, body any, files ...*os.File) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	msg, err := encodeMsg(envelope{ID: id, Op: op, NFD: len(files), Body: b})
	if err != nil {
		return err
	}
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = unix.UnixRights(fds...)
	}
	w.wmu.Lock()
	defer w.wmu.Unlock()
	for len(msg) > 0 {
		var n int
		var serr error
		werr := w.rc.Write(func(fd uintptr) bool {
			n, serr = unix.SendmsgN(int(fd), msg, oob, nil, unix.MSG_NOSIGNAL)
			return serr != unix.EAGAIN
		})
		if werr == nil {
			werr = serr
		}
		if werr != nil {
			return werr
		}
		msg, oob = msg[n:], nil // the descriptors went with the first byte
	}
	return nil
}

// encodeMsg frames e.
func encodeMsg(e envelope) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	if len(b) > maxWireMsg {
		return nil, fmt.Errorf("message of %d bytes is over the %d-byte bound", len(b), maxWireMsg)
	}
	out := make([]byte, 4, 4+len(b))
	binary.BigEndian.PutUint32(out, uint32(len(b)))
	return append(out, b...), nil
}

// errWireClosed is recv's error once the peer closed its end.
var errWireClosed = errors.New("the socket was closed")

// recv reads the next message and its descriptors (close-on-exec).
func (w *wire) recv() (envelope, []*os.File, error) {
	for {
		e, used, err := decodeMsg(w.buf)
		if err != nil {
			return envelope{}, nil, err
		}
		if used > 0 {
			w.buf = w.buf[used:]
			if e.NFD > len(w.fds) {
				return envelope{}, nil, fmt.Errorf("message %d names %d descriptors, %d arrived", e.ID, e.NFD, len(w.fds))
			}
			files := w.fds[:e.NFD:e.NFD]
			w.fds = w.fds[e.NFD:]
			return e, files, nil
		}
		if err := w.fill(); err != nil {
			return envelope{}, nil, err
		}
	}
}

// fill reads what the socket holds into w.buf and w.fds.
func (w *wire) fill() error {
	if w.in == nil {
		w.in = make([]byte, 64<<10)
		w.oob = make([]byte, unix.CmsgSpace(maxWireFDs*4))
	}
	buf, oob := w.in, w.oob
	var n, oobn int
	var rerr error
	err := w.rc.Read(func(fd uintptr) bool {
		n, oobn, _, _, rerr = unix.Recvmsg(int(fd), buf, oob, unix.MSG_CMSG_CLOEXEC)
		return rerr != unix.EAGAIN
	})
	if err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	if oobn > 0 {
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil {
			return err
		}
		for i := range msgs {
			fds, err := unix.ParseUnixRights(&msgs[i])
			if err != nil {
				continue
			}
			for _, fd := range fds {
				w.fds = append(w.fds, os.NewFile(uintptr(fd), "spawner-fd"))
			}
		}
	}
	if n == 0 {
		return errWireClosed
	}
	w.buf = append(w.buf, buf[:n]...)
	return nil
}

// decodeMsg decodes the first message of b and returns how many bytes it
// took, 0 when b does not hold a whole message yet. A length over the
// bound, or a body that is not an envelope, is an error: the stream cannot
// be trusted past it.
func decodeMsg(b []byte) (envelope, int, error) {
	if len(b) < 4 {
		return envelope{}, 0, nil
	}
	n := binary.BigEndian.Uint32(b)
	if n > maxWireMsg {
		return envelope{}, 0, fmt.Errorf("message of %d bytes is over the %d-byte bound", n, maxWireMsg)
	}
	if uint64(len(b)-4) < uint64(n) {
		return envelope{}, 0, nil
	}
	var e envelope
	if err := json.Unmarshal(b[4:4+n], &e); err != nil {
		return envelope{}, 0, fmt.Errorf("message: %w", err)
	}
	if e.NFD < 0 || e.NFD > maxWireFDs {
		return envelope{}, 0, fmt.Errorf("message %d carries %d descriptors, at most %d", e.ID, e.NFD, maxWireFDs)
	}
	return e, 4 + int(n), nil
}

// closeFiles closes every file of fs.
func closeFiles(fs []*os.File) {
	for _, f := range fs {
		f.Close()
	}
}
