package preset_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestBinaryInsideWorkspace: a binary that resolves inside the workspace is
// a 613 wherever a tool is built — a descriptor from a trusted tools
// directory outside the workspace, a code-form tool — however it gets there:
// an absolute path, a symlink on the kernel's PATH, a PATH entry inside the
// workspace.
func TestBinaryInsideWorkspace(t *testing.T) {
	base0, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws := filepath.Join(base0, "ws")
	pathdir := filepath.Join(base0, "pathdir")
	tools := filepath.Join(base0, "tools")
	for _, d := range []string{filepath.Join(ws, "bin"), pathdir, tools} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "bin", "evil"), []byte("\x7fELF\n"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(ws, "bin", "evil"), filepath.Join(pathdir, "helper")))

	// A descriptor naming the workspace's program by its absolute path.
	desc := `{"name":"run_evil","description":"d","command":"` + filepath.Join(ws, "bin", "evil") + `"}`
	require.NoError(t, os.WriteFile(filepath.Join(tools, "evil.tool.json"), []byte(desc), 0o644))
	p, err := preset.New(preset.WithWorkspace(ws), preset.WithToolsDir(tools))
	require.NoError(t, err)
	assert.False(t, names(p)["run_evil"])
	require.Len(t, p.Problems, 1, problemText(p))
	assert.Contains(t, p.Problems[0].Error(), "evil.tool.json:1:")
	assert.Contains(t, p.Problems[0].Error(), "resolves inside the workspace")

	// A code-form tool: construction fails.
	spec := tool.Spec{Name: "helper", Description: "d", Command: "helper"}
	for _, path := range []string{pathdir + ":/usr/bin", filepath.Join(ws, "bin") + ":/usr/bin"} {
		k := kerneltest.In(t, ws, kernel.WithPath(path))
		bin := "helper"
		if strings.HasPrefix(path, ws) {
			bin = "evil"
		}
		spec.Command = bin
		_, err = base.New(spec, k)
		assert.ErrorContains(t, err, "resolves inside the workspace", path)
		assert.Equal(t, tool.CodeSpec, tool.CodeOf(err))
	}
	_, err = preset.New(preset.WithWorkspace(ws), preset.WithCommandTools("example.com/x", func(k *kernel.Kernel) ([]tool.Tool, error) {
		b, err := base.New(tool.Spec{Name: "evil", Description: "d", Command: filepath.Join(ws, "bin", "evil")}, k)
		if err != nil {
			return nil, err
		}
		return []tool.Tool{b}, nil
	}))
	assert.ErrorContains(t, err, "resolves inside the workspace")

	// The same tools run fine from outside: the system's programs are not
	// affected.
	_, err = base.New(tool.Spec{Name: "list", Description: "d", Command: "ls"}, kerneltest.In(t, ws))
	assert.NoError(t, err)
}

// TestPathSlotEscapeDotDot: issue 13 through a real tool: grep_text with
// path escape/.. (escape -> /etc) is a 614 and runs nothing, while sub/..
// runs as written.
func TestPathSlotEscapeDotDot(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.Symlink("/etc", filepath.Join(ws, "escape")))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("needle\n"), 0o644))
	p, err := preset.New(preset.WithWorkspace(ws))
	require.NoError(t, err)
	e, ok := p.Registry.Lookup("grep_text")
	require.True(t, ok)
	for _, v := range []string{"escape/..", "escape/../etc", "sub/../escape/.."} {
		out, err := e.Tool.Call(t.Context(), []byte(`{"pattern":"root","path":"`+v+`"}`))
		assert.Equal(t, tool.CodeValue, tool.CodeOf(err), "%s: %q %v", v, out, err)
		assert.NotContains(t, out, "root:", v)
	}
	out, err := e.Tool.Call(t.Context(), []byte(`{"pattern":"needle","path":"sub/.."}`))
	require.NoError(t, err)
	assert.Contains(t, out, "sub/../a.txt:1:needle") // grep prints the path as written
}

// TestExtendedDenyListJudgesTheFile: a code-form tool built against the
// default list runs a file that the preset's extended list denies under
// another name (a hard link): the preset refuses it.
func TestExtendedDenyListJudgesTheFile(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	denied := filepath.Join(dir, "lister")
	require.NoError(t, os.WriteFile(denied, []byte("\x7fELF\n"), 0o755))
	innocent := filepath.Join(dir, "innocent")
	require.NoError(t, os.Link(denied, innocent))
	factory := func(k *kernel.Kernel) ([]tool.Tool, error) {
		b, err := base.New(tool.Spec{Name: "run_it", Description: "d", Command: innocent}, k)
		if err != nil {
			return nil, err
		}
		return []tool.Tool{b}, nil
	}
	ws := t.TempDir()
	_, err = preset.New(preset.WithWorkspace(ws), preset.WithCommandTools("example.com/x", factory))
	require.NoError(t, err)
	_, err = preset.New(preset.WithWorkspace(ws), preset.WithDenied("lister"), preset.WithCommandTools("example.com/x", factory))
	assert.ErrorContains(t, err, "is the same file as "+denied)
	assert.Equal(t, tool.CodeSpec, tool.CodeOf(err))
}
