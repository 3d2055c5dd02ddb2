package temporaltool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"github.com/nanogpt/toolgen/adapters/temporaltool"
	"github.com/nanogpt/toolgen/adapters/temporaltool/internal/testtools"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// The test binary is also the worker process the tests kill: started with
// helperEnv set, TestMain runs a worker (helperWorker) instead of the
// tests. Nothing else enters that mode.
const helperEnv = "TOOLGEN_TEMPORAL_TEST_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperWorker())
	}
	code := m.Run()
	stopServer()
	os.Exit(code)
}

// helperWorker serves testtools on the task queue of the environment in
// the workspace of the environment, against the server of the
// environment, until SIGTERM or SIGKILL.
func helperWorker() int {
	k, err := kernel.New(os.Getenv("TT_WORKSPACE"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tools, err := testtools.Tools(k)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c, err := client.Dial(client.Options{HostPort: os.Getenv("TT_HOSTPORT"), Namespace: os.Getenv("TT_NAMESPACE"),
		Identity: os.Getenv("TT_IDENTITY"), Logger: quiet{}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer c.Close()
	w := worker.New(c, os.Getenv("TT_QUEUE"), workerOptions())
	temporaltool.Register(w, tools)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := w.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	<-ctx.Done()
	w.Stop()
	return 0
}

// workerOptions are the options of every tool worker of the tests: a
// cancellation reaches a running call within about a second.
func workerOptions() worker.Options {
	return worker.Options{MaxHeartbeatThrottleInterval: time.Second, DefaultHeartbeatThrottleInterval: time.Second}
}

// quiet is a logger of the SDK that drops everything: the SDK logs every
// poll error while a worker goes away, which the tests cause on purpose.
type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}

var _ log.Logger = quiet{}

var (
	srvOnce sync.Once
	srv     *temporaltest.TestServer
	srvErr  any
)

// server returns the Temporal server of the test binary: a real
// single-process server (frontend, history, matching and worker services)
// on SQLite in memory, listening on 127.0.0.1 only, started on first use.
// The suite needs about a minute; under -short it is skipped, saying so,
// and make test-all (CI) runs it.
func server(t testing.TB) *temporaltest.TestServer {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a real Temporal server and runs workflows against it (about a minute): skipped under -short; make test-all runs it")
	}
	srvOnce.Do(func() {
		defer func() { srvErr = recover() }()
		start := time.Now()
		srv = temporaltest.NewServer(temporaltest.WithBaseClientOptions(client.Options{Logger: quiet{}}))
		fmt.Fprintf(os.Stderr, "temporal server on %s started in %v\n", srv.GetFrontendHostPort(), time.Since(start).Round(time.Millisecond))
	})
	if srvErr != nil {
		t.Fatalf("starting the Temporal server: %v", srvErr)
	}
	return srv
}

func stopServer() {
	if srv != nil {
		srv.Stop()
	}
}

// queueSeq makes task queue names unique within the test binary.
var queueSeq struct {
	sync.Mutex
	n int
}

// queue returns a task queue name no other test uses.
func queue(t testing.TB, what string) string {
	queueSeq.Lock()
	defer queueSeq.Unlock()
	queueSeq.n++
	return fmt.Sprintf("%s-%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), what, queueSeq.n)
}

// workflowWorker starts an in-process worker on a fresh queue that runs
// the tests' workflows, and returns the queue.
func workflowWorker(t testing.TB, ts *temporaltest.TestServer) string {
	q := queue(t, "wf")
	w := worker.New(ts.GetDefaultClient(), q, worker.Options{})
	w.RegisterWorkflow(StubsWorkflow)
	w.RegisterWorkflow(ByNameWorkflow)
	w.RegisterWorkflow(RoutedWorkflow)
	w.RegisterWorkflow(CancelWorkflow)
	w.RegisterWorkflow(OneCallWorkflow)
	w.RegisterWorkflow(NoopWorkflow)
	require(t, w.Start())
	t.Cleanup(w.Stop)
	return q
}

// toolWorker starts an in-process worker of testtools on queue q, with its
// workspace dir and identity id.
func toolWorker(t testing.TB, ts *temporaltest.TestServer, q, dir, id string, opts ...temporaltool.Option) {
	k, err := kernel.New(dir)
	require(t, err)
	tools, err := testtools.Tools(k)
	require(t, err)
	o := workerOptions()
	o.Identity = id
	w := worker.New(ts.GetDefaultClient(), q, o)
	temporaltool.Register(w, tools, opts...)
	require(t, w.Start())
	t.Cleanup(w.Stop)
}

// helperProcess starts the test binary as a worker process of testtools
// on queue q (helperWorker) and waits until it polls. Cleanup kills it if
// the test has not.
func helperProcess(t testing.TB, ts *temporaltest.TestServer, q, dir, id string) *exec.Cmd {
	exe, err := os.Executable()
	require(t, err)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), helperEnv+"=1", "TT_WORKSPACE="+dir, "TT_HOSTPORT="+ts.GetFrontendHostPort(),
		"TT_NAMESPACE="+ts.GetDefaultNamespace(), "TT_QUEUE="+q, "TT_IDENTITY="+id)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require(t, err)
	require(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil || string(buf) != "ready\n" {
		t.Fatalf("worker process did not start: %q %v", buf, err)
	}
	return cmd
}

// workspace returns a new workspace holding files (name → content).
func workspace(t testing.TB, files map[string]string) string {
	dir := t.TempDir()
	for name, content := range files {
		require(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	return dir
}

// run starts workflow wf with args on queue q and returns its run.
func run(t testing.TB, ts *temporaltest.TestServer, q string, wf any, args ...any) client.WorkflowRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := ts.GetDefaultClient().ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: q,
		WorkflowExecutionTimeout: 2 * time.Minute}, wf, args...)
	require(t, err)
	return r
}

// get waits for the result of r into res (nil: ignored).
func get(t testing.TB, r client.WorkflowRun, res any) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	return r.Get(ctx, res)
}

