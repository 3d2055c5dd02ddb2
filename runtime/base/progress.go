package base

import (
	"context"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// ProgressContext returns ctx set up so that a kernel run under it reports
// its progress to the function tool.WithProgress put in ctx, every
// tool.ProgressInterval (kernel.WithProgress); ctx itself when there is
// none. Every command tool's Call and Execute run their command under it
// (ExecTool's too).
func ProgressContext(ctx context.Context) context.Context {
	fn := tool.ProgressFunc(ctx)
	if fn == nil {
		return ctx
	}
	return kernel.WithProgress(ctx, tool.ProgressInterval, func(p kernel.Progress) { fn(tool.Progress(p)) })
}
