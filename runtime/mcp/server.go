package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// Defaults used by New when no Option overrides them.
const (
	// DefaultMaxArgumentBytes bounds the JSON arguments of one tools/call.
	DefaultMaxArgumentBytes = 1 << 20
	// DefaultMaxMessageBytes bounds one inbound JSON-RPC message (one line).
	DefaultMaxMessageBytes = 4 << 20
	// DefaultMaxConcurrentCalls bounds the tool calls running at once.
	DefaultMaxConcurrentCalls = 64
	// DefaultInstructions is what the server tells clients about its tools.
	DefaultInstructions = "Each tool runs one simple command in the workspace, with no shell. " +
		"An argument value is one word: no spaces, quotes or shell metacharacters, and it may not start with '-'. " +
		"Paths are relative to the workspace and must stay inside it. " +
		"A rejected argument comes back as \"error 614: ...\" saying which slot and why: correct it and call again."
)

// When the input ends, the requests already read get eofGrace to be answered;
// then the calls still running are cancelled and get drainTimeout more.
const (
	eofGrace     = time.Second
	drainTimeout = 3 * time.Second
)

// Option configures New.
type Option func(*config)

type config struct {
	logger        *slog.Logger
	name, version string
	instructions  string
	maxArgs       int
	maxMessage    int
	maxCalls      int
}

// WithLogger sets where the server logs (never to its protocol output). The
// default, nil, discards the logs.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithImplementation sets the name and version the server reports in the
// MCP handshake. Default "toolgen" and the module version from the build
// information ("(devel)" in a checkout).
func WithImplementation(name, version string) Option {
	return func(c *config) { c.name, c.version = name, version }
}

// WithInstructions sets the instructions sent to clients in the handshake.
// Default DefaultInstructions; "" sends none.
func WithInstructions(s string) Option { return func(c *config) { c.instructions = s } }

// WithMaxArgumentBytes sets the largest JSON arguments of one call, in bytes.
// Larger arguments are rejected with a 614 result (isError) without reaching
// the tool. Default DefaultMaxArgumentBytes (1 MiB). New rejects n <= 0.
func WithMaxArgumentBytes(n int) Option { return func(c *config) { c.maxArgs = n } }

// WithMaxMessageBytes sets the longest inbound message (line) Serve reads, in
// bytes; a longer one is dropped and answered with an invalid-request error
// (id null). Default DefaultMaxMessageBytes (4 MiB). New rejects n <= 0.
func WithMaxMessageBytes(n int) Option { return func(c *config) { c.maxMessage = n } }

// WithMaxConcurrentCalls sets how many tool calls may run at once; further
// calls wait for a free slot (or for their cancellation). Default
// DefaultMaxConcurrentCalls (64). New rejects n <= 0.
func WithMaxConcurrentCalls(n int) Option { return func(c *config) { c.maxCalls = n } }

// Server serves a tool.Registry over MCP. Build it with New. It is safe for
// concurrent use and may serve several sessions at once.
type Server struct {
	reg     *tool.Registry
	sdk     *sdk.Server
	logger  *slog.Logger
	maxArgs int
	maxMsg  int
	slots   chan struct{} // one token per running call
	syncMu  sync.Mutex    // serialises Sync
	mu      sync.RWMutex  // guards served
	served  map[string]served
}

// served is a tool as the server currently advertises it.
type served struct {
	tool   tool.Tool
	desc   string
	schema json.RawMessage
}

