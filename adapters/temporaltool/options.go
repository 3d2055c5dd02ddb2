package temporaltool

import (
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// DefaultHeartbeatTimeout is the heartbeat timeout of a tool activity: a
// worker lost in the middle of a call is noticed after this long (and a
// retryable call then tried again on another worker).
const DefaultHeartbeatTimeout = 10 * time.Second

// StartToCloseMargin is added to a tool's timeout to make its activity's
// start-to-close timeout, so that the kernel's timeout ends a slow command
// first (a Result with timed_out set) rather than the activity's.
const StartToCloseMargin = 10 * time.Second

// Retryable reports whether a tool's activity may be retried: only when it
// neither writes (spec.Writes) nor runs the repository's code
// (spec.RunsCode). A call of any other tool might have done half its work
// before its worker was lost.
func Retryable(spec tool.Spec) bool { return !spec.Writes && !spec.RunsCode }

// RetryPolicy is the retry policy of a tool's activity: for a Retryable
// tool up to 5 attempts, 1s apart and doubling (at most a minute), never on
// a 613 or 614; for any other tool a single attempt.
func RetryPolicy(spec tool.Spec) *temporal.RetryPolicy {
	if !Retryable(spec) {
		return &temporal.RetryPolicy{MaximumAttempts: 1}
	}
	return &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
		MaximumInterval: time.Minute, MaximumAttempts: 5, NonRetryableErrorTypes: NonRetryable()}
}

// ActivityOptions returns the default options of a tool's activity, from
// its descriptor: a start-to-close timeout of the tool's timeout (the
// kernel's default when it declares none) plus StartToCloseMargin,
// DefaultHeartbeatTimeout, and RetryPolicy. The task queue is left empty
// (the workflow's own, unless set).
func ActivityOptions(spec tool.Spec) workflow.ActivityOptions {
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = kernel.DefaultTimeout
	}
	return workflow.ActivityOptions{
		StartToCloseTimeout: timeout + StartToCloseMargin,
		HeartbeatTimeout:    DefaultHeartbeatTimeout,
		RetryPolicy:         RetryPolicy(spec),
	}
}

// Options returns the activity options of ctx completed for a tool: each
// timeout ctx leaves unset comes from ActivityOptions, and so does the
// retry policy when ctx has none. A tool that is not Retryable always gets
// a single attempt, whatever ctx says; a retry policy from ctx never
// retries a 613 or 614. The task queue and everything else come from ctx.
func Options(ctx workflow.Context, spec tool.Spec) workflow.ActivityOptions {
	o, d := workflow.GetActivityOptions(ctx), ActivityOptions(spec)
	if o.StartToCloseTimeout == 0 && o.ScheduleToCloseTimeout == 0 {
		o.StartToCloseTimeout = d.StartToCloseTimeout
	}
	if o.HeartbeatTimeout == 0 {
		o.HeartbeatTimeout = d.HeartbeatTimeout
	}
	switch {
	case !Retryable(spec) || o.RetryPolicy == nil:
		o.RetryPolicy = d.RetryPolicy
	default:
		p := *o.RetryPolicy
		p.NonRetryableErrorTypes = slices.Concat(p.NonRetryableErrorTypes, NonRetryable())
		o.RetryPolicy = &p
	}
	return o
}

// Execute runs the tool of spec as an activity from a workflow, with args
// (a generated args struct, or a json.RawMessage of the model's call) and
// Options(ctx, spec), and returns its Result. A command that exited
// non-zero is a Result; a rejected argument is an error for which Code
// returns 614. The stubs of toolgen generate --temporal call it.
func Execute[A any](ctx workflow.Context, spec tool.Spec, args A) (Result, error) {
	ctx = workflow.WithActivityOptions(ctx, Options(ctx, spec))
	var res Result
	err := workflow.ExecuteActivity(ctx, spec.Name, args).Get(ctx, &res)
	return res, err
}
