//go:build unix

package loader_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestWithRefusal: a refused directory loads nothing and reads nothing:
// every descriptor file present — valid, broken, a FIFO, unreadable,
// writable by others — is the same 613 naming it, and other files are
// ignored as usual.
func TestWithRefusal(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "good.tool.json", desc("good", "d"))
	write(t, dir, "broken.tool.json", `{"name": 1}`)
	write(t, dir, "notes.txt", "x")
	write(t, dir, ".hidden.tool.json", desc("hidden", "d"))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo.tool.json"), 0o644))
	write(t, dir, "locked.tool.json", desc("locked", "d"))
	require.NoError(t, os.Chmod(filepath.Join(dir, "locked.tool.json"), 0))
	write(t, dir, "open.tool.json", desc("open", "d"))
	require.NoError(t, os.Chmod(filepath.Join(dir, "open.tool.json"), 0o666))

	const reason = "not loaded: the directory is the repository's own"
	tools, problems := newLoader(t, dir, loader.WithRefusal(reason)).LoadAll()
	assert.Empty(t, tools)
	var files []string
	for _, p := range problems {
		var te *tool.Error
		require.True(t, errors.As(p, &te), "%v", p)
		assert.Equal(t, tool.CodeSpec, te.Code)
		assert.Equal(t, reason, te.Msg)
		assert.Zero(t, te.Line)
		files = append(files, filepath.Base(te.File))
	}
	assert.Equal(t, []string{"broken.tool.json", "fifo.tool.json", "good.tool.json", "locked.tool.json", "open.tool.json"}, files)

	// An empty reason refuses nothing.
	tools, _ = newLoader(t, dir, loader.WithRefusal("")).LoadAll()
	got := names(tools)
	assert.Contains(t, got, "good")
	assert.NotContains(t, got, "open") // writable by others: the trust rules apply again
	assert.NotContains(t, got, "hidden")
}
