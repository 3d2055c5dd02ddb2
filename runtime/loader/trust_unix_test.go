//go:build unix

package loader_test

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/loader"
)

// rootOwnedDir returns a directory of the system owned by root and writable
// by no one else (/etc, /usr/share …), which every user can read.
func rootOwnedDir(t *testing.T) string {
	t.Helper()
	for _, dir := range []string{"/etc", "/usr/share", "/usr/lib", "/usr/bin", "/bin"} {
		info, err := os.Stat(dir)
		if err != nil || !info.IsDir() || info.Mode().Perm()&0o022 != 0 {
			continue
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Uid == 0 {
			return dir
		}
	}
	t.Fatal("no root-owned directory writable only by root on this system")
	return ""
}

// TestTrustRootOwnedDir: a tools directory owned by root and writable by no
// one else is trusted by every user, as the user's own is: the layout of a
// container image or of /etc/toolgen/tools. (As an ordinary user this is a
// directory of the system; as root, the user's own.)
func TestTrustRootOwnedDir(t *testing.T) {
	_, err := loader.New(rootOwnedDir(t), kerneltest.New(t, nil), loader.WithoutCreate())
	assert.NoError(t, err)
}
