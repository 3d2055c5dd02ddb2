package descdir_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/descdir"
	"github.com/nanogpt/toolgen/runtime/tool"
)

const ext = ".tool.json"

func TestAccepts(t *testing.T) {
	for name, want := range map[string]bool{
		"a.tool.json":       true,
		"a.b.tool.json":     true,
		"-x.tool.json":      true, // a name, not an option: nothing parses it
		"..a.tool.json":     false,
		".a.tool.json":      false, // hidden: editor lock files and the like
		".tool.json":        false,
		"tool.json":         false,
		"a.tool.json~":      false,
		"a.tool.json.swp":   false,
		"a.TOOL.JSON":       false,
		"a.tool.jsonx":      false,
		"a.tool\u3000.json": false,
	} {
		assert.Equal(t, want, descdir.Accepts(name, ext), "Accepts(%q)", name)
	}
}

// layout makes a descriptor directory with one of each thing a hostile
// repository may plant, and a directory beside it. It returns the
// directory and the outside one, both with symlinks resolved.
func layout(t *testing.T) (dir, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	dir, outside = filepath.Join(base, "tools"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(dir, "store"), outside} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	files := map[string]string{
		filepath.Join(dir, "plain.tool.json"):      "plain",
		filepath.Join(dir, "store", "inside.json"): "inside",
		filepath.Join(outside, "evil.json"):        "evil",
		filepath.Join(dir, "big.tool.json"):        strings.Repeat("x", 100),
	}
	for p, data := range files {
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
	links := map[string]string{
		"rel.tool.json":      "store/inside.json",
		"abs.tool.json":      filepath.Join(dir, "store", "inside.json"),
		"back.tool.json":     "../tools/store/inside.json",
		"viadir.tool.json":   "store/../store/inside.json",
		"out.tool.json":      filepath.Join(outside, "evil.json"),
		"dotdot.tool.json":   "../outside/evil.json",
		"outdir.tool.json":   "../outside",
		"zero.tool.json":     "/dev/zero",
		"dangling.tool.json": "nowhere.json",
		"loop.tool.json":     "loop.tool.json",
		"dir.tool.json":      "store",
		"self.tool.json":     ".",
	}
	for name, target := range links {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, name)))
	}
	// A link to a directory outside, through which a name leads out.
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "store", "exit")))
	require.NoError(t, os.Symlink("store/exit/evil.json", filepath.Join(dir, "through.tool.json")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo.tool.json"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub.tool.json"), 0o755))
	return dir, outside
}

// TestRead: each planted thing, read with a limit of 64 bytes; the message
// is the exact 613 the loader and generate print.
func TestRead(t *testing.T) {
	dir, outside := layout(t)
	d, err := descdir.Open(dir)
	require.NoError(t, err)
	defer d.Close()
	outsideMsg := func(target string) string {
		return "file is a symlink to " + target + ", outside " + dir + "; a symlinked descriptor must stay inside the directory"
	}
	cases := map[string]string{ // name → contents, or "error: message"
		"plain.tool.json":    "plain",
		"rel.tool.json":      "inside",
		"abs.tool.json":      "inside",
		"back.tool.json":     "inside",
		"viadir.tool.json":   "inside",
		"out.tool.json":      "error: " + outsideMsg(filepath.Join(outside, "evil.json")),
		"dotdot.tool.json":   "error: " + outsideMsg(filepath.Join(outside, "evil.json")),
		"through.tool.json":  "error: " + outsideMsg(filepath.Join(outside, "evil.json")),
		"outdir.tool.json":   "error: " + outsideMsg(outside),
		"zero.tool.json":     "error: " + outsideMsg("/dev/zero"),
		"dangling.tool.json": "error: file is a symlink to a file that does not exist",
		"loop.tool.json":     "error: file is a symlink that cannot be resolved: EvalSymlinks: too many links",
		"dir.tool.json":      "error: file is not a regular file (d---------); a descriptor is a plain JSON file",
		"self.tool.json":     "error: file is not a regular file (d---------); a descriptor is a plain JSON file",
		"sub.tool.json":      "error: file is not a regular file (d---------); a descriptor is a plain JSON file",
		"fifo.tool.json":     "error: file is not a regular file (p---------); a descriptor is a plain JSON file",
		"big.tool.json":      "error: file is 100 bytes, larger than the limit of 64 bytes (64 B); a descriptor is a small JSON file",
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			data, _, err := readBounded(t, d, name, 64)
			if msg, ok := strings.CutPrefix(want, "error: "); ok {
				require.Error(t, err)
				assert.Equal(t, tool.CodeSpec, tool.CodeOf(err))
				assert.Equal(t, filepath.Join(dir, name)+": error 613: "+msg, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, want, string(data))
		})
	}
	_, _, err = d.Read("missing.tool.json", 64)
	assert.ErrorIs(t, err, descdir.ErrGone)

	names, err := d.Names(ext)
	require.NoError(t, err)
	for name := range cases {
		assert.Contains(t, names, name)
	}
	assert.True(t, d.Exists("dangling.tool.json"))
	assert.False(t, d.Exists("missing.tool.json"))
	for name, want := range map[string]bool{"plain.tool.json": true, "rel.tool.json": true, "out.tool.json": false, "fifo.tool.json": false, "dir.tool.json": false} {
		_, ok := d.Size(name)
		assert.Equal(t, want, ok, "Size(%q)", name)
	}
}

