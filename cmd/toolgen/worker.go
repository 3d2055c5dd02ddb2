package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/nanogpt/toolgen/runtime/mcp"
)

var workerCmd = &command{
	name:    "worker",
	summary: "Serve the tools as Temporal activities: a worker polling a task queue of a Temporal server.",
	usage: "--temporal HOST:PORT --task-queue Q [--namespace NS] " + toolFlagsUsage + " " + runFlagsUsage + "\n\t" +
		"[--max-calls N] [--shutdown-timeout DUR] [--identity NAME]\n\t" +
		"[--tls] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE] [--tls-server-name NAME] [--api-key-file FILE]\n\t" +
		"[--audit FILE [--audit-redact SLOT,...] [--audit-max-size SIZE] [--audit-keep N]]",
	run: runWorker,
}

// workerHelp follows the flags in "toolgen worker -h".
const workerHelp = `
Each tool serve would serve (the same flags give the same tools, the same
confinement and the same audit log) becomes an activity named after it:
its input is the tool's JSON arguments, its result exit_code, output,
truncated, timed_out and limit_reason. A rejected argument is a
non-retryable error of type ToolgenError614. Workflows call the tools with
the stubs of toolgen generate --temporal. See docs/scale.md.

The Temporal SDK is not part of toolgen (its module never requires it):
the worker's connection to Temporal is the program toolgen-temporal-worker,
which toolgen runs beside itself and serves the tools to over a pipe (MCP),
as serve would. Install it next to toolgen with
  go install github.com/nanogpt/toolgen/adapters/temporaltool/cmd/toolgen-temporal-worker@latest
toolgen looks for it in $TOOLGEN_TEMPORAL_WORKER, then beside its own
executable, then in $PATH.

A server that cannot be reached is an error (exit 1). On SIGTERM or SIGINT
the worker stops polling, lets running calls finish for --shutdown-timeout,
then cancels them (their process groups are killed) and exits.
The API key comes from --api-key-file FILE or $TEMPORAL_API_KEY.
`

// workerEnv names the program toolgen-temporal-worker explicitly.
const workerEnv = "TOOLGEN_TEMPORAL_WORKER"

// workerProgram is the name of the Temporal side of toolgen worker.
const workerProgram = "toolgen-temporal-worker"

// workerFlags are worker's own flags, beside the shared toolFlags and the
// audit flags of serve.
type workerFlags struct {
	temporal, namespace, taskQueue, identity string
	tls                                      bool
	tlsCA, tlsCert, tlsKey, tlsServerName    string
	apiKeyFile                               string
	maxCalls                                 int
	shutdownTimeout                          time.Duration
}

func runWorker(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	var sf serveFlags
	var wf workerFlags
	fs := c.newFlagSet(env)
	f.register(fs, true)
	wf.register(fs)
	sf.registerAudit(fs)
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), workerHelp) }
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return unexpectedArg(c, env, pos[0], "worker takes flags only")
	}
	if err := f.checkRunFlags(); err != nil {
		return c.usageErr(env, "%v", err)
	}
	if err := wf.check(); err != nil {
		return c.usageErr(env, "%v", err)
	}
	if err := sf.checkAudit(); err != nil {
		return c.usageErr(env, "%v", err)
	}
	bin, err := findWorkerProgram()
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen worker: %v\n", err)
		return exitFailure
	}
	p, code := assemble(c, env, &f)
	if p == nil {
		return code
	}
	logger := slog.New(slog.NewTextHandler(env.stderr, nil)).With("cmd", "toolgen worker")
	opts := []mcp.Option{mcp.WithLogger(logger), mcp.WithImplementation("toolgen", moduleVersion()),
		mcp.WithMaxConcurrentCalls(wf.maxCalls)}
	auditOpts, closeAudit, err := sf.auditOptions(c, env, &f)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen worker: %v\n", err)
		return exitFailure
	}
	defer closeAudit()
	srv, err := mcp.New(p.Registry, append(opts, auditOpts...)...)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen worker: %v\n", err)
		return exitFailure
	}
	return runWorkerProgram(env, srv, bin, wf.args())
}

