//go:build toolgen_bootstrap

package main

import "github.com/nanogpt/toolgen/runtime/preset"

// generatedOptions, in a toolgen built with -tags toolgen_bootstrap, returns
// no generated tools: that build does not link descriptors/tools_gen.go, so
// it can regenerate the file even when the file no longer compiles (see the
// go:generate line in descriptors/doc.go).
func generatedOptions(f *toolFlags) []preset.Option {
	return nil
}
