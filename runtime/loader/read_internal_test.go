//go:build unix

package loader

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadFileFIFOSwappedIn: a descriptor swapped for a FIFO between the
// check and the open (someone who can write the tools directory) is refused
// at once; it must not block the loader, or a --watch reload, waiting for a
// writer that never comes.
func TestReadFileFIFOSwappedIn(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	path := filepath.Join(real, "x.tool.json")
	require.NoError(t, os.WriteFile(path, []byte(`{}`), 0o644))
	beforeOpen = func(p string) {
		require.NoError(t, os.Remove(p))
		require.NoError(t, syscall.Mkfifo(p, 0o644))
	}
	t.Cleanup(func() { beforeOpen = func(string) {} })

	done := make(chan error, 1)
	go func() {
		_, err := readFile(real, dir, "x.tool.json", MaxFileSize, false)
		done <- err
	}()
	select {
	case err := <-done:
		require.Error(t, err)
		assert.Contains(t, err.Error(), "changed while it was being read")
	case <-time.After(10 * time.Second):
		// Unblock the open so the test process can end.
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("readFile blocked on a FIFO swapped in after its check")
	}
}
