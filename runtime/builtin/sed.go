package builtin

import (
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// SedPrintSpec returns the Spec of sed_print, sed -n {range}p {path}: a
// fresh value each call, so that no caller can change the tool of another.
// The range pattern admits only line numbers, so no sed command (e, w, r,
// s///e) can be smuggled into the script.
func SedPrintSpec() tool.Spec {
	return tool.Spec{
		Name:        "sed_print",
		Description: "Print a range of lines of a file (sed -n RANGEp FILE), such as 10,20.",
		Command:     "sed -n {range}p {path}",
		Args: []tool.Arg{
			{Name: "range", Type: tool.String, Required: true, Pattern: `[0-9]+(,[0-9]+)?`,
				Description: "Line or line range to print: N or START,END (1-based)."},
			{Name: "path", Type: tool.Path, Required: true,
				Description: "File to print from, relative to the workspace."},
		},
	}
}

// SedPrintTool is sed_print.
type SedPrintTool struct{ *base.CommandToolBase }

// NewSedPrintTool returns sed_print running on k.
func NewSedPrintTool(k *kernel.Kernel, opts ...base.Option) (*SedPrintTool, error) {
	b, err := base.New(SedPrintSpec(), k, opts...)
	if err != nil {
		return nil, err
	}
	return &SedPrintTool{b}, nil
}
