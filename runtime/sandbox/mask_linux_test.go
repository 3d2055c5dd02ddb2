package sandbox_test

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestMaskVanishedSocket: a daemon socket that is gone by the time it is
// masked (its daemon stopped between the look and the mount) is nothing
// to mask, not a failed call; one that is there gets the null device over
// it. Run in a mount namespace of a locked thread's own, which the thread
// takes with it when it ends.
func TestMaskVanishedSocket(t *testing.T) {
	guarantee.AsRoot(t, "a thread's own mount namespace needs CAP_SYS_ADMIN; as a user the holder's namespace does it (TestDaemonSocketsMasked)")
	dir := t.TempDir()
	live := filepath.Join(dir, "live.sock")
	l, err := net.Listen("unix", live)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	gone := filepath.Join(dir, "gone.sock")
	errc := make(chan error, 1)
	modes := make(chan os.FileMode, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread and its namespace end with this goroutine
		if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
			errc <- err
			return
		}
		if err := sandbox.SlaveMounts(); err != nil {
			errc <- err
			return
		}
		err := sandbox.ProtectMounts(sandbox.Protection{Masked: []string{gone, live}})
		if fi, serr := os.Stat(live); serr == nil {
			modes <- fi.Mode().Type()
		}
		errc <- err
	}()
	if err := <-errc; err != nil {
		t.Fatalf("masking a socket that is gone, then one that is there: %v", err)
	}
	if m := <-modes; m&os.ModeCharDevice == 0 {
		t.Errorf("the live socket is not masked in the thread's namespace: its type is %v", m)
	}
	if fi, err := os.Stat(live); err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Errorf("the mask reached the host's namespace: %v, %v", fi.Mode().Type(), err)
	}
}
