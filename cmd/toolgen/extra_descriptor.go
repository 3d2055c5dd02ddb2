package main

import "github.com/nanogpt/toolgen/runtime/preset"

// descriptorOptions returns the preset options for the descriptor form.
func descriptorOptions(f *toolFlags) []preset.Option {
	return nil
}
