package kernel

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrivateDirShared: the per-user directory is made once and reused (so
// processes leave nothing new behind), and one that was tampered with is
// never used: a planted file, a symlink elsewhere, a writable mode, a
// non-empty rc file each give a fresh directory of the process's own.
func TestPrivateDirShared(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	files := []string{".curlrc", "wgetrc"}
	shared := filepath.Join(os.TempDir(), "toolgen-test-"+strconv.Itoa(os.Geteuid()))
	t.Cleanup(func() { _ = os.Chmod(shared, 0o700) })

	first, err := privateDir("toolgen-test-", files)
	require.NoError(t, err)
	assert.Equal(t, shared, first)
	again, err := privateDir("toolgen-test-", files)
	require.NoError(t, err)
	assert.Equal(t, shared, again, "the shared directory is reused")
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(shared, f))
		require.NoError(t, err)
		assert.Zero(t, fi.Size())
	}
	entries, err := os.ReadDir(os.TempDir())
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no directory left behind but the shared one")

	tamper := map[string]func(){
		"planted file": func() {
			require.NoError(t, os.Chmod(shared, 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(shared, ".gitconfig"), []byte("[core]\n"), 0o600))
		},
		"rc file not empty": func() {
			require.NoError(t, os.Chmod(shared, 0o700))
			require.NoError(t, os.Chmod(filepath.Join(shared, ".curlrc"), 0o600))
			require.NoError(t, os.WriteFile(filepath.Join(shared, ".curlrc"), []byte("-K /etc/x\n"), 0o600))
		},
		"writable by others": func() { require.NoError(t, os.Chmod(shared, 0o777)) },
		"symlink": func() {
			require.NoError(t, os.Chmod(shared, 0o700))
			require.NoError(t, os.RemoveAll(shared))
			require.NoError(t, os.Symlink(t.TempDir(), shared))
		},
	}
	for name, do := range tamper {
		t.Run(name, func(t *testing.T) {
			_ = os.Chmod(shared, 0o700)
			_ = os.RemoveAll(shared)
			_, err := privateDir("toolgen-test-", files)
			require.NoError(t, err)
			do()
			got, err := privateDir("toolgen-test-", files)
			require.NoError(t, err)
			assert.NotEqual(t, shared, got, "a tampered directory is not used")
			require.NoError(t, checkDir(got, files))
			_ = os.Chmod(got, 0o700)
			_ = os.RemoveAll(got)
			_ = os.Chmod(shared, 0o700)
			_ = os.Remove(shared)
			_ = os.RemoveAll(shared)
		})
	}
}
