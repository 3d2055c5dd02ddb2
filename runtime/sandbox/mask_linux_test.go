package sandbox_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestMaskVanishedSocket: a daemon socket that is gone by the time it is
// masked (its daemon stopped between the look and the mount) is nothing
// to mask, not a failed call; one that is there gets the null device over
// it, in the masking namespace only. The masking runs in this test binary
// started again in a user and mount namespace of its own, as the holder
// of an ordinary user's calls runs it, for root and an ordinary user alike.
func TestMaskVanishedSocket(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.sock")
	l, err := net.Listen("unix", live)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	gone := filepath.Join(dir, "gone.sock")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "mask-helper", gone, live)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(err.Error(), "operation not permitted") {
		guarantee.Missing(t, "no user namespace for the masking process: %v", err)
	}
	if err != nil || strings.TrimSpace(string(out)) != "masked" {
		t.Fatalf("masking a socket that is gone, then one that is there: %v\n%s", err, out)
	}
	if fi, err := os.Stat(live); err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Errorf("the mask reached this process's namespace: %v, %v", fi.Mode().Type(), err)
	}
}

func init() { helpers["mask-helper"] = maskHelper }

// maskHelper is "mask-helper SOCKET…": in the mount namespace it was
// started in, it masks the sockets (sandbox.ProtectMounts) and prints
// "masked" when the last one is the null device there, or the error.
func maskHelper(socks []string) int {
	err := sandbox.SlaveMounts()
	if err == nil {
		err = sandbox.ProtectMounts(sandbox.Protection{Masked: socks})
	}
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(socks[len(socks)-1]); err == nil && fi.Mode().Type()&os.ModeCharDevice == 0 {
			err = fmt.Errorf("%s is %v, not the null device", socks[len(socks)-1], fi.Mode().Type())
		}
	}
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("masked")
	return 0
}
