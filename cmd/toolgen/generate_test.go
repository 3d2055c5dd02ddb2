package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
