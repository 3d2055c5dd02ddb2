//go:build !toolgen_bootstrap

package main

import (
	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/preset"
)

// generatedOptions returns the preset options for the generated form: the
// project's own descriptors, compiled into descriptors/tools_gen.go.
func generatedOptions(f *toolFlags) []preset.Option {
	return []preset.Option{preset.WithCommandTools("github.com/nanogpt/toolgen/descriptors", descriptors.Tools)}
}
