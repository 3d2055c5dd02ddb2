package loader_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
)

func trustDesc(name string) string {
	return `{"name":"` + name + `","description":"d","command":"ls"}`
}

func writeMode(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	require.NoError(t, os.Chmod(path, mode))
}

func TestTrustRefusesWorldWritableFile(t *testing.T) {
	dir := t.TempDir()
	writeMode(t, filepath.Join(dir, "ok.tool.json"), trustDesc("ok_tool"), 0o644)
	writeMode(t, filepath.Join(dir, "open.tool.json"), trustDesc("open_tool"), 0o666)
	l, err := loader.New(dir, kerneltest.New(t, nil))
	require.NoError(t, err)
	tools, problems := l.LoadAll()
	require.Len(t, tools, 1)
	assert.Equal(t, "ok_tool", tools[0].Tool.Name())
	require.Len(t, problems, 1)
	assert.Equal(t, tool.CodeSpec, tool.CodeOf(problems[0]))
	assert.Contains(t, problems[0].Error(), "open.tool.json: error 613: file is writable by group or others (mode -rw-rw-rw-)")
	// The explicit opt-out loads it.
	l, err = loader.New(dir, kerneltest.New(t, nil), loader.WithUntrustedFiles())
	require.NoError(t, err)
	tools, problems = l.LoadAll()
	assert.Len(t, tools, 2, "untrusted")
	assert.Empty(t, problems, "untrusted")
}

func TestTrustGroupWritableOnlyForOwnGroup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.tool.json")
	writeMode(t, path, trustDesc("g_tool"), 0o664)
	// Files are created in the user's primary group: group write is accepted.
	l, err := loader.New(dir, kerneltest.New(t, nil))
	require.NoError(t, err)
	tools, problems := l.LoadAll()
	require.Len(t, tools, 1, "own group: %v", problems)
	require.Empty(t, problems, "own group")
	guarantee.AsRoot(t, "changing a file's group to another group")
	require.NoError(t, os.Chown(path, -1, os.Getegid()+4242))
	l, err = loader.New(dir, kerneltest.New(t, nil))
	require.NoError(t, err)
	tools, problems = l.LoadAll()
	assert.Empty(t, tools, "foreign group")
	require.Len(t, problems, 1, "foreign group")
	assert.Contains(t, problems[0].Error(), "writable by group or others")
}

func TestTrustRefusesForeignOwner(t *testing.T) {
	guarantee.AsRoot(t, "giving a file to another user")
	dir := t.TempDir()
	path := filepath.Join(dir, "x.tool.json")
	writeMode(t, path, trustDesc("x_tool"), 0o644)
	require.NoError(t, os.Chown(path, 4242, -1))
	l, err := loader.New(dir, kerneltest.New(t, nil))
	require.NoError(t, err)
	tools, problems := l.LoadAll()
	assert.Empty(t, tools)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), "is owned by uid 4242, neither root nor the user running toolgen")
}

func TestTrustRefusesWorldWritableDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tools")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err := loader.New(dir, kerneltest.New(t, nil))
	assert.Equal(t, tool.CodeSpec, tool.CodeOf(err), "%v", err)
	assert.ErrorContains(t, err, "tools directory is writable by group or others")
	_, err = loader.New(dir, kerneltest.New(t, nil), loader.WithUntrustedFiles())
	assert.NoError(t, err, "untrusted")
}

