package preset_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/preset"
)

func toolNames(p *preset.Preset) []string {
	var out []string
	for _, e := range p.Registry.Entries() {
		out = append(out, e.Tool.Name())
	}
	return out
}

func TestWithOnlySelectsEveryForm(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "count.tool.json", desc("count_lines", "Count lines"))
	write(t, dir, "more.tool.json", desc("count_more", "Count more"))
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(dir),
		preset.WithExec("ls"), preset.WithOnly("count_lines", "sed_print"), preset.WithOnly("exec"))
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"count_lines", "exec", "sed_print"}, toolNames(p))
	assert.Empty(t, p.Problems)
}

func TestWithOnlyUnknownName(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "count.tool.json", desc("count_lines", "Count lines"))
	write(t, dir, "broken.tool.json", `{"name": "broken"`)
	_, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(dir),
		preset.WithOnly("grep_text", "nosuch", "exec", "broken"))
	var sel *preset.SelectionError
	require.True(t, errors.As(err, &sel), "error %v is not a *SelectionError", err)
	assert.Equal(t, []string{"broken", "exec", "nosuch"}, sel.Unknown)
	assert.Equal(t, []string{"count_lines", "find_files", "grep_text", "sed_print"}, sel.Known)
	assert.Len(t, sel.Problems, 1, "the broken file's 613 comes with the error")
	assert.Equal(t, `no tool named "broken", "exec", "nosuch"; the tools are: count_lines, find_files, grep_text, sed_print`, err.Error())
}

func TestWithOnlyAndWithoutBuiltins(t *testing.T) {
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithoutBuiltins())
	require.NoError(t, err)
	assert.Empty(t, toolNames(p))

	_, err = preset.New(preset.WithWorkspace(t.TempDir()), preset.WithoutBuiltins(), preset.WithOnly("grep_text"))
	var sel *preset.SelectionError
	require.True(t, errors.As(err, &sel))
	assert.Equal(t, []string{"grep_text"}, sel.Unknown)
	assert.Empty(t, sel.Known)
	assert.Contains(t, err.Error(), "the tools are: none")
}

// A reload keeps the selection: a descriptor dropped in later that is not
// selected does not appear.
func TestWithOnlyFiltersReloads(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "count.tool.json", desc("count_lines", "Count lines"))
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(dir), preset.WithOnly("count_lines"))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan struct{}, 16)
	done := make(chan error, 1)
	go func() { done <- p.Watch(ctx, func() { changed <- struct{}{} }) }()
	waitWatching(t, p)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "extra.tool.json"), []byte(desc("extra_tool", "Extra")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "count.tool.json"), []byte(desc("count_lines", "Count lines again")), 0o644))
	deadline := time.After(10 * time.Second)
	for {
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("no reload with the new description")
		}
		e, ok := p.Registry.Lookup("count_lines")
		if ok && e.Tool.Description() == "Count lines again" {
			break
		}
	}
	assert.Equal(t, []string{"count_lines"}, toolNames(p))
	cancel()
	require.NoError(t, <-done)
}