// register adds worker's own flags to fs.
func (wf *workerFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&wf.temporal, "temporal", "", "`HOST:PORT` of the Temporal server's frontend (required)")
	fs.StringVar(&wf.namespace, "namespace", "default", "Temporal `NS` to poll in")
	fs.StringVar(&wf.taskQueue, "task-queue", "", "task queue `Q` to poll: workflows send a call here to run it in this worker's workspace (required)")
	fs.StringVar(&wf.identity, "identity", "", "worker `NAME` shown in Temporal's history (default: the SDK's, pid@host)")
	fs.IntVar(&wf.maxCalls, "max-calls", mcp.DefaultMaxConcurrentCalls, "calls that may run at once")
	fs.DurationVar(&wf.shutdownTimeout, "shutdown-timeout", 10*time.Second, "on SIGTERM, how long running calls may finish before they are cancelled")
	fs.BoolVar(&wf.tls, "tls", false, "connect with TLS (implied by the other --tls flags and by an API key)")
	fs.StringVar(&wf.tlsCA, "tls-ca", "", "PEM `FILE` of the CA that signs the server's certificate (default: the system's)")
	fs.StringVar(&wf.tlsCert, "tls-cert", "", "PEM `FILE` of the client certificate (mTLS; with --tls-key)")
	fs.StringVar(&wf.tlsKey, "tls-key", "", "PEM `FILE` of the client certificate's key")
	fs.StringVar(&wf.tlsServerName, "tls-server-name", "", "`NAME` the server's certificate must hold (default: the host of --temporal)")
	fs.StringVar(&wf.apiKeyFile, "api-key-file", "", "read the API key (Temporal Cloud) from `FILE` (default: $TEMPORAL_API_KEY)")
}

// check returns the usage error of worker's own flags, if any.
func (wf *workerFlags) check() error {
	switch {
	case wf.temporal == "":
		return errors.New("--temporal HOST:PORT is required: the frontend of the Temporal server, such as localhost:7233")
	case wf.taskQueue == "":
		return errors.New("--task-queue Q is required: the queue workflows send this workspace's calls to")
	case wf.namespace == "":
		return errors.New("--namespace wants a name")
	case wf.maxCalls <= 0:
		return errors.New("--max-calls wants a positive number")
	case wf.shutdownTimeout < 0:
		return errors.New("--shutdown-timeout wants a duration of zero or more")
	case (wf.tlsCert == "") != (wf.tlsKey == ""):
		return errors.New("--tls-cert and --tls-key go together")
	}
	if _, _, err := net.SplitHostPort(wf.temporal); err != nil {
		return fmt.Errorf("--temporal %s: want HOST:PORT, such as localhost:7233 (%v)", wf.temporal, err)
	}
	for _, file := range []string{wf.tlsCA, wf.tlsCert, wf.tlsKey, wf.apiKeyFile} {
		if file == "" {
			continue
		}
		if st, err := os.Stat(file); err != nil || !st.Mode().IsRegular() {
			return fmt.Errorf("%s: want a readable file", file)
		}
	}
	return nil
}

// args are the arguments of toolgen-temporal-worker for wf.
func (wf *workerFlags) args() []string {
	a := []string{"--temporal", wf.temporal, "--namespace", wf.namespace, "--task-queue", wf.taskQueue,
		"--max-calls", strconv.Itoa(wf.maxCalls), "--shutdown-timeout", wf.shutdownTimeout.String()}
	for _, kv := range [][2]string{{"identity", wf.identity}, {"tls-ca", wf.tlsCA}, {"tls-cert", wf.tlsCert},
		{"tls-key", wf.tlsKey}, {"tls-server-name", wf.tlsServerName}, {"api-key-file", wf.apiKeyFile}} {
		if kv[1] != "" {
			a = append(a, "--"+kv[0], kv[1])
		}
	}
	if wf.tls {
		a = append(a, "--tls")
	}
	return a
}

// findWorkerProgram returns the path of toolgen-temporal-worker: from
// $TOOLGEN_TEMPORAL_WORKER, beside toolgen's own executable, or in $PATH.
func findWorkerProgram() (string, error) {
	if p := os.Getenv(workerEnv); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("$%s=%s: no such program", workerEnv, p)
		}
		return p, nil
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), workerProgram)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(workerProgram); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s not found (beside toolgen, in $PATH or in $%s): it is the worker's connection to Temporal, "+
		"kept out of toolgen so that toolgen's module never requires the Temporal SDK; install it with\n"+
		"  go install github.com/nanogpt/toolgen/adapters/temporaltool/cmd/%s@latest", workerProgram, workerEnv, workerProgram)
}

// runWorkerProgram runs toolgen-temporal-worker (bin) with args and serves
// srv to it over its stdin and stdout until it exits. SIGTERM and SIGINT
// are passed on to it: it stops polling and drains. When it exits, the
// session ends and every call still running is cancelled (its process
// group killed) before runWorkerProgram returns: nothing is left running.
func runWorkerProgram(env *cmdEnv, srv *mcp.Server, bin string, args []string) int {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = env.stderr
	cmd.SysProcAttr = workerProcAttr() // dies with toolgen (Linux)
	toChild, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen worker: %v\n", err)
		return exitFailure
	}
	fromChild, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen worker: %v\n", err)
		return exitFailure
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(env.stderr, "toolgen worker: starting %s: %v\n", bin, err)
		return exitFailure
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), fromChild, toChild) }()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var waitErr error
	for done := false; !done; {
		select {
		case s := <-sigs:
			cmd.Process.Signal(s)
		case waitErr = <-exited:
			done = true
		}
	}
	toChild.Close()
	if err := <-served; err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(env.stderr, "toolgen worker: %v\n", err)
	}
	if waitErr != nil {
		return exitFailure
	}
	return exitOK
}
