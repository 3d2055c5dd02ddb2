package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// genModule writes a module with n descriptors in dir/tools and returns the
// tools directory.
func genModule(t testing.TB, n int) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "tools")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/agent\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		desc := fmt.Sprintf(`{
  "name": "tool_%04d",
  "description": "Synthetic tool number %d: search text in the workspace",
  "command": "grep -rn --max-count={count} {pattern} {path}",
  "arguments": {
    "pattern": {"type": "string", "description": "What to search for", "required": true},
    "count":   {"type": "integer", "description": "Matches per file", "default": 5},
    "path":    {"type": "path", "description": "Where to search", "default": "."}
  }
}`, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("tool-%04d.tool.json", i)), []byte(desc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runToolgen(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestGenerateWritesOnlyOnChange: an unchanged output is not rewritten (its
// modification time stays), a changed one is replaced by a rename (a new
// inode), and no temporary file is left behind.
func TestGenerateWritesOnlyOnChange(t *testing.T) {
	dir := genModule(t, 3)
	out := filepath.Join(dir, "tools_gen.go")
	generate := func() {
		t.Helper()
		code, _, stderr := runToolgen("generate", "--tools", dir)
		require.Equal(t, 0, code, stderr)
	}
	generate()
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(out, old, old))
	before, err := os.Stat(out)
	require.NoError(t, err)
	generate()
	after, err := os.Stat(out)
	require.NoError(t, err)
	assert.True(t, after.ModTime().Equal(before.ModTime()), "an unchanged file was rewritten")

	desc := filepath.Join(dir, "tool-0001.tool.json")
	data, err := os.ReadFile(desc)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(desc, bytes.Replace(data, []byte("number 1:"), []byte("number one:"), 1), 0o644))
	generate()
	changed, err := os.Stat(out)
	require.NoError(t, err)
	assert.False(t, os.SameFile(before, changed), "a changed file was written in place, not replaced")
	assert.Equal(t, os.FileMode(0o644), changed.Mode().Perm(), "the file keeps its mode")
	src, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(src), "Synthetic tool number one:")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), ".tmp", "temporary file left")
		assert.False(t, strings.HasPrefix(e.Name(), ".tools_gen"), "temporary file left: %s", e.Name())
	}
}

// BenchmarkGenerateCommand1000 is a whole `toolgen generate` on 1,000
// descriptors: read, go/packages, generate, compare, write (budget 2 s).
func BenchmarkGenerateCommand1000(b *testing.B) {
	dir := genModule(b, 1000)
	out := filepath.Join(dir, "tools_gen.go")
	for b.Loop() {
		os.Remove(out) // every run writes the file
		if code, _, stderr := runToolgen("generate", "-dir", dir); code != 0 {
			b.Fatalf("generate: %d %s", code, stderr)
		}
	}
}

// TestGitHubAnnotation pins the workflow-command escapes: % CR LF in the
// message, and also : and , in properties.
func TestGitHubAnnotation(t *testing.T) {
	for _, c := range []struct {
		p    problem
		want string
	}{
		{problem{File: "tools/a,b:c.tool.json", Line: 3, Column: 7, Code: 613, Message: "100% sure\r\nnext: line, more"},
			"::error file=tools/a%2Cb%3Ac.tool.json,line=3,col=7,title=toolgen error 613::100%25 sure%0D%0Anext: line, more"},
		{problem{File: "tools/empty.tool.json", Code: 613, Message: "file is empty"},
			"::error file=tools/empty.tool.json,title=toolgen error 613::file is empty"},
		{problem{Message: "no such file"}, "::error title=toolgen::no such file"},
	} {
		if got := githubAnnotation(c.p); got != c.want {
			t.Errorf("githubAnnotation(%+v)\n got %s\nwant %s", c.p, got, c.want)
		}
	}
}

// TestGenerateOutFileNotRegular: the output file (or its _test.go twin) may
// be planted by the repository as a FIFO or a symlink to /dev/zero; generate
// and generate -check refuse it (exit 1, naming it) instead of blocking on
// the FIFO or reading /dev/zero until memory runs out.
func TestGenerateOutFileNotRegular(t *testing.T) {
	for _, c := range []struct{ name, file string }{
		{"fifo", "tools_gen.go"},
		{"fifo_test_file", "tools_gen_test.go"},
		{"dev_zero", "tools_gen.go"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := genModule(t, 1)
			out := filepath.Join(dir, c.file)
			if c.name == "dev_zero" {
				require.NoError(t, os.Symlink("/dev/zero", out))
			} else {
				require.NoError(t, syscall.Mkfifo(out, 0o644))
			}
			for _, args := range [][]string{{"generate", "--tools", dir}, {"generate", "-check", "--tools", dir}} {
				type result struct {
					code   int
					stderr string
				}
				done := make(chan result, 1)
				go func() {
					code, _, stderr := runToolgen(args...)
					done <- result{code, stderr}
				}()
				select {
				case r := <-done:
					assert.Equal(t, exitFailure, r.code, r.stderr)
					assert.Contains(t, r.stderr, out+" exists and is not a regular file")
				case <-time.After(10 * time.Second):
					if f, err := os.OpenFile(out, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
						f.Close()
					}
					t.Fatalf("%v blocked on %s", args, out)
				}
			}
		})
	}
}

// TestCheckHostileFileNames: file names (and symlink targets) come from the
// repository. A name holding a line break, an ANSI escape or a bidi control
// is printed escaped in the text format, so it can neither forge a line of
// its own (a GitHub Actions "::" command: the text format runs in CI logs
// too) nor drive the terminal.
func TestCheckHostileFileNames(t *testing.T) {
	dir := t.TempDir()
	bad := `{"name": "x", "description": "d", "command": "uname -s", "bogus": 1}`
	names := []string{
		"a\n::add-mask::secret\n.tool.json",
		"b\x1b]0;title\a\x1b[31m.tool.json",
		"c\u202e\xff.tool.json",
	}
	for _, n := range names {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte(bad), 0o644))
	}
	require.NoError(t, os.Symlink("/x\n::warning::forged", filepath.Join(dir, "d.tool.json")))
	code, _, stderr := runToolgen("check", dir)
	assert.Equal(t, exitSpec, code, stderr)
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	assert.Len(t, lines, 4, stderr)
	cwd, err := os.Getwd()
	require.NoError(t, err)
	rel, err := filepath.Rel(cwd, dir) // how check names a directory near the working one
	require.NoError(t, err)
	for _, l := range lines {
		assert.True(t, strings.HasPrefix(l, dir) || strings.HasPrefix(l, rel),
			"a line that does not start with the directory: %q", l)
		assert.NotContains(t, l, "\x1b")
		assert.NotContains(t, l, "\u202e")
		assert.True(t, utf8.ValidString(l), "%q", l)
	}
	assert.Contains(t, stderr, `a\n::add-mask::secret\n.tool.json`)
	assert.Contains(t, stderr, `c\u202e\xff.tool.json`)
}