// readBounded is Read with a deadline: a read that blocks (a FIFO) fails
// the test instead of hanging it.
func readBounded(t *testing.T, d *descdir.Dir, name string, max int64) ([]byte, os.FileInfo, error) {
	t.Helper()
	type out struct {
		data []byte
		info os.FileInfo
		err  error
	}
	done := make(chan out, 1)
	go func() {
		data, info, err := d.Read(name, max)
		done <- out{data, info, err}
	}()
	select {
	case o := <-done:
		return o.data, o.info, o.err
	case <-time.After(10 * time.Second):
		t.Fatalf("Read(%q) blocked", name)
		return nil, nil, nil
	}
}

// TestReadWhileSwapped: someone who can write the directory swaps a
// descriptor, over and over, between a regular file, a FIFO, a symlink out
// of the directory and a directory symlink on the way out, while it is
// read. No read blocks, and none returns what lies outside.
func TestReadWhileSwapped(t *testing.T) {
	dir, outside := layout(t)
	d, err := descdir.Open(dir)
	require.NoError(t, err)
	defer d.Close()
	p := filepath.Join(dir, "swap.tool.json")
	tmp := filepath.Join(dir, "swap.tmp")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		makers := []func() error{
			func() error { return os.WriteFile(tmp, []byte("inside"), 0o644) },
			func() error { return syscall.Mkfifo(tmp, 0o644) },
			func() error { return os.Symlink(filepath.Join(outside, "evil.json"), tmp) },
			func() error { return os.Symlink("store/exit/evil.json", tmp) },
			func() error { return os.Symlink("store/inside.json", tmp) },
		}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.Remove(tmp)
			if err := makers[i%len(makers)](); err != nil {
				t.Error(err)
				return
			}
			if err := os.Rename(tmp, p); err != nil {
				t.Error(err)
				return
			}
		}
	})
	reads, good := 0, 0
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); reads++ {
		data, _, err := readBounded(t, d, "swap.tool.json", 64)
		if err == nil {
			require.Equal(t, "inside", string(data), "read through a swapped-in link out of the directory")
			good++
			continue
		}
		if !errors.Is(err, descdir.ErrGone) {
			require.Equal(t, tool.CodeSpec, tool.CodeOf(err), "%v", err)
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d reads, %d of them a file inside", reads, good)
	assert.Positive(t, good)
}

// FuzzSymlink: a descriptor that is a symlink to any target at all is
// either refused or read as a file inside the directory; never as the
// file outside, and never blocking.
func FuzzSymlink(f *testing.F) {
	for _, s := range []string{"store/inside.json", "../outside/evil.json", "/dev/zero", "store/exit/evil.json",
		"./store/../store/inside.json", "..", "/", "fifo", "store/exit/../tools/store/inside.json", "//etc/passwd"} {
		f.Add(s)
	}
	base, err := os.MkdirTemp("", "descdir-fuzz")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(base) })
	if base, err = filepath.EvalSymlinks(base); err != nil {
		f.Fatal(err)
	}
	dir, outside := filepath.Join(base, "tools"), filepath.Join(base, "outside")
	for _, dd := range []string{filepath.Join(dir, "store"), outside} {
		if err := os.MkdirAll(dd, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for p, data := range map[string]string{filepath.Join(dir, "store", "inside.json"): "inside", filepath.Join(outside, "evil.json"): "evil"} {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "store", "exit")); err != nil {
		f.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		f.Fatal(err)
	}
	d, err := descdir.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { d.Close() })
	link := filepath.Join(dir, "x.tool.json")
	f.Fuzz(func(t *testing.T, target string) {
		if target == "" || strings.ContainsRune(target, 0) {
			return
		}
		os.Remove(link)
		if err := os.Symlink(target, link); err != nil {
			return // too long, say
		}
		data, _, err := d.Read("x.tool.json", 64)
		if err != nil {
			if tool.CodeOf(err) != tool.CodeSpec && !errors.Is(err, descdir.ErrGone) {
				t.Fatalf("target %q: %v is no 613", target, err)
			}
			return
		}
		if string(data) != "inside" {
			t.Fatalf("target %q read %q", target, data)
		}
	})
}
