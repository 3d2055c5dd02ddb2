package temporaltool_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/nanogpt/toolgen/adapters/temporaltool"
	"github.com/nanogpt/toolgen/adapters/temporaltool/internal/testtools"
	"github.com/nanogpt/toolgen/runtime/audit"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// A workflow calls a generated stub, and a tool by name with the model's
// JSON: both run on the tool worker, in its workspace; a command that
// exits non-zero is a result.
func TestStubAndByName(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	q := queue(t, "tools")
	toolWorker(t, ts, q, workspace(t, map[string]string{"a.txt": "1\n2\n3\n"}), "w1")

	var res temporaltool.Result
	require(t, get(t, run(t, ts, wf, StubsWorkflow, q, "a.txt"), &res))
	if res.ExitCode != 0 || strings.TrimSpace(res.Output) != "3 a.txt" || res.Truncated || res.TimedOut {
		t.Errorf("stub: %+v, want exit 0 and output 3 a.txt", res)
	}
	require(t, get(t, run(t, ts, wf, ByNameWorkflow, q, "count_lines", json.RawMessage(`{"path":"a.txt"}`)), &res))
	if res.ExitCode != 0 || strings.TrimSpace(res.Output) != "3 a.txt" {
		t.Errorf("by name: %+v, want exit 0 and output 3 a.txt", res)
	}
	require(t, get(t, run(t, ts, wf, StubsWorkflow, q, "missing.txt"), &res))
	if res.ExitCode != 1 || !strings.Contains(res.Output, "missing.txt") {
		t.Errorf("a command that fails is a result: %+v, want exit 1 naming missing.txt", res)
	}
}

// Two workers on two task queues, each with its own workspace: one
// workflow routes a call to each, and each runs where its queue says.
func TestTwoQueuesTwoWorkspaces(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	qa, qb := queue(t, "a"), queue(t, "b")
	toolWorker(t, ts, qa, workspace(t, map[string]string{"only-a.txt": "a\n"}), "wa")
	toolWorker(t, ts, qb, workspace(t, map[string]string{"only-b.txt": "b\nb\n"}), "wb")

	var res []temporaltool.Result
	require(t, get(t, run(t, ts, wf, RoutedWorkflow, []string{qa, qb, qb}, []string{"only-a.txt", "only-b.txt", "only-a.txt"}), &res))
	if len(res) != 3 {
		t.Fatalf("results: %+v", res)
	}
	if strings.TrimSpace(res[0].Output) != "1 only-a.txt" || strings.TrimSpace(res[1].Output) != "2 only-b.txt" {
		t.Errorf("each call ran in its queue's workspace: %+v", res)
	}
	if res[2].ExitCode == 0 {
		t.Errorf("only-a.txt is not in b's workspace, yet the call on b found it: %+v", res[2])
	}
}

// A rejected argument is a non-retryable error of type ErrorType614 with
// the model's text, tried once only.
func TestRejectedNotRetried(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	q := queue(t, "tools")
	toolWorker(t, ts, q, workspace(t, nil), "w1")

	r := run(t, ts, wf, StubsWorkflow, q, "../outside")
	err := get(t, r, nil)
	if temporaltool.Code(err) != tool.CodeValue || !strings.Contains(err.Error(), "error 614: slot \"path\"") {
		t.Fatalf("err = %v, want a 614 naming the slot", err)
	}
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || !app.NonRetryable() || app.Type() != temporaltool.ErrorType614 {
		t.Errorf("err = %#v, want a non-retryable ApplicationError of type %s", app, temporaltool.ErrorType614)
	}
	if n, _ := attempts(t, ts, r); len(n) != 1 || n[0] != 1 {
		t.Errorf("attempts %v, want one", n)
	}
}

// A long call cancelled from the workflow: its process is gone within a
// few seconds of the cancellation (a heartbeat of at most a second brings
// it to the worker; the kernel then kills the process group).
func TestCancelKillsTheCall(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	q := queue(t, "tools")
	toolWorker(t, ts, q, workspace(t, nil), "w1")

	r := run(t, ts, wf, CancelWorkflow, q, "", 61.25)
	if !waitFor(30*time.Second, func() bool { return len(processes("sleep", "61.25")) > 0 }) {
		t.Fatal("the call's process did not start")
	}
	start := time.Now()
	require(t, ts.GetDefaultClient().SignalWorkflow(context.Background(), r.GetID(), r.GetRunID(), "cancel", nil))
	err := get(t, r, nil)
	var canceled *temporal.CanceledError
	if !errors.As(err, &canceled) {
		t.Errorf("the workflow's call ended with %v, want a CanceledError", err)
	}
	if !waitFor(5*time.Second, func() bool { return len(processes("sleep", "61.25")) == 0 }) {
		t.Fatalf("the cancelled call's process is still running: %v", processes("sleep", "61.25"))
	}
	t.Logf("process gone %v after the cancel signal", time.Since(start).Round(10*time.Millisecond))
}