// Changes says what a Sync changed in the advertised tool set, by tool name.
type Changes struct {
	Added, Removed, Updated []string
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool { return len(c.Added)+len(c.Removed)+len(c.Updated) == 0 }

// New returns a server for reg, advertising its tools as they are now (see
// Sync). Errors are prefixed "mcp: ".
func New(reg *tool.Registry, opts ...Option) (*Server, error) {
	c := config{name: "toolgen", version: ModuleVersion(), instructions: DefaultInstructions,
		maxArgs: DefaultMaxArgumentBytes, maxMessage: DefaultMaxMessageBytes, maxCalls: DefaultMaxConcurrentCalls}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	switch {
	case reg == nil:
		return nil, errors.New("mcp: nil registry")
	case c.maxArgs <= 0:
		return nil, fmt.Errorf("mcp: argument limit must be positive, got %d", c.maxArgs)
	case c.maxMessage <= 0:
		return nil, fmt.Errorf("mcp: message limit must be positive, got %d", c.maxMessage)
	case c.maxCalls <= 0:
		return nil, fmt.Errorf("mcp: concurrent call limit must be positive, got %d", c.maxCalls)
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{reg: reg, logger: c.logger, maxArgs: c.maxArgs, maxMsg: c.maxMessage,
		slots: make(chan struct{}, c.maxCalls), served: map[string]served{}}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: c.name, Version: c.version}, &sdk.ServerOptions{
		Instructions: c.instructions,
		Logger:       c.logger,
		// Advertise tools (and list_changed) even while the set is empty, so
		// a client keeps listening for tools a later Sync adds. No logging
		// capability: logs go to the logger, not to the client.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	s.sync()
	return s, nil
}

// Tools returns the MCP definitions of reg's tools, sorted by name, with each
// InputSchema passed through as raw JSON (compacted, order kept). A tool whose
// schema is not a JSON object schema cannot be served and is left out, with
// an error saying why.
func Tools(reg *tool.Registry) ([]*sdk.Tool, []error) {
	defs, errs := definitions(reg.Entries())
	out := make([]*sdk.Tool, len(defs))
	for i, d := range defs {
		out[i] = d.def
	}
	return out, errs
}

// definition is a tool and its MCP definition.
type definition struct {
	impl tool.Tool
	def  *sdk.Tool
}

func definitions(entries []tool.Entry) ([]definition, []error) {
	var out []definition
	var errs []error
	for _, e := range entries {
		schema, err := objectSchema(e.Tool)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, definition{e.Tool,
			&sdk.Tool{Name: e.Tool.Name(), Description: e.Tool.Description(), InputSchema: schema}})
	}
	return out, errs
}

// objectSchema returns t's input schema, compacted, after checking that it is
// a JSON object with "type": "object" (the SDK panics on anything else).
func objectSchema(t tool.Tool) (json.RawMessage, error) {
	raw := t.InputSchema()
	var probe struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("mcp: tool %q: input schema is not a JSON object: %v", t.Name(), err)
	}
	if probe.Type != "object" {
		return nil, fmt.Errorf("mcp: tool %q: input schema must have \"type\": \"object\", got %v", t.Name(), probe.Type)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, fmt.Errorf("mcp: tool %q: input schema: %v", t.Name(), err)
	}
	return json.RawMessage(b.Bytes()), nil
}

// Sync re-reads the registry and brings the advertised tool set up to date.
// Added, removed and changed definitions (description or schema) are applied
// at once and make the SDK send notifications/tools/list_changed to every
// session (once, debounced); a tool whose implementation changed but whose
// definition did not is swapped silently. Calls already running finish on the
// tool they started with. Tools that cannot be served are logged and left
// out. Safe to call at any time, from any goroutine.
func (s *Server) Sync() Changes {
	ch := s.sync()
	if !ch.Empty() {
		s.logger.Info("tool set changed", "added", ch.Added, "removed", ch.Removed, "updated", ch.Updated, "tools", s.toolCount())
	}
	return ch
}

func (s *Server) sync() Changes {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	defs, errs := definitions(s.reg.Entries()) // one snapshot
	for _, err := range errs {
		s.logger.Error(err.Error())
	}
	next := make(map[string]served, len(defs))
	var ch Changes
	var toAdd []*sdk.Tool
	s.mu.RLock()
	for _, d := range defs {
		t := d.def
		sv := served{tool: d.impl, desc: t.Description, schema: t.InputSchema.(json.RawMessage)}
		next[t.Name] = sv
		old, ok := s.served[t.Name]
		switch {
		case !ok:
			ch.Added = append(ch.Added, t.Name)
			toAdd = append(toAdd, t)
		case old.desc != sv.desc || !bytes.Equal(old.schema, sv.schema):
			ch.Updated = append(ch.Updated, t.Name)
			toAdd = append(toAdd, t)
		}
	}
	for name := range s.served {
		if _, ok := next[name]; !ok {
			ch.Removed = append(ch.Removed, name)
		}
	}
	s.mu.RUnlock()
	slices.Sort(ch.Removed)

	s.mu.Lock()
	s.served = next
	s.mu.Unlock()
	if len(ch.Removed) > 0 {
		s.sdk.RemoveTools(ch.Removed...)
	}
	for _, t := range toAdd {
		s.sdk.AddTool(t, s.handle)
	}
	return ch
}

// lookup returns the tool served under name.
func (s *Server) lookup(name string) (tool.Tool, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sv, ok := s.served[name]
	return sv.tool, ok
}

// handle is the raw SDK handler of every tool: it looks the tool up at call
// time, so a Sync that swaps an implementation needs no re-registration.
func (s *Server) handle(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	name := req.Params.Name
	t, ok := s.lookup(name)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
	}
	args := req.Params.Arguments
	if len(args) > s.maxArgs {
		return errorResult(tool.ValueErrorf("", "arguments are %d bytes; the limit is %d: pass large content through a file and give its path",
			len(args), s.maxArgs)), nil
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	ctx, done := withSession(ctx)
	defer done()
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return errorResult(fmt.Errorf("%s: not started: %w", name, context.Cause(ctx))), nil
	}
	start := time.Now()
	text, err := s.call(ctx, t, args)
	s.logger.Debug("call", "tool", name, "duration", time.Since(start), "error", err)
	if err != nil {
		return errorResult(err), nil
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil
}

