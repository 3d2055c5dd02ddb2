package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/audit"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/mcp/serving"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var serveCmd = &command{
	name:    "serve",
	summary: "Serve the tools to an MCP client over stdio (stdout is the protocol; logs go to stderr), or over Streamable HTTP with --http.",
	usage: toolFlagsUsage + " " + runFlagsUsage + " [--watch] [--max-calls N]\n\t" +
		"[--http ADDR [--token-file FILE | --no-token] [--stateless] [--allow-origin ORIGIN,...] [--max-sessions N] [--session-timeout DUR] [--shutdown-timeout DUR]]\n\t" +
		"[--audit FILE [--audit-redact SLOT,...] [--audit-max-size SIZE] [--audit-keep N]]",
	run: runServe,
}

// serveHelp follows the flags in "toolgen serve -h".
const serveHelp = `
The server runs until its input ends (the client closes it) or it gets
SIGINT/SIGTERM; running commands are then killed with their process groups.
A client config (e.g. Claude Desktop's mcpServers) runs it as:
  {"command": "toolgen", "args": ["serve", "--tools", "/abs/path/tools", "--workspace", "/abs/path", "--watch"]}

With --http ADDR it serves MCP Streamable HTTP at http://ADDR/mcp instead.
The bearer token comes from --token-file FILE or the environment variable
TOOLGEN_TOKEN (never from a flag, which ps would show). Given neither, a
loopback ADDR gets a generated token, written (mode 0600) to a file in
$XDG_RUNTIME_DIR/toolgen/ (else the user's config directory, else a 0700
directory in the temporary directory) whose path is printed on stderr; the
file is removed at exit. A non-loopback ADDR without a token is a usage
error. --no-token serves a loopback ADDR without one, to every local
account. --http unix:PATH serves on a Unix socket of mode 0600 (only this
user can connect; no token needed); an existing socket no server answers on
is replaced, any other file at PATH is refused. On SIGTERM it stops taking
calls (503), lets the running ones finish for --shutdown-timeout, then kills
them and exits.

With --audit FILE (or - for stderr) every call is appended to FILE as one
JSON line before its result is returned; if the line cannot be written the
call is refused. When FILE is deleted, renamed or replaced while serving,
it is opened again (a line says so); each line carries the digest of the
one before. Summarise a log with "toolgen audit FILE", check its chain with
"toolgen audit --verify FILE".
`

// tokenEnv is the environment variable holding the HTTP bearer token.
const tokenEnv = "TOOLGEN_TOKEN"

// serveFlags are serve's own flags, beside the shared toolFlags.
type serveFlags struct {
	httpAddr        string
	tokenFile       string
	noToken         bool
	stateless       bool
	maxSessions     int
	sessionTimeout  time.Duration
	shutdownTimeout time.Duration
	allowOrigins    string
	auditFile       string
	auditRedact     string
	auditMaxSize    sizeFlag // parseSize, as --memory-limit
	auditKeep       int
	maxCalls        int
	token           string // the bearer token, read by checkHTTP
}

