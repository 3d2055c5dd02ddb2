package builtin

import (
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// FindSpec returns the Spec of find_files, find {path} -name {pattern}: a
// fresh value each call, so that no caller can change the tool of another.
func FindSpec() tool.Spec {
	return tool.Spec{
		Name:        "find_files",
		Description: "Find files in the workspace whose name matches a glob (find PATH -name PATTERN).",
		Command:     "find {path} -name {pattern}",
		Args: []tool.Arg{
			{Name: "path", Type: tool.Path, Default: ".", HasDefault: true,
				Description: "Directory to search, relative to the workspace."},
			{Name: "pattern", Type: tool.String, Required: true,
				Description: "Glob for the file name, such as *.go (no spaces)."},
		},
	}
}

// FindTool is find_files.
type FindTool struct{ *base.CommandToolBase }

// NewFindTool returns find_files running on k.
func NewFindTool(k *kernel.Kernel, opts ...base.Option) (*FindTool, error) {
	b, err := base.New(FindSpec(), k, opts...)
	if err != nil {
		return nil, err
	}
	return &FindTool{b}, nil
}
