package loader_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestTotalSizeLimit: thousands of hard links to one large descriptor cost
// no disk, but each name was read and its tool built, so a repository's
// tools directory could make the loader hold gigabytes (1,000 links to a
// 1 MiB file: 1.6 GB). The bytes loaded together are bounded: in name order,
// a file that would take the sum past the limit is a 613 naming it, and is
// not read.
func TestTotalSizeLimit(t *testing.T) {
	dir := t.TempDir()
	one := desc("big", strings.Repeat("x", 900))
	write(t, dir, "a.tool.json", one)
	for _, n := range []string{"b", "c", "d", "e", "f"} {
		require.NoError(t, os.Link(filepath.Join(dir, "a.tool.json"), filepath.Join(dir, n+".tool.json")))
	}
	write(t, dir, "small.tool.json", desc("small", "s"))
	size := int64(len(one))
	l := newLoader(t, dir, loader.WithMaxTotalSize(3*size+10))
	tools, problems := l.LoadAll()
	assert.Equal(t, []string{"big"}, names(tools))
	var over, conflicts []string
	for _, p := range problems {
		var te *tool.Error
		require.ErrorAs(t, p, &te)
		switch {
		case strings.Contains(te.Msg, "would take more than"):
			over = append(over, filepath.Base(te.File))
		case strings.Contains(te.Msg, "already defined"):
			conflicts = append(conflicts, filepath.Base(te.File))
		default:
			assert.Fail(t, "unexpected problem", "%v", p)
		}
	}
	// a, b, c fit (b and c conflict with a); d, e, f do not, nor small.
	assert.Equal(t, []string{"d.tool.json", "e.tool.json", "f.tool.json", "small.tool.json"}, over)
	assert.Equal(t, []string{"b.tool.json", "c.tool.json"}, conflicts)

	// Under Watch, a file added past the limit is refused too; removing
	// files frees room.
	w := startWatch(t, l)
	for _, n := range []string{"b", "c", "d", "e", "f"} {
		require.NoError(t, os.Remove(filepath.Join(dir, n+".tool.json")))
	}
	w.await("small loads once room is freed", func(s loader.Snapshot) bool {
		return len(s.Tools) == 2 && len(s.Problems) == 0
	})
	write(t, dir, "g.tool.json", desc("g", strings.Repeat("y", 900)))
	write(t, dir, "h.tool.json", desc("h", strings.Repeat("z", 900)))
	w.await("h refused", func(s loader.Snapshot) bool {
		return len(s.Problems) == 1 && strings.Contains(s.Problems[0].Error(), "h.tool.json: error 613: file not loaded: with it")
	})
	assert.Equal(t, []string{"big", "g", "small"}, names(w.snapshot().Tools))
}

// TestTotalSizeLimitDefault: the default limit holds against hard links to
// a 1 MiB descriptor: the loader's heap stays bounded (without the limit,
// 200 links took 300 MB).
func TestTotalSizeLimitDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs in make test-all")
	}
	dir := t.TempDir()
	write(t, dir, "a.tool.json", desc("big", strings.Repeat("x", loader.MaxFileSize-400)))
	const links = 200
	for i := range links {
		require.NoError(t, os.Link(filepath.Join(dir, "a.tool.json"), filepath.Join(dir, fmt.Sprintf("h%03d.tool.json", i))))
	}
	l := newLoader(t, dir)
	_, problems := l.LoadAll()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	refused := 0
	for _, p := range problems {
		if strings.Contains(p.Error(), "would take more than") {
			refused++
		}
	}
	assert.Equal(t, links+1-loader.MaxTotalSize/loader.MaxFileSize, refused)
	assert.Less(t, m.HeapAlloc, uint64(4*loader.MaxTotalSize), "heap after loading")
	runtime.KeepAlive(l)
}
