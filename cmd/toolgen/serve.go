package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/nanogpt/toolgen/internal/regular"
	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/audit"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/mcp"
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
}

func runServe(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	var sf serveFlags
	fs := c.newFlagSet(env)
	f.register(fs, true)
	fs.BoolVar(&f.watch, "watch", false, "reload the descriptors when files in the tools directory change, and tell the client (tools/list_changed)")
	fs.StringVar(&sf.httpAddr, "http", "", "serve MCP Streamable HTTP at http://`ADDR`/mcp (host:port, or unix:PATH for a Unix socket of mode 0600) instead of stdio")
	fs.StringVar(&sf.tokenFile, "token-file", "", "read the HTTP bearer token from `FILE` (default: $"+tokenEnv+"; none: a generated one, loopback only)")
	fs.BoolVar(&sf.noToken, "no-token", false, "HTTP on a loopback host:port without a bearer token: every local account can call the tools (default: a generated token)")
	fs.BoolVar(&sf.stateless, "stateless", false, "HTTP: no server-side sessions, so replicas behind any load balancer serve one fleet (no list_changed)")
	fs.IntVar(&sf.maxCalls, "max-calls", mcp.DefaultMaxConcurrentCalls, "calls that may run at once (all sessions together); more wait for a free slot")
	fs.IntVar(&sf.maxSessions, "max-sessions", mcp.DefaultMaxSessions, "HTTP: sessions open at once; more get 503")
	fs.DurationVar(&sf.sessionTimeout, "session-timeout", mcp.DefaultSessionTimeout, "HTTP: close a session idle for this long")
	fs.DurationVar(&sf.shutdownTimeout, "shutdown-timeout", 10*time.Second, "on SIGTERM, how long running calls may finish before they are killed")
	fs.StringVar(&sf.allowOrigins, "allow-origin", "", "HTTP: comma-separated browser origins (scheme://host:port) allowed besides the server's own")
	sf.registerAudit(fs)
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), serveHelp) }
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return unexpectedArg(c, env, pos[0], "serve speaks MCP on stdin/stdout, or over HTTP with --http")
	}
	if err := f.checkRunFlags(); err != nil {
		return c.usageErr(env, "%v", err)
	}
	if f.watch && f.toolsDir() == "" {
		return c.usageErr(env, "--watch needs a descriptor directory: --tools DIR, or ./tools")
	}
	if sf.httpAddr == "" {
		for _, name := range []string{"token-file", "no-token", "stateless", "allow-origin", "max-sessions", "session-timeout"} {
			if flagSet(fs, name) {
				return c.usageErr(env, "--%s needs --http ADDR", name)
			}
		}
	}
	if sf.maxCalls <= 0 || sf.maxSessions <= 0 || sf.auditKeep <= 0 {
		return c.usageErr(env, "--max-calls, --max-sessions and --audit-keep want a positive number")
	}
	if err := sf.checkAudit(); err != nil {
		return c.usageErr(env, "%v", err)
	}
	var token string
	if sf.httpAddr != "" {
		var err error
		if token, err = readToken(sf.tokenFile); err != nil {
			return c.usageErr(env, "%v", err)
		}
		warnTokenFile(env, sf.tokenFile, f.workspace)
		if sf.noToken && token != "" {
			return c.usageErr(env, "--no-token, but a token is given (--token-file or $%s): choose one", tokenEnv)
		}
		if err := checkListenAddr(sf.httpAddr, token != ""); err != nil {
			return c.usageErr(env, "%v", err)
		}
		if f.watch && sf.stateless {
			fmt.Fprintf(env.stderr, "toolgen serve: --stateless: clients are not told when tools change (no server-to-client stream); they see the new set on their next tools/list\n")
		}
	}

	// The spawner process that forks the calls (and an ordinary user's
	// noexec holder) start while the preset is assembled and the client
	// connects, not at the first call.
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
	opts := []mcp.Option{mcp.WithLogger(logger), mcp.WithImplementation("toolgen", moduleVersion()),
		mcp.WithMaxConcurrentCalls(sf.maxCalls)}
	auditOpts, closeAudit, err := sf.auditOptions(c, env, &f)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen serve: %v\n", err)
		return exitFailure
	}
	defer closeAudit()
	opts = append(opts, auditOpts...)
	srv, err := mcp.New(p.Registry, opts...)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen serve: %v\n", err)
		return exitFailure
	}

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
		return serveHTTP(ctx, env, srv, sf, token)
	}
	if err := srv.Serve(ctx, os.Stdin, env.stdout); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(env.stderr, "toolgen serve: %v\n", err)
		return exitFailure
	}
	return exitOK
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

// readToken returns the bearer token from file, or from $TOOLGEN_TOKEN when
// file is "", or "" when neither gives one.
func readToken(file string) (string, error) {
	if file == "" {
		token := strings.TrimSpace(os.Getenv(tokenEnv))
		// Commands never see the server's environment (the kernel builds
		// theirs), but nothing else in this process needs it either.
		os.Unsetenv(tokenEnv)
		if token != "" && len(token) < 16 {
			return "", fmt.Errorf("%s: the token is %d characters; use at least 16 (e.g. openssl rand -hex 32)", tokenEnv, len(token))
		}
		return token, nil
	}
	data, err := readSmall(file, maxTokenFile)
	if err != nil {
		return "", fmt.Errorf("--token-file: %v", err)
	}
	token := strings.TrimSpace(string(data))
	switch {
	case token == "":
		return "", fmt.Errorf("--token-file %s is empty", file)
	case strings.ContainsAny(token, " \t\r\n"):
		return "", fmt.Errorf("--token-file %s: the token must be one line without spaces", file)
	case len(token) < 16:
		return "", fmt.Errorf("--token-file %s: the token is %d characters; use at least 16 (e.g. openssl rand -hex 32)", file, len(token))
	}
	return token, nil
}

