//go:build unix

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
// processes leave nothing new behind); one of ours that holds something
// else (a planted file, a non-empty rc file) is emptied and refilled, and
// one that is not ours alone (a symlink elsewhere, a mode writable by
// others) is never used: the process makes a fresh one of its own.
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

	refilled := map[string]func(){
		"planted file": func() {
			require.NoError(t, os.Chmod(shared, 0o700))
			require.NoError(t, os.MkdirAll(filepath.Join(shared, ".npm", "x"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(shared, ".gitconfig"), []byte("[core]\n"), 0o600))
			require.NoError(t, os.Chmod(shared, 0o500))
		},
		"rc file not empty": func() {
			require.NoError(t, os.Chmod(filepath.Join(shared, ".curlrc"), 0o600))
			require.NoError(t, os.WriteFile(filepath.Join(shared, ".curlrc"), []byte("-K /etc/x\n"), 0o600))
		},
	}
	for name, do := range refilled {
		t.Run(name, func(t *testing.T) {
			do()
			got, err := privateDir("toolgen-test-", files)
			require.NoError(t, err)
			assert.Equal(t, shared, got, "our own directory is reused")
			require.NoError(t, checkDir(got, files), "and holds exactly its empty files again")
		})
	}

	replaced := map[string]func(){
		"writable by others": func() { require.NoError(t, os.Chmod(shared, 0o777)) },
		"symlink": func() {
			require.NoError(t, os.Chmod(shared, 0o700))
			require.NoError(t, os.RemoveAll(shared))
			require.NoError(t, os.Symlink(t.TempDir(), shared))
		},
	}
	for name, do := range replaced {
		t.Run(name, func(t *testing.T) {
			_ = os.Chmod(shared, 0o700)
			_ = os.RemoveAll(shared)
			_, err := privateDir("toolgen-test-", files)
			require.NoError(t, err)
			do()
			got, err := privateDir("toolgen-test-", files)
			require.NoError(t, err)
			assert.NotEqual(t, shared, got, "a directory not ours alone is not used")
			require.NoError(t, checkDir(got, files))
			_ = os.Chmod(got, 0o700)
			_ = os.RemoveAll(got)
			_ = os.Chmod(shared, 0o700)
			_ = os.Remove(shared)
			_ = os.RemoveAll(shared)
		})
	}
}
