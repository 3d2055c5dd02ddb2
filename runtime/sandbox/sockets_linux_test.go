//go:build linux

package sandbox_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestDaemonSocketsMasked: a daemon's socket (a real listener, made a
// daemon socket through the test hook) is refused to a confined call, as
// root and as an ordinary user, strict and best-effort; with confinement
// off the same call connects. Its calls are forked from the test process,
// where the hook's socket is known.
func TestDaemonSocketsMasked(t *testing.T) {
	requireLandlock(t)
	sock := filepath.Join(t.TempDir(), "daemon.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	// The hook's sockets are this process's: the calls are forked here,
	// not from a spawner process, which knows only the real daemons'
	// (the calls of the tests after this one get the same guarantees
	// from here).
	kernel.ForkFromThisProcess()
	sandbox.SetTestSockets(sock)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := dirs(t)
	noCap := kernel.WithMemoryLimit(0)
	for _, mode := range []sandbox.Mode{sandbox.Strict, sandbox.BestEffort} {
		k := newKernel(t, ws, mode, readOnly, noCap)
		res := run(t, k, self, "net-helper", "dial-unix", sock)
		if res.ExitCode == 0 || !strings.Contains(res.Output, "connection refused") {
			t.Errorf("%v: a daemon's socket was reachable:\n%s", mode, res.Text())
		}
		g := k.Guarantees(self)
		if !strings.Contains(g.Protected, "daemon sockets masked: "+sock) {
			t.Errorf("%v: the guarantees do not name the masked socket: %q", mode, g.Protected)
		}
	}
	succeeds(t, newKernel(t, ws, sandbox.Off, readOnly, noCap), "ok", self, "net-helper", "dial-unix", sock)
}
