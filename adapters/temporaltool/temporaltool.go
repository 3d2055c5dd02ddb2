package temporaltool

import (
	"context"
	"encoding/json"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"

	"github.com/nanogpt/toolgen/runtime/audit"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Option configures Register.
type Option func(*config)

type config struct {
	interval time.Duration
}

// DefaultHeartbeatInterval is how often a running call heartbeats when it
// reports no progress in between: often enough that a cancellation reaches
// it within about a second on a worker whose MaxHeartbeatThrottleInterval
// is a second.
const DefaultHeartbeatInterval = time.Second

// WithHeartbeatInterval sets how often a running call heartbeats at least
// (default DefaultHeartbeatInterval); a value of zero or less keeps the
// default. Keep it well below the activity's heartbeat timeout.
func WithHeartbeatInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.interval = d
		}
	}
}

// Register registers each tool as an activity named after it (t.Name()) on
// r, a worker or any other activity registry. The activity takes the tool's
// JSON arguments and returns its Result; see the package doc for errors,
// heartbeats, cancellation and the audit key. Tools wrapped by an
// audit.Auditor are recorded as usual. Two tools of one name panic, as the
// SDK does for any activity registered twice.
func Register(r worker.ActivityRegistry, tools []tool.Tool, opts ...Option) {
	c := config{interval: DefaultHeartbeatInterval}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	for _, t := range tools {
		r.RegisterActivityWithOptions(activityOf(t, c), activity.RegisterOptions{Name: t.Name()})
	}
}

// activityOf is the activity function of one tool.
func activityOf(t tool.Tool, c config) func(context.Context, json.RawMessage) (Result, error) {
	return func(ctx context.Context, args json.RawMessage) (Result, error) {
		return call(ctx, t, args, c)
	}
}

// IdempotencyKey is the key of the activity of ctx, the same for every
// attempt: WORKFLOW_ID/RUN_ID/ACTIVITY_ID.
func IdempotencyKey(ctx context.Context) string {
	info := activity.GetInfo(ctx)
	return info.WorkflowExecution.ID + "/" + info.WorkflowExecution.RunID + "/" + info.ActivityID
}

// call runs one activity: the tool's call under a heartbeat, its audit
// caller and a kernel observer that catches the command's outcome.
func call(ctx context.Context, t tool.Tool, args json.RawMessage, c config) (Result, error) {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	ctx = audit.WithCaller(ctx, audit.Caller{Transport: "temporal", Session: activity.GetInfo(ctx).TaskQueue, Key: IdempotencyKey(ctx)})
	hb := startHeartbeat(ctx, c.interval)
	defer hb.stop()
	ctx = tool.WithProgress(ctx, hb.progress)
	if rt, ok := t.(*remoteTool); ok {
		res, _, err := rt.call(ctx, args)
		if err != nil {
			return Result{}, activityError(err)
		}
		return res, nil
	}
	var ran *kernel.Result
	ctx = kernel.WithObserver(ctx, func(r kernel.Result, _ error) { ran = &r })
	text, err := t.Call(ctx, args)
	if err != nil {
		return Result{}, activityError(err)
	}
	if ran == nil {
		return Result{Output: text}, nil
	}
	return resultOf(*ran), nil
}