// While a call runs, its heartbeats carry its progress: bytes and lines of
// output so far and the last lines.
func TestHeartbeatDetails(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	q := queue(t, "tools")
	toolWorker(t, ts, q, workspace(t, nil), "w1")

	r := run(t, ts, wf, CancelWorkflow, q, "heartbeat-word", 0.0)
	p := pendingActivity(t, ts, r, func(p *temporaltool.Progress) bool { return p != nil && p.Bytes > 0 })
	if p.Lines == 0 || !strings.Contains(p.Tail, "heartbeat-word\n") || p.ElapsedMS <= 0 {
		t.Errorf("heartbeat details %+v, want lines, elapsed time and the last lines of output", p)
	}
	require(t, ts.GetDefaultClient().SignalWorkflow(context.Background(), r.GetID(), r.GetRunID(), "cancel", nil))
	get(t, r, nil)
	if !waitFor(5*time.Second, func() bool { return len(processes("yes", "heartbeat-word")) == 0 }) {
		t.Fatalf("the cancelled call's process is still running")
	}
}

// A worker killed in the middle of a read-only call: the heartbeat timeout
// notices, and the call is tried again on another worker and completes.
func TestWorkerLostReadRetried(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	q := queue(t, "tools")
	dir := workspace(t, nil)
	first := helperProcess(t, ts, q, dir, "doomed")

	r := run(t, ts, wf, OneCallWorkflow, q, "wait_read", 2.5, 2*time.Second)
	pendingActivity(t, ts, r, nil)
	require(t, first.Process.Signal(syscall.SIGKILL))
	first.Wait()
	toolWorker(t, ts, q, dir, "survivor")

	var res temporaltool.Result
	require(t, get(t, r, &res))
	if res.ExitCode != 0 {
		t.Errorf("result %+v, want exit 0", res)
	}
	n, ids := attempts(t, ts, r)
	if len(n) != 1 || n[0] != 2 || ids[0] != "survivor" {
		t.Errorf("completed attempt %v by %v, want attempt 2 by the survivor", n, ids)
	}
}

// A worker killed in the middle of a call that writes: never retried; the
// workflow gets the heartbeat timeout after one attempt.
func TestWorkerLostWriteNotRetried(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	q := queue(t, "tools")
	dir := workspace(t, nil)
	first := helperProcess(t, ts, q, dir, "doomed")

	r := run(t, ts, wf, OneCallWorkflow, q, "wait_write", 2.5, 2*time.Second)
	pendingActivity(t, ts, r, nil)
	require(t, first.Process.Signal(syscall.SIGKILL))
	first.Wait()
	toolWorker(t, ts, q, dir, "survivor")

	err := get(t, r, nil)
	var to *temporal.TimeoutError
	if !errors.As(err, &to) {
		t.Fatalf("err = %v, want the activity's heartbeat timeout", err)
	}
	n, ids := attempts(t, ts, r)
	if len(n) != 1 || n[0] != 1 || ids[0] == "survivor" {
		t.Errorf("attempts %v by %v, want the first only, never the survivor's", n, ids)
	}
}

// Each call is recorded in the audit log with transport temporal and its
// idempotency key WORKFLOW_ID/RUN_ID/ACTIVITY_ID.
func TestAuditKey(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	q := queue(t, "tools")
	dir := workspace(t, map[string]string{"a.txt": "x\n"})
	logPath := filepath.Join(t.TempDir(), "audit.log")
	l, err := audit.Open(logPath, audit.Options{})
	require(t, err)
	t.Cleanup(func() { l.Close() })
	a := audit.New(l)
	k, err := kernel.New(dir)
	require(t, err)
	tools, err := testtools.Tools(k)
	require(t, err)
	for i, tl := range tools {
		tools[i] = a.Wrap(tl, tool.FormGenerated)
	}
	w := worker.New(ts.GetDefaultClient(), q, workerOptions())
	temporaltool.Register(w, tools)
	require(t, w.Start())
	t.Cleanup(w.Stop)

	r := run(t, ts, wf, StubsWorkflow, q, "a.txt")
	require(t, get(t, r, nil))
	f, err := os.Open(logPath)
	require(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	var rec audit.Record
	for sc.Scan() {
		require(t, json.Unmarshal(sc.Bytes(), &rec))
	}
	if rec.Tool != "count_lines" || rec.Transport != "temporal" || rec.Session != q {
		t.Errorf("record %+v, want count_lines over temporal from queue %s", rec, q)
	}
	if want := r.GetID() + "/" + r.GetRunID() + "/"; !strings.HasPrefix(rec.Key, want) || len(rec.Key) == len(want) {
		t.Errorf("key %q, want %sACTIVITY_ID", rec.Key, want)
	}
}
