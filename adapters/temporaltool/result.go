package temporaltool

import (
	"errors"

	"go.temporal.io/sdk/temporal"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Result is what a tool activity returns: how the command ended, the
// fields of the MCP structured result (mcp.Outcome), with their JSON names.
type Result struct {
	// ExitCode is the command's exit status: 124 on timeout, 128+n when
	// killed by signal n. 0 for a tool that runs no command.
	ExitCode int `json:"exit_code"`
	// Output is stdout and stderr interleaved, bounded by the output limit
	// (head and tail kept). For a tool that runs no command, its text.
	Output string `json:"output"`
	// Truncated reports that the middle of the output was dropped.
	Truncated bool `json:"truncated"`
	// TimedOut reports that the tool's timeout ended the command and its
	// process group.
	TimedOut bool `json:"timed_out"`
	// LimitReason names the resource limit that ended the command ("cpu
	// time limit 30s exceeded"); "" when none did.
	LimitReason string `json:"limit_reason"`
}

// resultOf is the Result of a kernel result.
func resultOf(r kernel.Result) Result {
	return Result{ExitCode: r.ExitCode, Output: r.Output, Truncated: r.Truncated, TimedOut: r.TimedOut, LimitReason: r.Limit}
}

// The application error types of a refused call: the type names the code.
// Both are non-retryable: the same arguments would be refused again.
const (
	// ErrorType613 is the type of the error of a call refused because the
	// tool's descriptor is invalid (tool.CodeSpec).
	ErrorType613 = "ToolgenError613"
	// ErrorType614 is the type of the error of a call whose arguments were
	// rejected (tool.CodeValue); its message is the "error 614: …" text the
	// model would see.
	ErrorType614 = "ToolgenError614"
)

// NonRetryable lists the error types that no retry policy of this package
// retries.
func NonRetryable() []string { return []string{ErrorType613, ErrorType614} }

// activityError is the error an activity returns for a call's err: a 613
// or 614 as a non-retryable application error of its type, anything else
// (a command that could not start, a cancelled call) as it is.
func activityError(err error) error {
	switch tool.CodeOf(err) {
	case tool.CodeSpec:
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrorType613, err)
	case tool.CodeValue:
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrorType614, err)
	}
	return err
}

// Code returns the toolgen error code an activity error carries: 613 or
// 614 for an application error of type ErrorType613 or ErrorType614 (as a
// workflow gets it from ExecuteActivity, wrapped in an ActivityError), 0
// for any other error.
func Code(err error) tool.Code {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		return 0
	}
	switch app.Type() {
	case ErrorType613:
		return tool.CodeSpec
	case ErrorType614:
		return tool.CodeValue
	}
	return 0
}
