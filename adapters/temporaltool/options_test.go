package temporaltool_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/nanogpt/toolgen/adapters/temporaltool"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

func TestActivityOptions(t *testing.T) {
	read := tool.Spec{Name: "r"}
	o := temporaltool.ActivityOptions(read)
	if o.StartToCloseTimeout != kernel.DefaultTimeout+temporaltool.StartToCloseMargin || o.HeartbeatTimeout != temporaltool.DefaultHeartbeatTimeout {
		t.Errorf("read-only defaults: %+v", o)
	}
	if p := o.RetryPolicy; p.MaximumAttempts != 5 || !slices.Equal(p.NonRetryableErrorTypes, temporaltool.NonRetryable()) {
		t.Errorf("a read-only tool is retried, never on 613/614: %+v", p)
	}
	if o := temporaltool.ActivityOptions(tool.Spec{Timeout: 5 * time.Minute}); o.StartToCloseTimeout != 5*time.Minute+temporaltool.StartToCloseMargin {
		t.Errorf("start-to-close from the tool's timeout: %v", o.StartToCloseTimeout)
	}
	for _, s := range []tool.Spec{{Writes: true}, {RunsCode: true}, {Writes: true, RunsCode: true}} {
		if temporaltool.Retryable(s) || temporaltool.ActivityOptions(s).RetryPolicy.MaximumAttempts != 1 {
			t.Errorf("%+v: a tool that writes or runs code gets one attempt", s)
		}
	}
}

func TestActivityError(t *testing.T) {
	for _, c := range []struct {
		err  error
		code tool.Code
	}{
		{tool.ValueErrorf("path", "climbs out of the workspace"), tool.CodeValue},
		{fmt.Errorf("wrapped: %w", tool.SpecErrorf("command", "denied")), tool.CodeSpec},
		{errors.New("could not start"), 0},
	} {
		// What a workflow gets back is an ApplicationError rebuilt from the
		// type name; Code reads it.
		err := temporaltool.ActivityErrorForTest(c.err)
		if got := temporaltool.Code(err); got != c.code {
			t.Errorf("Code(%v) = %d, want %d", c.err, got, c.code)
		}
		var app *temporal.ApplicationError
		if c.code != 0 && (!errors.As(err, &app) || !app.NonRetryable() || app.Error() != c.err.Error()) {
			t.Errorf("%v: want a non-retryable application error with the model's text, got %v", c.err, err)
		}
	}
	if temporaltool.Code(temporal.NewApplicationError("x", "Other")) != 0 || temporaltool.Code(nil) != 0 {
		t.Error("Code of an unrelated error is 0")
	}
}
