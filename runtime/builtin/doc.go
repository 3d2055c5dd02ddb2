// Package builtin holds toolgen's code-form command tools, each a Spec (a fresh
// copy from a function, as generated code has) and a constructor embedding
// base.CommandToolBase: the model fills typed slots and can express nothing
// outside the template.
//
//	grep_text   grep -rn {pattern} {path}
//	find_files  find {path} -name {pattern}
//	sed_print   sed -n {range}p {path}
package builtin

import (
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// All returns the three built-in tools running on k.
func All(k *kernel.Kernel, opts ...base.Option) ([]tool.SpecTool, error) {
	grep, err := NewGrepTool(k, opts...)
	if err != nil {
		return nil, err
	}
	find, err := NewFindTool(k, opts...)
	if err != nil {
		return nil, err
	}
	sed, err := NewSedPrintTool(k, opts...)
	if err != nil {
		return nil, err
	}
	return []tool.SpecTool{grep, find, sed}, nil
}
