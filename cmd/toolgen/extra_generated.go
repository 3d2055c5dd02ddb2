package main

import "github.com/nanogpt/toolgen/runtime/preset"

// generatedOptions returns the preset options for the generated form.
func generatedOptions(f *toolFlags) []preset.Option {
	return nil
}
