package builtin

import (
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// GrepSpec returns the Spec of grep_text, grep -rn {pattern} {path}: a
// fresh value each call, so that no caller can change the tool of another.
func GrepSpec() tool.Spec {
	return tool.Spec{
		Name:        "grep_text",
		Description: "Search file contents in the workspace for a regular expression (grep -rn); prints file:line:text for each match.",
		Command:     "grep -rn {pattern} {path}",
		Args: []tool.Arg{
			{Name: "pattern", Type: tool.String, Required: true,
				Description: "Text pattern to search, a basic regular expression (one word: no spaces or quotes)"},
			{Name: "path", Type: tool.Path, Default: ".", HasDefault: true,
				Description: "Directory or file to search, relative to the workspace"},
		},
	}
}

// GrepTool is grep_text.
type GrepTool struct{ *base.CommandToolBase }

// NewGrepTool returns grep_text running on k.
func NewGrepTool(k *kernel.Kernel, opts ...base.Option) (*GrepTool, error) {
	b, err := base.New(GrepSpec(), k, opts...)
	if err != nil {
		return nil, err
	}
	return &GrepTool{b}, nil
}
