package loader

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/base"
)

func internalDesc(name, description string) []byte {
	return []byte(fmt.Sprintf(`{
  "name": %q,
  "description": %q,
  "command": "grep -rn {pattern} {path}",
  "arguments": {
    "pattern": {"type": "string", "description": "Pattern to search", "required": true, "pattern": "[A-Za-z0-9_.]+"},
    "path": {"type": "path", "description": "Where to search", "default": "."}
  },
  "examples": [{"args": {"pattern": "x"}, "argv": ["grep", "-rn", "x", "."]}]
}
`, name, description))
}

// countingLoader returns a loader of n descriptors whose parses are counted
// by file name.
func countingLoader(tb testing.TB, n int) (l *Loader, dir string, parses func() map[string]int) {
	tb.Helper()
	dir = tb.TempDir()
	for i := range n {
		require.NoError(tb, os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%04d.tool.json", i)), internalDesc(fmt.Sprintf("tool_%04d", i), "T"), 0o644))
	}
	l, err := New(dir, kerneltest.New(tb, nil))
	require.NoError(tb, err)
	var mu sync.Mutex
	count := map[string]int{}
	inner := l.set.kind.parse
	l.set.kind.parse = func(file string, data []byte) (parsed[*base.CommandToolBase], error) {
		mu.Lock()
		count[filepath.Base(file)]++
		mu.Unlock()
		return inner(file, data)
	}
	return l, dir, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := count
		count = map[string]int{}
		return out
	}
}

// TestWatchReloadsOnlyTheChangedFile: with 200 files loaded, changing one
// reads and parses that one only.
func TestWatchReloadsOnlyTheChangedFile(t *testing.T) {
	l, dir, parses := countingLoader(t, 200)
	tools, problems := l.LoadAll()
	require.Len(t, tools, 200, "%v", problems)
	require.Empty(t, problems)
	parses()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan Snapshot, 10)
	done := make(chan error, 1)
	go func() { done <- l.Watch(ctx, func(s Snapshot) { changed <- s }) }()
	// Watch's first scan reads every file once; it is done when the
	// watch is armed.
	select {
	case <-l.Watching():
	case <-time.After(10 * time.Second):
		require.FailNow(t, "Watch was not armed")
	}
	first := parses()
	require.Len(t, first, 200, "Watch's first scan")
	for name, n := range first {
		require.Equal(t, 1, n, "%s parsed by the first scan", name)
	}
	// Saved atomically (temporary file renamed over it), so no reader can
	// catch it half-written and parse it twice.
	tmp := filepath.Join(dir, ".t0123.tool.json.tmp")
	require.NoError(t, os.WriteFile(tmp, internalDesc("tool_0123", "changed"), 0o644))
	require.NoError(t, os.Rename(tmp, filepath.Join(dir, "t0123.tool.json")))
	select {
	case s := <-changed:
		if assert.Len(t, s.Tools, 200, "snapshot after the change") {
			assert.Equal(t, "changed", s.Tools[123].Tool.Description())
		}
	case <-time.After(5 * time.Second):
		require.FailNow(t, "no reload")
	}
	assert.Equal(t, map[string]int{"t0123.tool.json": 1}, parses(), "parsed after one file changed")
	cancel()
	assert.NoError(t, <-done)
}

// BenchmarkLoadAll1000 loads a directory of 1,000 descriptors (each with
// two slots, a pattern and an example). The target is ≤ 100 ms.
func BenchmarkLoadAll1000(b *testing.B) {
	l, _, _ := countingLoader(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		tools, problems := l.LoadAll()
		if len(tools) != 1000 || len(problems) != 0 {
			b.Fatalf("%d tools, %d problems", len(tools), len(problems))
		}
	}
}

// BenchmarkReloadOne is the work Watch does after one file of 1,000 changes:
// read and parse that file, then hand out the new Snapshot.
func BenchmarkReloadOne(b *testing.B) {
	l, dir, _ := countingLoader(b, 1000)
	l.LoadAll()
	file := filepath.Join(dir, "t0500.tool.json")
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		b.StopTimer()
		require.NoError(b, os.WriteFile(file, internalDesc("tool_0500", fmt.Sprint(i)), 0o644))
		b.StartTimer()
		if !l.set.reload([]string{"t0500.tool.json"}) {
			b.Fatal("no change seen")
		}
		if s := l.Snapshot(); len(s.Tools) != 1000 {
			b.Fatal(len(s.Tools))
		}
	}
}

// BenchmarkSnapshot1000 is the part of a reload that depends on the
// directory's size: resolving names and handing out the Snapshot.
func BenchmarkSnapshot1000(b *testing.B) {
	l, _, _ := countingLoader(b, 1000)
	l.LoadAll()
	for b.Loop() {
		if s := l.Snapshot(); len(s.Tools) != 1000 {
			b.Fatal(len(s.Tools))
		}
	}
}
