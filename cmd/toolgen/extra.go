package main

import "github.com/nanogpt/toolgen/runtime/preset"

// extraOptions returns the preset options for the forms assembled beyond the
// built-ins: generated tools, descriptor tools and ExecTool.
func extraOptions(f *toolFlags) []preset.Option {
	var opts []preset.Option
	opts = append(opts, generatedOptions(f)...)
	opts = append(opts, descriptorOptions(f)...)
	opts = append(opts, execOptions(f)...)
	return opts
}