func runServe(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	var sf serveFlags
	fs := c.newFlagSet(env)
	f.register(fs, true)
	sf.register(fs, &f)
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), serveHelp) }
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return unexpectedArg(c, env, pos[0], "serve speaks MCP on stdin/stdout, or over HTTP with --http")
	}
	if err := sf.check(fs, &f); err != nil {
		return c.usageErr(env, "%v", err)
	}
	if err := sf.checkHTTP(env, &f); err != nil {
		return c.usageErr(env, "%v", err)
	}

	// The server is a small process of toolgen's own, not the agent (the
	// agent is its client): it forks its calls itself, as call does,
	// which spares each call the hand-off to a spawner process and back.
	// Its heap stays small (outputs are bounded), and a leader is started
	// as a vfork, so a call's cost does not grow with it either way.
	kernel.ForkFromThisProcess()
	// The spawner thread (and an ordinary user's noexec holder) are made
	// while the preset is assembled and the client connects, not at the
	// first call.
	var kopts []kernel.Option
	if f.processLimit.set {
		kopts = append(kopts, kernel.WithProcessLimit(f.processLimit.n))
	}
	kernel.Prepare(kopts...)
	kernel.PrepareWorkspace(f.workspace)
	p, code := assemble(c, env, &f)
	if p == nil {
		return code
	}
	serveGCPercent()
	logger := slog.New(slog.NewTextHandler(env.stderr, nil)).With("cmd", "toolgen serve")
	srv, closeAudit, err := newServeServer(c, env, p, &f, &sf, logger)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen serve: %v\n", err)
		return exitFailure
	}
	defer closeAudit()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A client that goes away while a response is being written must not
	// kill toolgen with SIGPIPE (fd 1 is special in Go): that would leave
	// running commands behind. Notified, the write fails with EPIPE instead
	// and the session ends the normal way, killing them.
	sigpipe := make(chan os.Signal, 1)
	signal.Notify(sigpipe, syscall.SIGPIPE)
	defer signal.Stop(sigpipe)
	if f.watch {
		defer watchDescriptors(ctx, p, srv, logger, f.toolsDir())()
	}
	if sf.httpAddr != "" {
		return serveHTTP(ctx, env, srv, sf)
	}
	if err := srv.Serve(ctx, serveInput(0, os.Stdin), env.stdout); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(env.stderr, "toolgen serve: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// register adds serve's own flags to fs, and --watch to f.
func (sf *serveFlags) register(fs *flag.FlagSet, f *toolFlags) {
	fs.BoolVar(&f.watch, "watch", false, "reload the descriptors when files in the tools directory change, and tell the client (tools/list_changed)")
	fs.StringVar(&sf.httpAddr, "http", "", "serve MCP Streamable HTTP at http://`ADDR`/mcp (host:port, or unix:PATH for a Unix socket of mode 0600) instead of stdio")
	fs.StringVar(&sf.tokenFile, "token-file", "", "read the HTTP bearer token from `FILE` (default: $"+tokenEnv+"; none: a generated one, loopback only)")
	fs.BoolVar(&sf.noToken, "no-token", false, "HTTP on a loopback host:port without a bearer token: every local account can call the tools (default: a generated token)")
	fs.BoolVar(&sf.stateless, "stateless", false, "HTTP: no server-side sessions, so replicas behind any load balancer serve one fleet (no list_changed)")
	fs.IntVar(&sf.maxCalls, "max-calls", mcp.DefaultMaxConcurrentCalls, "calls that may run at once (all sessions together); more wait for a free slot")
	fs.IntVar(&sf.maxSessions, "max-sessions", mcp.DefaultMaxSessions, "HTTP: sessions open at once; more get 503")
	fs.DurationVar(&sf.sessionTimeout, "session-timeout", mcp.DefaultSessionTimeout, "HTTP: close a session idle for this long")
	fs.DurationVar(&sf.shutdownTimeout, "shutdown-timeout", serving.DefaultShutdownTimeout, "on SIGTERM, how long running calls may finish before they are killed")
	fs.StringVar(&sf.allowOrigins, "allow-origin", "", "HTTP: comma-separated browser origins (scheme://host:port) allowed besides the server's own")
	sf.registerAudit(fs)
}

// check reports a usage error in the parsed flags other than the token.
func (sf *serveFlags) check(fs *flag.FlagSet, f *toolFlags) error {
	if err := f.checkRunFlags(); err != nil {
		return err
	}
	if f.watch && f.toolsDir() == "" {
		return errors.New("--watch needs a descriptor directory: --tools DIR, or ./tools")
	}
	if sf.httpAddr == "" {
		for _, name := range []string{"token-file", "no-token", "stateless", "allow-origin", "max-sessions", "session-timeout"} {
			if flagSet(fs, name) {
				return fmt.Errorf("--%s needs --http ADDR", name)
			}
		}
	}
	if sf.maxCalls <= 0 || sf.maxSessions <= 0 || sf.auditKeep <= 0 {
		return errors.New("--max-calls, --max-sessions and --audit-keep want a positive number")
	}
	return sf.checkAudit()
}

// newServeServer makes the MCP server of serve's flags, with the audit log
// when --audit asks for one; closeAudit closes that log.
func newServeServer(c *command, env *cmdEnv, p *preset.Preset, f *toolFlags, sf *serveFlags, logger *slog.Logger) (srv *mcp.Server, closeAudit func(), err error) {
	opts := []mcp.Option{mcp.WithLogger(logger), mcp.WithImplementation("toolgen", moduleVersion()),
		mcp.WithMaxConcurrentCalls(sf.maxCalls)}
	auditOpts, closeAudit, err := sf.auditOptions(c, env, f)
	if err != nil {
		return nil, nil, err
	}
	if srv, err = mcp.New(p.Registry, append(opts, auditOpts...)...); err != nil {
		closeAudit()
		return nil, nil, err
	}
	return srv, closeAudit, nil
}

// flagSet reports whether the flag name was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			found = true
		}
	})
	return found
}

// registerAudit registers the audit flags (serve's and worker's).
func (sf *serveFlags) registerAudit(fs *flag.FlagSet) {
	fs.StringVar(&sf.auditFile, "audit", "", "append one JSON line per call to `FILE` (- for stderr) before returning its result; a call that cannot be recorded is refused")
	fs.StringVar(&sf.auditRedact, "audit-redact", "", "comma-separated `SLOT`s whose values the audit log replaces with \"[redacted]\"")
	fs.Var(&sf.auditMaxSize, "audit-max-size", "rotate the audit file before it grows past `SIZE`, such as 64MiB, 64M or 100MB (at least 4KiB; 0 or none: never)")
	fs.IntVar(&sf.auditKeep, "audit-keep", audit.DefaultKeep, "rotated audit files kept (FILE.1 ... FILE.N)")
}

