package main

import "github.com/nanogpt/toolgen/runtime/preset"

// execOptions returns the preset options for the exec form: ExecTool exists
// only when --exec-allow grants binaries.
func execOptions(f *toolFlags) []preset.Option {
	bins := f.execBinaries()
	if len(bins) == 0 {
		return nil
	}
	return []preset.Option{preset.WithExec(bins...)}
}
