package temporaltool_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/adapters/temporaltool"
	"github.com/nanogpt/toolgen/runtime/audit"
)

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// binaries builds toolgen (of this repository) and toolgen-temporal-worker
// into one directory, once, and returns it: toolgen finds the worker
// program beside itself.
func binaries(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "toolgen-worker-bin")
		if binErr != nil {
			return
		}
		for _, b := range [][2]string{{"../../cmd/toolgen", "toolgen"}, {"./cmd/toolgen-temporal-worker", "toolgen-temporal-worker"}} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, b[1]), b[0]).CombinedOutput()
			if err != nil {
				binErr = &buildError{b[0], out, err}
				return
			}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binDir
}

type buildError struct {
	pkg string
	out []byte
	err error
}

func (e *buildError) Error() string {
	return "go build " + e.pkg + ": " + e.err.Error() + "\n" + string(e.out)
}

// cliWorker starts toolgen worker with args (after --temporal, --namespace
// and --task-queue q) and waits until it polls.
func cliWorker(t *testing.T, hostport, ns, q string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	bin := binaries(t)
	cmd := exec.Command(filepath.Join(bin, "toolgen"), append([]string{"worker", "--temporal", hostport, "--namespace", ns, "--task-queue", q}, args...)...)
	pr, pw, err := os.Pipe()
	require(t, err)
	cmd.Stderr = pw
	require(t, cmd.Start())
	pw.Close()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	var log bytes.Buffer
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sent := false
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if !sent && strings.Contains(sc.Text(), "toolgen worker: polling task queue") {
				ready <- true
				sent = true
			}
		}
		if !sent {
			ready <- false
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			cmd.Wait()
			t.Fatalf("toolgen worker ended before polling: %v", cmd.ProcessState)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("toolgen worker did not start polling within 60s")
	}
	return cmd, &log
}

// toolgen worker serves the tools serve would serve: a workflow calls a
// generated stub on it, the call runs in its workspace and lands in its
// audit log with the idempotency key; on SIGTERM it drains and exits 0,
// and a call still running then is cancelled with its process.
func TestCLIWorker(t *testing.T) {
	ts := server(t)
	wf := workflowWorker(t, ts)
	q := queue(t, "cli")
	dir := workspace(t, map[string]string{"a.txt": "1\n2\n"})
	logPath := filepath.Join(t.TempDir(), "audit.log")
	cmd, stderr := cliWorker(t, ts.GetFrontendHostPort(), ts.GetDefaultNamespace(), q,
		"--tools", filepath.Join("internal", "testtools"), "--workspace", dir, "--audit", logPath, "--shutdown-timeout", "1s")

	var res temporaltool.Result
	r := run(t, ts, wf, StubsWorkflow, q, "a.txt")
	require(t, get(t, r, &res))
	if res.ExitCode != 0 || strings.TrimSpace(res.Output) != "2 a.txt" {
		t.Errorf("result %+v, want 2 a.txt\n%s", res, stderr)
	}
	r614 := run(t, ts, wf, StubsWorkflow, q, "../out")
	if err := get(t, r614, nil); temporaltool.Code(err) != 614 {
		t.Errorf("err = %v, want a 614", err)
	}
	data, err := os.ReadFile(logPath)
	require(t, err)
	var rec audit.Record
	require(t, json.Unmarshal(bytes.SplitN(data, []byte("\n"), 2)[0], &rec))
	if rec.Tool != "count_lines" || !strings.HasPrefix(rec.Key, r.GetID()+"/"+r.GetRunID()+"/") {
		t.Errorf("audit record %+v, want count_lines with the key of %s/%s", rec, r.GetID(), r.GetRunID())
	}

	long := run(t, ts, wf, CancelWorkflow, q, "", 62.75)
	if !waitFor(30*time.Second, func() bool { return len(processes("sleep", "62.75")) > 0 }) {
		t.Fatalf("the long call did not start\n%s", stderr)
	}
	start := time.Now()
	require(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("toolgen worker after SIGTERM: %v\n%s", err, stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("toolgen worker still running 20s after SIGTERM\n%s", stderr)
	}
	if pids := processes("sleep", "62.75"); len(pids) > 0 {
		t.Errorf("the running call's process outlived the worker: %v", pids)
	}
	t.Logf("drained and exited %v after SIGTERM", time.Since(start).Round(10*time.Millisecond))
	ts.GetDefaultClient().TerminateWorkflow(context.Background(), long.GetID(), long.GetRunID(), "test over")
}

// A server that cannot be reached: a clear error and exit 1.
func TestCLIWorkerUnreachable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds toolgen and toolgen-temporal-worker: skipped under -short; make test-all runs it")
	}
	bin := binaries(t)
	cmd := exec.Command(filepath.Join(bin, "toolgen"), "worker", "--temporal", "127.0.0.1:1", "--task-queue", "q", "--workspace", t.TempDir())
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("exit %v (%v), want 1\n%s", cmd.ProcessState, err, out)
	}
	if !strings.Contains(string(out), "toolgen worker: cannot reach the Temporal server at 127.0.0.1:1") {
		t.Errorf("output does not say the server cannot be reached:\n%s", out)
	}
}