// maxTokenFile bounds what is read of a --token-file.
const maxTokenFile = 4 << 10

// readSmall reads a regular file of at most max bytes: a FIFO, a device
// (a symlink to /dev/zero) or a larger file is an error, found without
// blocking or reading on.
func readSmall(file string, max int64) ([]byte, error) {
	data, info, err := regular.Read(file, max)
	switch {
	case errors.Is(err, regular.ErrNotRegular):
		return nil, fmt.Errorf("%s is not a regular file (%s)", file, info.Mode().Type())
	case errors.Is(err, regular.ErrTooLarge):
		return nil, fmt.Errorf("%s is larger than %d bytes; a token file holds one line", file, max)
	}
	return data, err
}

// warnTokenFile warns on stderr about a --token-file that others can
// read: one readable by other users (its mode), or one inside the workspace,
// where every tool can read it and print it to the model. It is a warning,
// as serve's for an audit log in the workspace: the token still works.
func warnTokenFile(env *cmdEnv, file, workspace string) {
	if file == "" {
		return
	}
	if st, err := os.Stat(file); err == nil && st.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(env.stderr, "toolgen serve: warning: --token-file %s is readable by other users (mode %04o); chmod 600 %s\n",
			file, st.Mode().Perm(), file)
	}
	if within.Resolved(workspace, file) {
		fmt.Fprintf(env.stderr, "toolgen serve: warning: --token-file %s is inside the workspace, where the tools can read it "+
			"and show it to the model; keep it outside (e.g. ~/.config/toolgen/token)\n", file)
	}
}

// checkListenAddr refuses an address that is not host:port, and a
// non-loopback one when there is no token.
func checkListenAddr(addr string, haveToken bool) error {
	if path, ok := socketPath(addr); ok {
		if path == "" {
			return fmt.Errorf("--http unix:: want unix:PATH, such as unix:/run/user/1000/toolgen.sock")
		}
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %s: want host:port, such as 127.0.0.1:8080 (%v)", addr, err)
	}
	if haveToken || isLoopbackHost(host) {
		return nil
	}
	return fmt.Errorf("--http %s: without a token the server listens on a loopback address only (127.0.0.1:PORT, [::1]:PORT, localhost:PORT); "+
		"give --token-file FILE or set %s to serve other hosts", addr, tokenEnv)
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serveHTTP serves srv at /mcp until ctx ends (SIGTERM), then shuts down
// gracefully: no new calls, running calls get sf.shutdownTimeout, then are
// killed; sessions and connections are closed.
func serveHTTP(ctx context.Context, env *cmdEnv, srv *mcp.Server, sf serveFlags, token string) int {
	ln, where, auth, cleanup, err := listenHTTP(env, sf, &token)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen serve: %v\n", err)
		return exitFailure
	}
	defer cleanup()
	var origins []string
	for _, o := range strings.Split(sf.allowOrigins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler(mcp.HTTPOptions{Token: token, Stateless: sf.stateless, MaxSessions: sf.maxSessions,
		SessionTimeout: sf.sessionTimeout, AllowedOrigins: origins}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10, ErrorLog: nil}
	mode := "with sessions"
	if sf.stateless {
		mode = "stateless"
	}
	fmt.Fprintf(env.stderr, "toolgen serve: listening on %s (%s; %s)\n", where, auth, mode)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(env.stderr, "toolgen serve: %v\n", err)
		return exitFailure
	case <-ctx.Done():
	}
	fmt.Fprintf(env.stderr, "toolgen serve: shutting down: no new calls; running calls have %v\n", sf.shutdownTimeout)
	dctx, cancel := context.WithTimeout(context.Background(), sf.shutdownTimeout)
	defer cancel()
	if err := srv.Drain(dctx); err != nil {
		fmt.Fprintf(env.stderr, "toolgen serve: calls still running after %v were killed\n", sf.shutdownTimeout)
	}
	srv.CloseSessions()
	sctx, scancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer scancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	<-served
	return exitOK
}

// listenHTTP listens where sf.httpAddr says: a Unix socket of mode 0600
// (unix:PATH), or a TCP address, with a token generated into *token when
// none was given and --no-token was not. It returns the listener, where
// it serves and how it authenticates (for the "listening on" line), and
// what to clean up at exit (the socket, the token file).
func listenHTTP(env *cmdEnv, sf serveFlags, token *string) (ln net.Listener, where, auth string, cleanup func(), err error) {
	if path, ok := socketPath(sf.httpAddr); ok {
		ln, remove, err := listenUnix(path)
		if err != nil {
			return nil, "", "", nil, err
		}
		auth = "socket mode 0600: this user only"
		if *token != "" {
			auth += "; bearer token required"
		}
		return ln, unixPrefix + path, auth, func() { ln.Close(); remove() }, nil
	}
	ln, err = net.Listen("tcp", sf.httpAddr)
	if err != nil {
		return nil, "", "", nil, err
	}
	where = "http://" + ln.Addr().String() + "/mcp"
	switch {
	case *token != "":
		return ln, where, "bearer token required", func() {}, nil
	case sf.noToken:
		return ln, where, "no token (--no-token): every local account can call", func() {}, nil
	}
	t, path, remove, err := generatedToken()
	if err != nil {
		ln.Close()
		return nil, "", "", nil, fmt.Errorf("%v; give --token-file FILE, or --no-token to serve without one", err)
	}
	*token = t
	fmt.Fprintf(env.stderr, "toolgen serve: generated a bearer token, in %s (mode 0600, removed at exit); "+
		"clients send Authorization: Bearer <the file's content>\n", path)
	return ln, where, "bearer token required: generated, in " + path, remove, nil
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
