package tool

import (
	"context"
	"time"
)

// Progress is what a running call has produced so far. A command tool
// reports it to the function WithProgress put in the call's context while
// the command runs longer than ProgressInterval, about once per interval
// (package base does it for every command tool, ExecTool included; toolgen
// serve turns each report into an MCP notifications/progress). Its fields
// are those of kernel.Progress, which it converts from.
type Progress struct {
	// Elapsed is the time since the command started.
	Elapsed time.Duration
	// Bytes is how many bytes of output the command has written so far,
	// stdout and stderr (all of them, kept or not).
	Bytes int64
	// Lines is how many newline characters that output held.
	Lines int64
	// Tail is the last lines of the output so far: at most 5 lines and 400
	// bytes, valid UTF-8, a carriage return read as a line break, no
	// trailing line break; "" when there is none yet.
	Tail string
}

// ProgressInterval is how often a running call reports its Progress, and
// how long it runs before the first report.
const ProgressInterval = time.Second

type progressKey struct{}

// WithProgress returns a copy of ctx whose calls report their Progress to
// fn. fn is called from another goroutine than Call's, never concurrently
// with itself for one call, and never after Call has returned; it must not
// block for long. A nil fn removes the reporting.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// ProgressFunc returns the function WithProgress put in ctx, or nil.
func ProgressFunc(ctx context.Context) func(Progress) {
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	return fn
}
