package main

import (
	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/preset"
)

// descriptorOptions returns the preset options for the descriptor form: the
// *.tool.json files of --tools (default ./tools when it exists). Only a
// watching server creates a missing directory, so files can be dropped into
// it later; for the other commands a missing --tools directory is an error,
// not a new empty directory.
func descriptorOptions(f *toolFlags) []preset.Option {
	dir := f.toolsDir()
	if dir == "" {
		return nil
	}
	var opts []loader.Option
	if !f.watch {
		opts = append(opts, loader.WithoutCreate())
	}
	popts := []preset.Option{preset.WithToolsDir(dir, opts...)}
	if f.toolsInWorkspace {
		popts = append(popts, preset.WithToolsInWorkspace())
	}
	return popts
}
