package sandbox_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"testing"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestMain makes this test binary a small network client the confined
// tests can run ("net-helper") or a masker of daemon sockets in a mount
// namespace of its own ("mask-helper"), then runs the tests.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		if helper, ok := helpers[os.Args[1]]; ok {
			os.Exit(helper(os.Args[2:]))
		}
	}
	os.Exit(m.Run())
}

// helpers are the roles this test binary plays when started with one's
// name as its first argument; files for one GOOS add their own.
var helpers = map[string]func(args []string) int{"net-helper": netHelper}

// netHelper is "net-helper listen" (bind a plain TCP socket on 127.0.0.1),
// "net-helper dial ADDR" (connect to ADDR over plain TCP) or "net-helper
// dial-unix ADDR" (connect to a Unix socket). It prints "ok" or the error
// and exits 0 or 1.
func netHelper(args []string) int {
	var err error
	switch {
	case len(args) == 1 && args[0] == "listen":
		var lc net.ListenConfig
		lc.SetMultipathTCP(false) // Landlock's TCP rules do not cover MPTCP
		var l net.Listener
		if l, err = lc.Listen(context.Background(), "tcp", "127.0.0.1:0"); err == nil {
			l.Close()
		}
	case len(args) == 2 && (args[0] == "dial" || args[0] == "dial-unix"):
		network := "unix"
		var d net.Dialer
		if args[0] == "dial" {
			network = "tcp"
			d.SetMultipathTCP(false)
		}
		var c net.Conn
		if c, err = d.Dial(network, args[1]); err == nil {
			c.Close()
		}
	default:
		err = fmt.Errorf("usage: net-helper listen | dial ADDR | dial-unix ADDR")
	}
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("ok")
	return 0
}

// requireLandlock skips the test unless the kernel enforces every policy.
func requireLandlock(t testing.TB) {
	t.Helper()
	if abi, ok := sandbox.Available(); !ok {
		guarantee.Missing(t, "Landlock cannot enforce the policies here (ABI %d, need 4)", abi)
	}
}

// newKernel returns a kernel on workspace in mode with access a.
func newKernel(t testing.TB, workspace string, mode sandbox.Mode, a kernel.Access, opts ...kernel.Option) *kernel.Kernel {
	t.Helper()
	// The per-program hook the preset gives every kernel: git reads
	// /etc/gitconfig through it.
	k, err := kernel.New(workspace, append([]kernel.Option{kernel.WithPrograms(programs.Hook{}), kernel.WithConfinement(mode)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return k.WithAccess(a)
}

// confined returns a kernel on workspace whose commands run confined
// (strict mode) with access a.
func confined(t testing.TB, workspace string, a kernel.Access, opts ...kernel.Option) *kernel.Kernel {
	t.Helper()
	return newKernel(t, workspace, sandbox.Strict, a, opts...)
}

// plain returns an unconfined kernel on workspace.
func plain(t testing.TB, workspace string) *kernel.Kernel {
	t.Helper()
	return newKernel(t, workspace, sandbox.Off, kernel.Access{})
}
