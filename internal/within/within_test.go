package within_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/within"
)

// TestCleanAndLexical: the text-only answers, on names an attacker or a
// confused model would try.
func TestCleanAndLexical(t *testing.T) {
	cases := []struct {
		dir, path string
		in        bool
	}{
		{"/ws", "/ws", true},
		{"/ws", "/ws/a", true},
		{"/ws", "/ws/a/b/c", true},
		{"/ws", "/wsx", false},            // a sibling sharing the prefix
		{"/ws", "/ws-old/a", false},       // likewise
		{"/ws", "/w", false},              // a prefix of the directory
		{"/ws", "/", false},               // the parent
		{"/ws", "/other", false},          // elsewhere
		{"/ws", "/ws/..foo", true},        // ".." as part of a name is a name
		{"/ws", "/ws/...", true},          // so is "..."
		{"/ws", "/ws/\u2025", true},       // TWO DOT LEADER is a name
		{"/ws", "/ws/\uff0e\uff0e", true}, // FULLWIDTH FULL STOPs are a name
		{"/ws", "/ws/a\u3000b", true},     // IDEOGRAPHIC SPACE is a name
		{"/", "/", true},
		{"/", "/etc/passwd", true},
		{"/ws/sub", "/ws", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.in, within.Clean(c.dir, c.path), "Clean(%q, %q)", c.dir, c.path)
		assert.Equal(t, c.in, within.Lexical(c.dir, c.path), "Lexical(%q, %q)", c.dir, c.path)
	}
	// Lexical cleans first; Clean trusts its caller.
	for _, c := range []struct {
		dir, path string
		in        bool
	}{
		{"/ws", "/ws/a/../..", false},
		{"/ws", "/ws/../ws/a", true},
		{"/ws/", "/ws/a/", true},
		{"/ws", "/ws/./a", true},
		{"/ws", "/ws/a/../../etc/passwd", false},
		{"/ws", "//ws//a", true},
	} {
		assert.Equal(t, c.in, within.Lexical(c.dir, c.path), "Lexical(%q, %q)", c.dir, c.path)
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.True(t, within.Lexical(".", "a/b"), "relative paths are made absolute against the current directory")
	assert.True(t, within.Lexical(wd, "x"))
	assert.False(t, within.Lexical(".", ".."))
	assert.False(t, within.Lexical(".", "../"+filepath.Base(wd)+"x"))
}

// TestResolved: symlinks on the way, in the directory and in the path.
func TestResolved(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "src"), 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "file"), nil, 0o644))
	for name, target := range map[string]string{
		"out":          outside,                     // a directory link leading out
		"rel-out":      "../outside",                // the same, relative
		"in":           "src",                       // a link that stays
		"loop":         "loop",                      // a loop
		"dangling":     filepath.Join(outside, "x"), // to a place that does not exist yet
		"up":           "..",                        // the parent
		"rel-dangling": "../outside/y",              // dangling, relative
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(ws, name)))
	}
	wsLink := filepath.Join(base, "ws-link")
	require.NoError(t, os.Symlink("ws", wsLink))
	require.NoError(t, os.Symlink(filepath.Join(ws, "src"), filepath.Join(outside, "back-in")))

	cases := []struct {
		path string
		in   bool
	}{
		{"", true},
		{"src", true},
		{"src/new/deeper", true}, // missing names are taken as written
		{"in/x", true},
		{"out", false},
		{"out/secret", false},
		{"rel-out/secret", false},
		{"dangling", false}, // where it would be created: outside
		{"rel-dangling", false},
		{"rel-dangling/z", false},
		{"up", false},
		{"up/ws/src", true}, // out and back in through the parent: lands inside
		{"loop", true},      // cannot resolve: judged as written, inside
		{"loop/x", true},
		{"file/x", true}, // a file where a directory should be: judged on its prefix
		{"out/new/x", false},
		{"../outside/back-in/a", true}, // a link outside that leads in
	}
	for _, c := range cases {
		p := filepath.Join(ws, c.path)
		assert.Equal(t, c.in, within.Resolved(ws, p), "Resolved(ws, %q)", c.path)
		// The directory given through a symlink of its own is the same directory.
		assert.Equal(t, c.in, within.Resolved(wsLink, p), "Resolved(ws-link, %q)", c.path)
	}
	assert.True(t, within.Resolved(ws, filepath.Join(wsLink, "src")), "the directory reached through a link is inside")
	assert.False(t, within.Resolved(filepath.Join(ws, "missing"), ws), "an unresolvable directory is judged as written")
}

// FuzzLexical: Clean and Lexical agree on clean absolute paths, and
// "inside" means exactly "dir joined with a relative path that climbs
// nowhere".
func FuzzLexical(f *testing.F) {
	for _, s := range [][2]string{{"/ws", "/ws/a"}, {"/ws", "/wsx"}, {"/", "/a"}, {"/a/b", "/a"}, {"/ws", "/ws/../x"}, {"/ws", "/ws/..x"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, dir, path string) {
		if strings.ContainsRune(dir+path, 0) {
			return
		}
		d, p := filepath.Clean("/"+dir), filepath.Clean("/"+path)
		in := within.Clean(d, p)
		if in != within.Lexical(d, p) {
			t.Fatalf("Clean(%q, %q) = %v, Lexical disagrees", d, p, in)
		}
		rel, err := filepath.Rel(d, p)
		if err != nil {
			t.Fatal(err)
		}
		climbs := rel == ".." || strings.HasPrefix(rel, "../")
		if in == climbs {
			t.Fatalf("Clean(%q, %q) = %v, but Rel is %q", d, p, in, rel)
		}
		if in && filepath.Join(d, rel) != p {
			t.Fatalf("inside, but %q joined with %q is not %q", d, rel, p)
		}
	})
}
