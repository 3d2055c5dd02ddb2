package kerneltest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

func TestNew(t *testing.T) {
	k := kerneltest.New(t, map[string]string{"notes.txt": "one\n", "src/deep/main.go": "package main\n"},
		kernel.WithTimeout(7*time.Second))
	ws := k.Workspace()
	data, err := os.ReadFile(filepath.Join(ws, "src", "deep", "main.go"))
	require.NoError(t, err)
	assert.Equal(t, "package main\n", string(data))
	res, err := k.Run(context.Background(), []string{"cat", "notes.txt"})
	require.NoError(t, err)
	assert.Equal(t, "one\n", res.Output)
	assert.Equal(t, 7*time.Second, res.Timeout, "the options reach the kernel")

	empty := kerneltest.New(t, nil)
	entries, err := os.ReadDir(empty.Workspace())
	require.NoError(t, err)
	assert.Empty(t, entries)
	assert.NotEqual(t, ws, empty.Workspace(), "each kernel has its own workspace")
}

func TestIn(t *testing.T) {
	dir := kerneltest.Workspace(t, map[string]string{"a": "x"})
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, real, kerneltest.In(t, dir).Workspace())
}