// checkAudit returns the usage error of the audit flags, if any.
func (sf *serveFlags) checkAudit() error {
	if sf.auditKeep <= 0 {
		return fmt.Errorf("--audit-keep wants a positive number")
	}
	if sf.auditFile == "" && (sf.auditRedact != "" || sf.auditMaxSize.n > 0) {
		return fmt.Errorf("--audit-redact and --audit-max-size need --audit FILE")
	}
	if err := checkAuditDir(sf.auditFile); err != nil {
		return err
	}
	if n := sf.auditMaxSize.n; n > 0 && n < 4<<10 {
		return fmt.Errorf("--audit-max-size %d bytes: want at least 4KiB, or 0 for no rotation", n)
	}
	if sf.auditFile == "-" && sf.auditMaxSize.n > 0 {
		return fmt.Errorf("--audit-max-size needs a file, not - (stderr)")
	}
	return nil
}

// auditOptions opens the audit log the flags ask for and returns the
// server options that record every call in it, and the function that
// closes it; none without --audit.
func (sf *serveFlags) auditOptions(c *command, env *cmdEnv, f *toolFlags) ([]mcp.Option, func(), error) {
	if sf.auditFile == "" {
		return nil, func() {}, nil
	}
	log, err := openAudit(env, *sf, f.workspace)
	if err != nil {
		return nil, nil, err
	}
	closeLog := func() {
		if err := log.Close(); err != nil && sf.auditFile != "-" {
			fmt.Fprintf(env.stderr, "toolgen %s: %v\n", c.name, err)
		}
	}
	a := audit.New(log, audit.WithConfinement(f.confine.String()), audit.WithRedact(strings.Split(sf.auditRedact, ",")...))
	return []mcp.Option{mcp.WithToolWrapper(a.Wrap), mcp.WithRefusalRecorder(a.Refused)}, closeLog, nil
}

// openAudit opens the audit log sf asks for.
func openAudit(env *cmdEnv, sf serveFlags, workspace string) (*audit.Log, error) {
	if sf.auditFile == "-" {
		return audit.NewWriter(env.stderr), nil
	}
	if within.Lexical(workspace, sf.auditFile) && !within.Resolved(workspace, sf.auditFile) {
		// The repository holds a symlink on the way to the log: it would
		// choose where serve writes (and would silence the warning below).
		return nil, fmt.Errorf("--audit %s lies in the workspace, but a symlink there leads it out of the workspace, to %s: the repository would choose where the log is written; give a path outside the workspace",
			sf.auditFile, resolvedDir(sf.auditFile))
	}
	if within.Resolved(workspace, sf.auditFile) {
		fmt.Fprintf(env.stderr, "toolgen serve: warning: the audit log %s is inside the workspace, where the tools (and the agent) may be able to write\n", sf.auditFile)
	}
	return audit.Open(sf.auditFile, audit.Options{MaxSize: sf.auditMaxSize.n, Keep: sf.auditKeep})
}

// checkAuditDir reports an --audit FILE whose directory does not exist or
// is not a directory: serve creates the log file, never its directory (a
// typo would otherwise create a tree somewhere unexpected).
func checkAuditDir(file string) error {
	if file == "" || file == "-" {
		return nil
	}
	dir := filepath.Dir(file)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("--audit %s: the directory %s does not exist; create it first (serve creates the log file, not its directory)", file, dir)
	case err == nil && !st.IsDir():
		return fmt.Errorf("--audit %s: %s is a file, not a directory", file, dir)
	}
	return nil
}

// resolvedDir is path's directory with its symlinks resolved (path itself
// when that fails).
func resolvedDir(path string) string {
	if r, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return r
	}
	return path
}

// watchDescriptors reloads the descriptor tools while ctx lasts: each reload
// swaps them in the registry (preset.Watch), Sync updates the served set, and
// the client gets list_changed. A broken file keeps its last good version;
// its 613 is logged when the set of problems changes. The returned function
// stops watching and waits for the watcher to end.
func watchDescriptors(ctx context.Context, p *preset.Preset, srv *mcp.Server, logger *slog.Logger, dir string) (stop func()) {
	var last string
	onChange := func() {
		srv.Sync()
		var msgs []string
		for _, prob := range p.DescriptorProblems() {
			for _, e := range tool.Flatten(prob) {
				msgs = append(msgs, e.Error())
			}
		}
		if now := strings.Join(msgs, "\n"); now != last {
			last = now
			for _, m := range msgs {
				logger.Warn("descriptor problem", "error", m)
			}
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := p.Watch(ctx, onChange); err != nil && ctx.Err() == nil {
			logger.Error("watching descriptors stopped", "dir", dir, "error", err)
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// serveGCPercent sets the collector's target for a long-running server to
// 50 (Go's default is 100), unless GOGC is set. The go-sdk leaves ~64 KiB of
// garbage per call; collecting it twice as often keeps the server's RSS
// steady under 20 MiB (21 MiB at 100, 33 MiB at 400, after 1,000 calls).
// The price, profiled at 8 calls in flight: the collector's share of the
// server's CPU goes from ~3 to ~6 %, about 50 µs per call against the
// ~2 ms a call of echo costs in all (runtime/mcp/internal/mcpbench).
// GOGC=100 gives that back to whoever prefers CPU to memory.
func serveGCPercent() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}
