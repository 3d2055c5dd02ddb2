//go:build linux

package kernel

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// egressPort is the port of a call's egress proxy on the loopback of its
// own network namespace, where nothing else listens: the one TCP port the
// command may connect to (sandbox.Policy.ProxyPort).
const egressPort = 3128

// How a command with Access.Hosts reaches them, confined: its leader is
// first a shim, this kernel's own executable started again (helperEgress,
// run by the package's init) in the call's user, PID and network
// namespaces, holding CAP_NET_ADMIN there as an ambient capability. The
// shim brings the namespace's loopback up, listens on
// 127.0.0.1:egressPort there, passes the listening socket to the kernel
// over a socket pair (SCM_RIGHTS), drops the capability and executes the
// command, which inherits everything else (Landlock, limits, environment
// with EgressEnv). The kernel serves the socket with its EgressFunc, which
// dials out from the host's namespace: the command's only route out.

// egressActive reports that k's commands reach only their Hosts through
// the egress proxy.
func (k *Kernel) egressActive() bool {
	return len(k.access.Hosts) > 0 && !k.access.Network && k.egress != nil && k.mode != sandbox.Off
}

// selfExe is the kernel's own executable, symlinks resolved, or "".
var selfExe = sync.OnceValue(func() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
})

// shimExec is what the execute set needs for the shim: the executable and
// its dynamic loader, if any.
func shimExec() []string {
	if p := selfExe(); p != "" {
		return execSet(p)
	}
	return nil
}

// egressCall is the proxy side of one call.
type egressCall struct {
	ctl   *os.File // the kernel's end of the socket pair; nil once read
	child *os.File // the shim's end (its fd 3), closed once it started
	ln    net.Listener
	done  chan struct{}
	mu    sync.Mutex
	lines []string
}

// newEgressCall makes the socket pair a shim reports on.
func newEgressCall() (*egressCall, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("egress: socket pair: %w", err)
	}
	return &egressCall{ctl: os.NewFile(uintptr(fds[0]), "egress-ctl"), child: os.NewFile(uintptr(fds[1]), "egress-shim")}, nil
}

// shimTimeout bounds the wait for the shim's listener.
const shimTimeout = 10 * time.Second

// serve receives the shim's listener and serves it with k's EgressFunc in
// the background; refusals are kept for the Result.
func (e *egressCall) serve(k *Kernel) error {
	e.child.Close()
	defer func() { e.ctl.Close(); e.ctl = nil }()
	fd := int(e.ctl.Fd())
	tv := unix.NsecToTimeval(shimTimeout.Nanoseconds())
	_ = unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	buf, oob := make([]byte, 512), make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, 0)
	if err != nil {
		return fmt.Errorf("egress: no word from the shim: %w", err)
	}
	if msg := string(buf[:n]); msg != "ok" {
		if msg == "" {
			msg = "the shim exited without a word"
		}
		return errors.New("egress: " + strings.TrimPrefix(msg, "error: "))
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return fmt.Errorf("egress: no listener from the shim: %v", err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return fmt.Errorf("egress: no listener from the shim: %v", err)
	}
	f := os.NewFile(uintptr(fds[0]), "egress-listener")
	ln, err := net.FileListener(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("egress: listener: %w", err)
	}
	e.ln = ln
	e.done = make(chan struct{})
	go func() {
		defer close(e.done)
		_ = k.egress(ln, k.access.Hosts, func(line string) {
			e.mu.Lock()
			e.lines = append(e.lines, line)
			e.mu.Unlock()
		})
	}()
	return nil
}

// finish closes the listener, waits for the proxy to end, and returns its
// refusals as one notice ("" for none).
func (e *egressCall) finish() string {
	if e == nil {
		return ""
	}
	if e.ctl != nil {
		e.ctl.Close()
		e.child.Close()
	}
	if e.ln != nil {
		e.ln.Close()
		<-e.done
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return strings.Join(e.lines, "; ")
}

// shimEnv is the environment of the shim for a command at path with env:
// env, the proxy variables, and what the shim needs to know (its role,
// the command's path, the address-space cap it sets on itself before the
// execve, since the kernel leaves it off the shim: a Go program built with
// the race detector reserves more than any cap).
func shimEnv(env []string, path string, l Limits) []string {
	env = mergeEnv(env, EgressEnv("127.0.0.1:"+strconv.Itoa(egressPort)))
	return append(env, helperEnv+"="+helperEgress, helperDirEnv+"="+path, helperASEnv+"="+strconv.FormatInt(l.Memory, 10))
}

// egressEnforced: the call namespaces are there (nsCurrent).
func egressEnforced() bool {
	st, _ := nsCurrent()
	return st != nsNone
}
