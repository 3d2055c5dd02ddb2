package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var serveCmd = &command{
	name:    "serve",
	summary: "Serve the tools to an MCP client over stdio (stdout is the protocol; logs go to stderr).",
	usage:   "[--tools DIR] [--workspace DIR] [--exec-allow BIN,...] [--timeout DUR] [--confine MODE] [--watch]",
	run:     runServe,
}

// serveHelp follows the flags in "toolgen serve -h".
const serveHelp = `
The server runs until its input ends (the client closes it) or it gets
SIGINT/SIGTERM; running commands are then killed with their process groups.
A client config (e.g. Claude Desktop's mcpServers) runs it as:
  {"command": "toolgen", "args": ["serve", "--tools", "/abs/path/tools", "--workspace", "/abs/path", "--watch"]}
`

// serveGCPercent is the GC target of toolgen serve unless GOGC is set. The
// server's live heap is a few MiB, but the MCP SDK's JSON decoder allocates
// a 32 KiB buffer for each value it decodes, several per call: at the
// default target of 100 the collector runs every few dozen calls and costs
// more CPU than the protocol itself. 400 trades a few MiB for it.
const serveGCPercent = 400

func runServe(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	fs := c.newFlagSet(env)
	f.register(fs, true)
	fs.BoolVar(&f.watch, "watch", false, "reload the descriptors when files in the tools directory change, and tell the client (tools/list_changed)")
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), serveHelp) }
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return c.usageErr(env, "unexpected argument %q (serve speaks MCP on stdin/stdout)", pos[0])
	}
	if err := f.checkTimeout(); err != nil {
		return c.usageErr(env, "%v", err)
	}
	if f.watch && f.toolsDir() == "" {
		return c.usageErr(env, "--watch needs a descriptor directory: --tools DIR, or ./tools")
	}
	p, code := assemble(env, &f)
	if p == nil {
		return code
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	logger := slog.New(slog.NewTextHandler(env.stderr, nil)).With("cmd", "toolgen serve")
	srv, err := mcp.New(p.Registry, mcp.WithLogger(logger), mcp.WithImplementation("toolgen", moduleVersion()))
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

	if err := srv.Serve(ctx, os.Stdin, env.stdout); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(env.stderr, "toolgen serve: %v\n", err)
		return exitFailure
	}
	return exitOK
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
