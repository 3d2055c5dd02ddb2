package temporaltool_test

import (
	"context"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"

	"github.com/nanogpt/toolgen/adapters/temporaltool"
	"github.com/nanogpt/toolgen/adapters/temporaltool/internal/testtools"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// BenchmarkRoundTrip measures one activity's round trip from a workflow on
// the real server (schedule, poll, run, complete, the workflow task that
// follows): a tool activity (count_lines: wc -l on a small file, through
// the kernel) against a no-op activity on the same server and worker, its
// baseline. One op is one activity; a workflow runs b.N of them in turn.
func BenchmarkRoundTrip(b *testing.B) {
	ts := server(b)
	wf := workflowWorker(b, ts)
	q := queue(b, "bench")
	k, err := kernel.New(workspace(b, map[string]string{"a.txt": "1\n2\n3\n"}))
	require(b, err)
	tools, err := testtools.Tools(k)
	require(b, err)
	w := worker.New(ts.GetDefaultClient(), q, workerOptions())
	temporaltool.Register(w, tools)
	w.RegisterActivityWithOptions(func(context.Context) error { return nil }, activity.RegisterOptions{Name: "noop"})
	require(b, w.Start())
	b.Cleanup(w.Stop)
	for _, c := range []struct{ name, path string }{{"noop", ""}, {"tool", "a.txt"}} {
		b.Run(c.name, func(b *testing.B) {
			b.ResetTimer()
			require(b, get(b, run(b, ts, wf, NoopWorkflow, q, c.path, b.N), nil))
		})
	}
}