// TestTrustAttacks: what a user other than root and the one running the
// loader could write is refused, whoever owns the directory around it: a
// group- or world-writable directory, a file of another user, a symlink to
// a writable file or through a writable directory. Cases that need another
// owner run as root only; the others run as every user.
func TestTrustAttacks(t *testing.T) {
	const other = 4242 // a user that is neither root nor the one running the test
	for _, c := range []struct {
		name     string
		needRoot bool
		setup    func(t *testing.T, dir string) // dir holds good.tool.json (0644) already
		dirErr   string                         // New's 613, or ""
		fileErr  string                         // the 613 of the file named in file
		file     string
	}{
		{name: "world-writable dir", setup: func(t *testing.T, dir string) { require.NoError(t, os.Chmod(dir, 0o777)) },
			dirErr: "tools directory is writable by group or others"},
		{name: "group-writable dir, another group", needRoot: true, setup: func(t *testing.T, dir string) {
			require.NoError(t, os.Chmod(dir, 0o775))
			require.NoError(t, os.Chown(dir, 0, os.Getegid()+4242))
		}, dirErr: "tools directory is writable by group or others"},
		{name: "dir of another user", needRoot: true, setup: func(t *testing.T, dir string) { require.NoError(t, os.Chown(dir, other, -1)) },
			dirErr: "tools directory is owned by uid 4242, neither root nor the user"},
		{name: "file of another user in the user's dir", needRoot: true, file: "evil.tool.json", setup: func(t *testing.T, dir string) {
			writeMode(t, filepath.Join(dir, "evil.tool.json"), trustDesc("evil_tool"), 0o644)
			require.NoError(t, os.Chown(filepath.Join(dir, "evil.tool.json"), other, -1))
		}, fileErr: "file is owned by uid 4242, neither root nor the user"},
		{name: "root-owned dir holding a file another user can write", needRoot: true, file: "evil.tool.json", setup: func(t *testing.T, dir string) {
			require.NoError(t, os.Chown(dir, 0, 0))
			writeMode(t, filepath.Join(dir, "evil.tool.json"), trustDesc("evil_tool"), 0o600)
			require.NoError(t, os.Chown(filepath.Join(dir, "evil.tool.json"), other, other))
		}, fileErr: "file is owned by uid 4242"},
		{name: "world-writable file", file: "evil.tool.json", setup: func(t *testing.T, dir string) {
			writeMode(t, filepath.Join(dir, "evil.tool.json"), trustDesc("evil_tool"), 0o646)
		}, fileErr: "file is writable by group or others"},
		{name: "symlink to a world-writable file", file: "evil.tool.json", setup: func(t *testing.T, dir string) {
			writeMode(t, filepath.Join(dir, "target.json"), trustDesc("evil_tool"), 0o666)
			require.NoError(t, os.Symlink("target.json", filepath.Join(dir, "evil.tool.json")))
		}, fileErr: "file is writable by group or others"},
		{name: "symlink to a file of another user", needRoot: true, file: "evil.tool.json", setup: func(t *testing.T, dir string) {
			writeMode(t, filepath.Join(dir, "target.json"), trustDesc("evil_tool"), 0o644)
			require.NoError(t, os.Chown(filepath.Join(dir, "target.json"), other, -1))
			require.NoError(t, os.Symlink("target.json", filepath.Join(dir, "evil.tool.json")))
		}, fileErr: "file is owned by uid 4242"},
		{name: "symlink through a world-writable subdirectory", file: "evil.tool.json", setup: func(t *testing.T, dir string) {
			sub := filepath.Join(dir, "sub")
			require.NoError(t, os.Mkdir(sub, 0o755))
			require.NoError(t, os.Chmod(sub, 0o777))
			writeMode(t, filepath.Join(sub, "x.json"), trustDesc("evil_tool"), 0o644)
			require.NoError(t, os.Symlink("sub/x.json", filepath.Join(dir, "evil.tool.json")))
		}, fileErr: "file is a symlink through the directory " /* …/sub */},
		{name: "symlink through a subdirectory of another user", needRoot: true, file: "evil.tool.json", setup: func(t *testing.T, dir string) {
			sub := filepath.Join(dir, "sub", "deeper")
			require.NoError(t, os.MkdirAll(sub, 0o755))
			writeMode(t, filepath.Join(sub, "x.json"), trustDesc("evil_tool"), 0o644)
			require.NoError(t, os.Chown(filepath.Join(dir, "sub"), other, -1))
			require.NoError(t, os.Symlink("sub/deeper/x.json", filepath.Join(dir, "evil.tool.json")))
		}, fileErr: "/sub, which is owned by uid 4242, neither root nor the user"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.needRoot {
				guarantee.AsRoot(t, "giving a file to another user or group; the rule itself is TestTrustedOwner's")
			}
			dir := filepath.Join(t.TempDir(), "tools")
			require.NoError(t, os.Mkdir(dir, 0o755))
			writeMode(t, filepath.Join(dir, "good.tool.json"), trustDesc("good_tool"), 0o644)
			c.setup(t, dir)
			l, err := loader.New(dir, kerneltest.New(t, nil))
			if c.dirErr != "" {
				assert.Equal(t, tool.CodeSpec, tool.CodeOf(err), "%v", err)
				assert.ErrorContains(t, err, c.dirErr)
				return
			}
			require.NoError(t, err)
			tools, problems := l.LoadAll()
			require.Len(t, tools, 1, "problems: %v", problems)
			assert.Equal(t, "good_tool", tools[0].Tool.Name())
			require.Len(t, problems, 1)
			assert.Contains(t, problems[0].Error(), filepath.Join(dir, c.file)+": error 613: ")
			assert.Contains(t, problems[0].Error(), c.fileErr)
		})
	}
}

// TestTrustSymlinkInsideTrustedSubdir: a symlink to a file in a
// subdirectory that only the user can write loads.
func TestTrustSymlinkInsideTrustedSubdir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tools")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	writeMode(t, filepath.Join(dir, "sub", "x.json"), trustDesc("linked_tool"), 0o644)
	require.NoError(t, os.Symlink("sub/x.json", filepath.Join(dir, "linked.tool.json")))
	l, err := loader.New(dir, kerneltest.New(t, nil))
	require.NoError(t, err)
	tools, problems := l.LoadAll()
	assert.Empty(t, problems)
	require.Len(t, tools, 1)
	assert.Equal(t, "linked_tool", tools[0].Tool.Name())
}

// TestTrustConfigMapLayout: a Kubernetes ConfigMap volume holds each file
// as a symlink through ..data to a timestamped directory; the files load
// when those directories are writable by no one else.
func TestTrustConfigMapLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tools")
	stamp := filepath.Join(dir, "..2026_12_06_17_00_00.000000001")
	require.NoError(t, os.MkdirAll(stamp, 0o755))
	writeMode(t, filepath.Join(stamp, "a.tool.json"), trustDesc("mapped_tool"), 0o644)
	require.NoError(t, os.Symlink(filepath.Base(stamp), filepath.Join(dir, "..data")))
	require.NoError(t, os.Symlink("..data/a.tool.json", filepath.Join(dir, "a.tool.json")))
	l, err := loader.New(dir, kerneltest.New(t, nil))
	require.NoError(t, err)
	tools, problems := l.LoadAll()
	assert.Empty(t, problems)
	require.Len(t, tools, 1)
	assert.Equal(t, "mapped_tool", tools[0].Tool.Name())
	// The timestamped directory made writable by others: refused.
	require.NoError(t, os.Chmod(stamp, 0o777))
	_, problems = l.LoadAll()
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), "is a symlink through the directory")
}
