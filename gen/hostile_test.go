package gen

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestReadDirHostileFiles: a repository's tools directory may hold a FIFO,
// a symlink to /dev/zero or out of the directory, or a huge file named
// *.tool.json. ReadDir refuses each with a 613 naming it, without blocking
// on the FIFO or reading more than MaxDescriptorSize (it used to hang on
// the FIFO, read /dev/zero until memory ran out, and follow any symlink).
func TestReadDirHostileFiles(t *testing.T) {
	valid, err := os.ReadFile("testdata/no_args.tool.json")
	require.NoError(t, err)
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "evil.json"), valid, 0o644))
	cases := map[string]struct {
		make func(t *testing.T, p string)
		want string
	}{
		"fifo": {func(t *testing.T, p string) { require.NoError(t, syscall.Mkfifo(p, 0o644)) }, "not a regular file"},
		"dev_zero": {func(t *testing.T, p string) {
			require.NoError(t, os.Symlink("/dev/zero", p))
		}, "is a symlink to /dev/zero, outside"},
		"huge": {func(t *testing.T, p string) {
			require.NoError(t, os.WriteFile(p, []byte(strings.Repeat(" ", MaxDescriptorSize+1)), 0o644))
		}, "larger than the limit"},
		"symlink_out": {func(t *testing.T, p string) {
			require.NoError(t, os.Symlink(filepath.Join(outside, "evil.json"), p))
		}, "a symlinked descriptor must stay inside the directory"},
		"dotdot_out": {func(t *testing.T, p string) {
			rel, err := filepath.Rel(filepath.Dir(p), filepath.Join(outside, "evil.json"))
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(rel, "../"))
			require.NoError(t, os.Symlink(rel, p))
		}, "a symlinked descriptor must stay inside the directory"},
		"directory": {func(t *testing.T, p string) { require.NoError(t, os.Mkdir(p, 0o755)) }, "not a regular file"},
		"dangling":  {func(t *testing.T, p string) { require.NoError(t, os.Symlink("nowhere.json", p)) }, "a file that does not exist"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "a.tool.json"), valid, 0o644))
			bad := filepath.Join(dir, "bad.tool.json")
			c.make(t, bad)
			done := make(chan error, 1)
			go func() {
				_, err := ReadDir(dir)
				done <- err
			}()
			select {
			case err := <-done:
				require.Error(t, err)
				assert.Equal(t, tool.CodeSpec, tool.CodeOf(err), "%v", err)
				assert.Contains(t, err.Error(), bad)
				assert.Contains(t, err.Error(), c.want)
			case <-time.After(5 * time.Second):
				// Unblock the reader so the test ends.
				if f, err := os.OpenFile(bad, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatal("ReadDir blocked on a hostile descriptor file")
			}
		})
	}
}

// TestReadDirRule: ReadDir reads what the runtime loader loads, no more:
// hidden files and a bare ".tool.json" are not descriptors, a symlink to a
// file inside the directory (relative, absolute, or out and back in) is
// followed, and every refused file is reported at once.
func TestReadDirRule(t *testing.T) {
	valid, err := os.ReadFile("testdata/no_args.tool.json")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "store"), 0o755))
	for _, name := range []string{"a.tool.json", ".hidden.tool.json", ".tool.json", "store/b.json", "c.tool.json.swp"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), valid, 0o644))
	}
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	require.NoError(t, os.Symlink(filepath.Join("store", "b.json"), filepath.Join(dir, "rel.tool.json")))
	require.NoError(t, os.Symlink(filepath.Join(real, "store", "b.json"), filepath.Join(dir, "abs.tool.json")))
	require.NoError(t, os.Symlink(filepath.Join("..", filepath.Base(real), "store", "b.json"), filepath.Join(dir, "back.tool.json")))
	descs, err := ReadDir(dir)
	require.NoError(t, err)
	var got []string
	for _, d := range descs {
		got = append(got, filepath.Base(d.Path))
		assert.Equal(t, string(valid), string(d.Data))
	}
	assert.Equal(t, []string{"a.tool.json", "abs.tool.json", "back.tool.json", "rel.tool.json"}, got)

	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "f1.tool.json"), 0o644))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, "f2.tool.json")))
	_, err = ReadDir(dir)
	require.Error(t, err)
	assert.Len(t, tool.Flatten(err), 2, "every refused file, at once: %v", err)
}

// TestGeneratedFileNameVisible: a descriptor's file name is repository
// input and appears in the generated doc comments; a name holding a bidi
// override, a line break or another invisible character must not reach the
// generated file as such (Trojan Source: the reviewed code would read
// differently from what it is). Every rune of the output is printable, a
// space, a tab or a newline.
func TestGeneratedFileNameVisible(t *testing.T) {
	valid, err := os.ReadFile("testdata/no_args.tool.json")
	require.NoError(t, err)
	for _, name := range []string{
		"a\u202eevil.tool.json",
		"a\u2066b\u2069.tool.json",
		"a\nline.tool.json",
		"a\u2028b.tool.json",
		"a\x1b[31mred.tool.json",
		"a\u200bzw.tool.json",
		"a\tb.tool.json",
	} {
		t.Run(strings.ToValidUTF8(name, "?"), func(t *testing.T) {
			out, err := Generate(Config{Package: "tools"}, []Descriptor{{Path: filepath.Join("tools", name), Data: valid}})
			require.NoError(t, err)
			for i, r := range string(out.Code) {
				if r != '\n' && r != '\t' && r != ' ' && !unicode.IsPrint(r) {
					t.Fatalf("generated code holds %U at byte %d:\n%s", r, i, NumberLines(out.Code))
				}
			}
			assert.Contains(t, string(out.Code), sourceText(name))
		})
	}
}
