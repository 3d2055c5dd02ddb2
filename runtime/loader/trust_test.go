package loader_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	if os.Geteuid() != 0 {
		t.Skip("changing a file's group to another group needs root")
	}
	require.NoError(t, os.Chown(path, -1, os.Getegid()+4242))
	l, err = loader.New(dir, kerneltest.New(t, nil))
	require.NoError(t, err)
	tools, problems = l.LoadAll()
	assert.Empty(t, tools, "foreign group")
	require.Len(t, problems, 1, "foreign group")
	assert.Contains(t, problems[0].Error(), "writable by group or others")
}

func TestTrustRefusesForeignOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.tool.json")
	writeMode(t, path, trustDesc("x_tool"), 0o644)
	require.NoError(t, os.Chown(path, 4242, -1))
	l, err := loader.New(dir, kerneltest.New(t, nil))
	require.NoError(t, err)
	tools, problems := l.LoadAll()
	assert.Empty(t, tools)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), "is owned by uid 4242")
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