// history returns the events of r's history.
func history(t testing.TB, ts *temporaltest.TestServer, r client.WorkflowRun) []*historypb.HistoryEvent {
	t.Helper()
	var events []*historypb.HistoryEvent
	it := ts.GetDefaultClient().GetWorkflowHistory(context.Background(), r.GetID(), r.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		require(t, err)
		events = append(events, e)
	}
	return events
}

// attempts returns the attempt and worker identity of every activity task
// that started in r's history.
func attempts(t testing.TB, ts *temporaltest.TestServer, r client.WorkflowRun) (n []int32, ids []string) {
	for _, e := range history(t, ts, r) {
		if a := e.GetActivityTaskStartedEventAttributes(); a != nil {
			n, ids = append(n, a.Attempt), append(ids, a.Identity)
		}
	}
	return n, ids
}

// pendingActivity waits until r has a pending activity in state started
// whose heartbeat details satisfy ok (nil: any), and returns them.
func pendingActivity(t testing.TB, ts *temporaltest.TestServer, r client.WorkflowRun, ok func(*temporaltool.Progress) bool) *temporaltool.Progress {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		d, err := ts.GetDefaultClient().DescribeWorkflowExecution(context.Background(), r.GetID(), r.GetRunID())
		require(t, err)
		for _, pa := range d.PendingActivities {
			if pa.State != enumspb.PENDING_ACTIVITY_STATE_STARTED {
				continue
			}
			var p *temporaltool.Progress
			if pl := pa.HeartbeatDetails.GetPayloads(); len(pl) > 0 {
				p = new(temporaltool.Progress)
				require(t, json.Unmarshal(pl[0].Data, p))
			}
			if ok == nil || ok(p) {
				return p
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no started activity (with the heartbeat details wanted) within 30s")
	return nil
}

// processes returns the pids of the processes whose command line is argv.
func processes(argv ...string) []int {
	want := strings.Join(argv, "\x00") + "\x00"
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		cmdline, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err == nil && string(cmdline) == want {
			var pid int
			fmt.Sscan(filepath.Base(d), &pid)
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitFor polls cond every 20ms until it holds or d passes, and reports
// whether it held.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

func require(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
