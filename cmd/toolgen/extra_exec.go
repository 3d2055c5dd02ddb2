package main

import "github.com/nanogpt/toolgen/runtime/preset"

// execOptions returns the preset options for the exec form.
func execOptions(f *toolFlags) []preset.Option {
	return nil
}