// call runs t, turning a panic (which the Tool contract rules out, but a
// third-party tool may still do) into an error rather than a dead server.
func (s *Server) call(ctx context.Context, t tool.Tool, args json.RawMessage) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("tool panicked", "tool", t.Name(), "panic", r, "stack", string(debug.Stack()))
			text, err = "", fmt.Errorf("%s: internal error: the tool panicked: %v", t.Name(), r)
		}
	}()
	return t.Call(ctx, args)
}

// errorResult is the result the model sees for a failed call.
func errorResult(err error) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
}

// session is the state of one connection that outlives single requests: a
// context cancelled when the client is gone, which every call of the session
// also watches, and the calls still running.
type session struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	calls  sync.WaitGroup
}

type sessionKey struct{}

// errClientGone is the cause of a call's cancellation when its client left.
var errClientGone = errors.New("mcp: the client closed the connection")

// newSession returns a session whose context ends with parent, and the
// context to connect with, which carries the session down to the handlers
// (the SDK derives every request's context from it, values included).
func newSession(parent context.Context) (*session, context.Context) {
	ctx, cancel := context.WithCancelCause(parent)
	sess := &session{ctx: ctx, cancel: cancel}
	return sess, context.WithValue(parent, sessionKey{}, sess)
}

// withSession returns ctx, also cancelled when the session of the request
// ends, and counts the call as running in its session until done is called.
func withSession(ctx context.Context) (_ context.Context, done func()) {
	sess, ok := ctx.Value(sessionKey{}).(*session)
	if !ok {
		return ctx, func() {}
	}
	sess.calls.Add(1)
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(sess.ctx, func() { cancel(context.Cause(sess.ctx)) })
	return ctx, func() {
		stop()
		cancel(nil)
		sess.calls.Done()
	}
}

// Connect starts a session with one client over t (for instance one end of
// sdk.NewInMemoryTransports) and returns at once; the session's calls are
// cancelled when it ends or ctx is done. Serve is the stdio form, with
// tolerant framing; use Connect to embed the server elsewhere.
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	sess, cctx := newSession(ctx)
	ss, err := s.sdk.Connect(cctx, t, nil)
	if err != nil {
		sess.cancel(err)
		return nil, fmt.Errorf("mcp: %w", err)
	}
	go func() {
		ss.Wait()
		sess.cancel(errClientGone)
	}()
	return ss, nil
}

// Serve serves one client that writes newline-delimited JSON-RPC messages to
// r and reads them from w (MCP's stdio transport: r is os.Stdin, w is
// os.Stdout). It returns nil when r ends (the client closed the connection),
// once every request already read has been answered: calls still running
// after a second's grace are cancelled, their process groups killed. When ctx
// is done it cancels the running calls, closes the session and returns ctx's
// error, wrapped. Either way no call of the session is running any more when
// Serve returns. If r is an io.Closer it is closed when the session ends,
// which ends the goroutine reading it; otherwise that goroutine ends when
// r's Read returns.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	sess, cctx := newSession(ctx)
	defer sess.cancel(errClientGone)
	t := &lineTransport{r: r, w: w, max: s.maxMsg, logger: s.logger,
		onEOF: func() { sess.cancel(errClientGone) }}
	ss, err := s.sdk.Connect(cctx, t, nil)
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	s.logger.Info("serving", "tools", s.toolCount())
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		sess.cancel(context.Cause(ctx))
		ss.Close()
		<-done
		err = ctx.Err()
	}
	sess.cancel(errClientGone)
	sess.calls.Wait()
	if t.ended.Load() && ctx.Err() == nil {
		// The client closed the connection: the normal end, even when
		// answers could no longer be written to it.
		if err != nil {
			s.logger.Info("client gone", "error", err)
		}
		return nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

func (s *Server) toolCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.served)
}

// ModulePath is the path of toolgen's Go module.
const ModulePath = "github.com/nanogpt/toolgen"

// ModuleVersion returns the version of toolgen's module built into this
// binary, from its build information: a tag such as v0.3.1 after go install
// …@v0.3.1, a pseudo-version for a commit, "(devel)" when built inside a
// checkout or when unknown. In a program that uses toolgen as a library it
// is the version of the toolgen dependency, not of the program.
func ModuleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	m := &bi.Main
	if m.Path != ModulePath {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == ModulePath {
				m = d
				if d.Replace != nil {
					m = d.Replace
				}
				break
			}
		}
	}
	if m == nil || m.Version == "" {
		return "(devel)"
	}
	return m.Version
}
