// Command toolgen-temporal-worker is the Temporal side of toolgen worker:
// toolgen runs it with the tools it would serve on the other end of its
// stdin and stdout (an MCP session), and it registers each of them as an
// activity (temporaltool.Register over a temporaltool.Remote) on a worker
// polling a task queue of a Temporal server. It lives in the adapter
// module so that toolgen's own module never requires the Temporal SDK.
//
// It is not meant to be run by hand: run toolgen worker, which checks the
// tool flags, assembles the tools exactly as toolgen serve does, runs the
// calls (confinement, audit log) and passes the Temporal flags on.
//
// It exits 1 with a message when the server cannot be reached. On SIGTERM
// or SIGINT it stops polling, lets running activities finish for
// --shutdown-timeout, then cancels them, and exits 0; it also stops when
// its stdin (the tools) closes.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/nanogpt/toolgen/adapters/temporaltool"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// flags are the program's flags, as toolgen worker passes them on.
type flags struct {
	temporal, namespace, taskQueue, identity string
	tls                                      bool
	tlsCA, tlsCert, tlsKey, tlsServerName    string
	apiKeyFile                               string
	maxCalls                                 int
	shutdownTimeout                          time.Duration
}

func parse(args []string, stderr io.Writer) (*flags, error) {
	var f flags
	fs := flag.NewFlagSet("toolgen-temporal-worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.temporal, "temporal", "", "HOST:PORT of the Temporal frontend")
	fs.StringVar(&f.namespace, "namespace", "default", "namespace")
	fs.StringVar(&f.taskQueue, "task-queue", "", "task queue")
	fs.StringVar(&f.identity, "identity", "", "worker identity")
	fs.IntVar(&f.maxCalls, "max-calls", 16, "activities that may run at once")
	fs.DurationVar(&f.shutdownTimeout, "shutdown-timeout", 10*time.Second, "time running activities get on SIGTERM")
	fs.BoolVar(&f.tls, "tls", false, "connect with TLS")
	fs.StringVar(&f.tlsCA, "tls-ca", "", "CA PEM file")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "client certificate PEM file")
	fs.StringVar(&f.tlsKey, "tls-key", "", "client key PEM file")
	fs.StringVar(&f.tlsServerName, "tls-server-name", "", "server name")
	fs.StringVar(&f.apiKeyFile, "api-key-file", "", "API key file")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if f.temporal == "" || f.taskQueue == "" || fs.NArg() > 0 {
		return nil, errors.New("usage: toolgen-temporal-worker --temporal HOST:PORT --task-queue Q [flags] (run by toolgen worker)")
	}
	return &f, nil
}

func run(args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	f, err := parse(args, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen worker: %v\n", err)
		return 2
	}
	opts, err := f.clientOptions()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen worker: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	c, err := client.DialContext(dctx, opts)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen worker: cannot reach the Temporal server at %s (namespace %s): %v\n", f.temporal, f.namespace, err)
		return 1
	}
	defer c.Close()
	remote, err := temporaltool.Connect(ctx, &sdk.IOTransport{Reader: stdin, Writer: stdout})
	if err != nil {
		fmt.Fprintf(stderr, "toolgen worker: %v\n", err)
		return 1
	}
	defer remote.Close()
	tools, err := remote.Tools(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen worker: %v\n", err)
		return 1
	}
	w := worker.New(c, f.taskQueue, worker.Options{
		Identity:                           f.identity,
		MaxConcurrentActivityExecutionSize: f.maxCalls,
		WorkerStopTimeout:                  f.shutdownTimeout,
		// A cancellation reaches a running call within about a second.
		MaxHeartbeatThrottleInterval:     time.Second,
		DefaultHeartbeatThrottleInterval: time.Second,
	})
	temporaltool.Register(w, tools)
	if err := w.Start(); err != nil {
		fmt.Fprintf(stderr, "toolgen worker: %v\n", err)
		return 1
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name()
	}
	fmt.Fprintf(stderr, "toolgen worker: polling task queue %s of %s (namespace %s) with %d tools: %s\n",
		f.taskQueue, f.temporal, f.namespace, len(tools), strings.Join(names, ", "))
	select {
	case <-ctx.Done():
	case <-remote.Done():
		fmt.Fprintf(stderr, "toolgen worker: the tools' session ended; stopping\n")
	}
	w.Stop() // running activities get --shutdown-timeout, then are cancelled
	return 0
}

// clientOptions are the client options of f: host, namespace, identity,
// TLS and API key.
func (f *flags) clientOptions() (client.Options, error) {
	opts := client.Options{HostPort: f.temporal, Namespace: f.namespace, Identity: f.identity, Logger: quiet{}}
	key := strings.TrimSpace(os.Getenv("TEMPORAL_API_KEY"))
	os.Unsetenv("TEMPORAL_API_KEY")
	if f.apiKeyFile != "" {
		data, err := os.ReadFile(f.apiKeyFile)
		if err != nil {
			return opts, fmt.Errorf("--api-key-file: %w", err)
		}
		key = strings.TrimSpace(string(data))
	}
	if key != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(key)
	}
	if !f.tls && key == "" && f.tlsCA == "" && f.tlsCert == "" && f.tlsServerName == "" {
		return opts, nil
	}
	cfg := &tls.Config{ServerName: f.tlsServerName, MinVersion: tls.VersionTLS12}
	if cfg.ServerName == "" {
		cfg.ServerName, _, _ = net.SplitHostPort(f.temporal)
	}
	if f.tlsCA != "" {
		pem, err := os.ReadFile(f.tlsCA)
		if err != nil {
			return opts, fmt.Errorf("--tls-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return opts, fmt.Errorf("--tls-ca %s: no PEM certificate in it", f.tlsCA)
		}
		cfg.RootCAs = pool
	}
	if f.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey)
		if err != nil {
			return opts, fmt.Errorf("--tls-cert/--tls-key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	opts.ConnectionOptions.TLS = cfg
	return opts, nil
}

// quiet drops the SDK's log lines (every poll retry would be one); errors
// that matter are returned and printed.
type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}
