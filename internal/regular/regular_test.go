//go:build unix

package regular

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRead: a regular file within the bound is read; a FIFO (no writer: the
// open must not wait), a device behind a symlink, a directory and a file
// past the bound are refused without being read.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, []byte("12345"), 0o644))
	data, info, err := Read(file, 5)
	require.NoError(t, err)
	assert.Equal(t, "12345", string(data))
	assert.EqualValues(t, 5, info.Size())
	data, _, err = Read(file, -1)
	require.NoError(t, err)
	assert.Equal(t, "12345", string(data))
	_, _, err = Read(file, 4)
	assert.ErrorIs(t, err, ErrTooLarge)

	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	zero := filepath.Join(dir, "zero")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	for _, p := range []string{fifo, zero, dir} {
		_, info, err := Read(p, -1)
		assert.ErrorIs(t, err, ErrNotRegular, p)
		require.NotNil(t, info, p)
		assert.False(t, info.Mode().IsRegular(), p)
	}
	_, _, err = Read(filepath.Join(dir, "missing"), -1)
	assert.ErrorIs(t, err, os.ErrNotExist)
}
