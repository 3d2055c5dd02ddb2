package temporaltool_test

import (
	"encoding/json"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/nanogpt/toolgen/adapters/temporaltool"
	"github.com/nanogpt/toolgen/adapters/temporaltool/internal/testtools"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// StubsWorkflow counts the lines of path through the generated stub, on
// the tools' task queue q.
func StubsWorkflow(ctx workflow.Context, q, path string) (temporaltool.Result, error) {
	ctx = workflow.WithTaskQueue(ctx, q)
	return testtools.ExecuteCountLines(ctx, testtools.CountLinesArgs{Path: path})
}

// ByNameWorkflow calls the tool name with the model's JSON arguments, by
// the activity's name, with the options of its descriptor.
func ByNameWorkflow(ctx workflow.Context, q, name string, args json.RawMessage) (temporaltool.Result, error) {
	tools := map[string]func() tool.Spec{"count_lines": testtools.CountLinesSpec}
	opts := temporaltool.ActivityOptions(tools[name]())
	opts.TaskQueue = q
	var res temporaltool.Result
	err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), name, args).Get(ctx, &res)
	return res, err
}

// RoutedWorkflow counts the lines of paths[i] on queues[i], one call per
// queue, and returns the outputs in order.
func RoutedWorkflow(ctx workflow.Context, queues, paths []string) ([]temporaltool.Result, error) {
	var out []temporaltool.Result
	for i, q := range queues {
		res, err := testtools.ExecuteCountLines(workflow.WithTaskQueue(ctx, q), testtools.CountLinesArgs{Path: paths[i]})
		if err != nil {
			return out, err
		}
		out = append(out, res)
	}
	return out, nil
}

// CancelWorkflow starts repeat_word (word) or wait_read (seconds) on q,
// waits for the signal "cancel", cancels the call and waits until it has
// ended; it returns the call's error.
func CancelWorkflow(ctx workflow.Context, q, word string, seconds float64) error {
	cctx, cancel := workflow.WithCancel(workflow.WithTaskQueue(ctx, q))
	cctx = workflow.WithActivityOptions(cctx, workflow.ActivityOptions{TaskQueue: q, WaitForCancellation: true,
		HeartbeatTimeout: 5 * time.Second})
	var f workflow.Future
	if word != "" {
		f = workflow.ExecuteActivity(workflow.WithActivityOptions(cctx, temporaltool.Options(cctx, testtools.RepeatWordSpec())),
			"repeat_word", testtools.RepeatWordArgs{Word: word})
	} else {
		f = workflow.ExecuteActivity(workflow.WithActivityOptions(cctx, temporaltool.Options(cctx, testtools.WaitReadSpec())),
			"wait_read", testtools.WaitReadArgs{Seconds: seconds})
	}
	workflow.GetSignalChannel(ctx, "cancel").Receive(ctx, nil)
	cancel()
	return f.Get(ctx, nil)
}

// OneCallWorkflow runs wait_read or wait_write (by name) for seconds on q
// through its stub, with a heartbeat timeout of hb, and returns its result.
func OneCallWorkflow(ctx workflow.Context, q, name string, seconds float64, hb time.Duration) (temporaltool.Result, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{TaskQueue: q, HeartbeatTimeout: hb})
	if name == "wait_write" {
		return testtools.ExecuteWaitWrite(ctx, testtools.WaitWriteArgs{Seconds: seconds})
	}
	return testtools.ExecuteWaitRead(ctx, testtools.WaitReadArgs{Seconds: seconds})
}

// NoopWorkflow runs the activity "noop" on q n times, or count_lines of
// path when path is not "": the benchmark's two round trips.
func NoopWorkflow(ctx workflow.Context, q, path string, n int) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{TaskQueue: q, StartToCloseTimeout: time.Minute})
	for range n {
		var err error
		if path == "" {
			err = workflow.ExecuteActivity(ctx, "noop").Get(ctx, nil)
		} else {
			_, err = testtools.ExecuteCountLines(ctx, testtools.CountLinesArgs{Path: path})
		}
		if err != nil {
			return err
		}
	}
	return nil
}
