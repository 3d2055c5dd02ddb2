package audit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestRecordsStderrApart: a tool that keeps stderr apart returns two
// streams to the model, and its record counts both.
func TestRecordsStderrApart(t *testing.T) {
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one\n"), 0o644))
	k, err := kernel.New(ws, kernel.WithTimeout(10*time.Second))
	require.NoError(t, err)
	ls, err := base.New(tool.Spec{Name: "ls_two", Description: "list two", Command: "ls a.txt {path}",
		Args: []tool.Arg{{Name: "path", Type: tool.Path, Required: true, Description: "where"}}, Stderr: tool.StderrSeparate}, k)
	require.NoError(t, err)
	l, path := openLog(t, Options{})
	args := json.RawMessage(`{"path":"missing"}`)
	text, err := New(l, WithConfinement("best-effort")).Wrap(ls, tool.FormDescriptor).Call(context.Background(), args)
	require.NoError(t, err)
	require.NoError(t, l.Close())
	res, err := ls.Execute(context.Background(), args)
	require.NoError(t, err)
	require.Equal(t, "a.txt\n", res.Output, text)
	require.Contains(t, res.Stderr, "missing", text)
	recs := readRecords(t, path)
	require.Len(t, recs, 1)
	assert.Equal(t, len(res.Output)+len(res.Stderr), recs[0].OutputBytes, text)
}
