package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
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

	"github.com/nanogpt/toolgen/runtime/audit"
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
		"Each argument's description and pattern say what its value may hold: most take one word with no quotes or shell metacharacters, not starting with '-'; a text argument may hold spaces, and where the program reads it as data (a search pattern) quotes and operators too. " +
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
	wrap          func(tool.Tool, tool.Form) tool.Tool
	refused       RefusalRecorder
}

// RefusalRecorder records a tools/call that reached no tool: rule is
// "unknown tool", "shutting down" or "duplicate id" (an HTTP batch whose
// requests share an id), reason the error the client gets. An
// audit.Auditor's Refused is one.
type RefusalRecorder func(ctx context.Context, name string, args json.RawMessage, rule string, reason error) error

// WithRefusalRecorder has the server record every tools/call that reaches
// no tool (WithToolWrapper sees only those that do), with its caller
// (audit.CallerFrom). A call whose record cannot be written is answered
// with that error.
func WithRefusalRecorder(f RefusalRecorder) Option { return func(c *config) { c.refused = f } }

// WithToolWrapper wraps every tool the server serves (at New and at each
// Sync), for instance with an audit.Auditor's Wrap; the wrapper sees the
// tool's lineage form. The definition (name, description, schema) served
// is the wrapped tool's.
func WithToolWrapper(wrap func(tool.Tool, tool.Form) tool.Tool) Option {
	return func(c *config) { c.wrap = wrap }
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
	grace   time.Duration // eofGrace; this package's tests set another
	slots   chan struct{} // one token per running call
	syncMu  sync.Mutex    // serialises Sync
	mu      sync.RWMutex  // guards served
	served  map[string]served
	wrap    func(tool.Tool, tool.Form) tool.Tool
	refused RefusalRecorder

	// Graceful shutdown (Drain): while draining no call starts; running
	// ones are counted in running and cancelled through stopCalls.
	runMu     sync.Mutex
	draining  bool
	running   int
	idle      chan struct{} // closed when running drops to 0 while draining
	requests  int           // HTTP requests in flight (Handler), under runMu
	callsCtx  context.Context
	stopCalls context.CancelCauseFunc

	httpReqs sync.Map // key → context of an HTTP request in flight (watchRequest)
}

// served is a tool as the server currently advertises it.
type served struct {
	tool   tool.Tool
	desc   string
	schema json.RawMessage
	// hints is the rest of the definition that clients see (title,
	// annotations, output schema), marshalled, to tell a change.
	hints []byte
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
	s := &Server{reg: reg, logger: c.logger, maxArgs: c.maxArgs, maxMsg: c.maxMessage, grace: eofGrace,
		slots: make(chan struct{}, c.maxCalls), served: map[string]served{}, wrap: c.wrap, refused: c.refused}
	s.callsCtx, s.stopCalls = context.WithCancelCause(context.Background())
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: c.name, Version: c.version}, &sdk.ServerOptions{
		Instructions: c.instructions,
		Logger:       c.logger,
		// Advertise tools (and list_changed) even while the set is empty, so
		// a client keeps listening for tools a later Sync adds. No logging
		// capability: logs go to the logger, not to the client.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	if s.refused != nil {
		s.sdk.AddReceivingMiddleware(s.recordUnknown)
	}
	s.sync()
	return s, nil
}

// recordUnknown records a tools/call naming no tool the server serves (the
// SDK answers it without reaching handle), then lets the SDK answer.
func (s *Server) recordUnknown(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if r, ok := req.(*sdk.CallToolRequest); ok && method == "tools/call" && r.Params != nil {
			if _, served := s.lookup(r.Params.Name); !served {
				reason := fmt.Errorf("unknown tool %q", r.Params.Name)
				if err := s.refused(audit.WithCaller(ctx, caller(ctx, r)), r.Params.Name, r.Params.Arguments, "unknown tool", reason); err != nil {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("%v; not recorded: %v", reason, err)}
				}
			}
		}
		return next(ctx, method, req)
	}
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
	form tool.Form
	def  *sdk.Tool
}

func definitions(entries []tool.Entry) ([]definition, []error) {
	var out []definition
	var errs []error
	for _, e := range entries {
		def, err := Definition(e.Tool)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, definition{e.Tool, e.Form, def})
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
	// The definitions from the tools as registered (annotations and the
	// output schema depend on their types); the calls go through the
	// wrappers. The size limit is inside the wrapper, so the audit log
	// records the refusal like any other 614.
	defs, errs := definitions(s.reg.Entries()) // one snapshot
	for i, d := range defs {
		defs[i].impl = limited{d.impl, s.maxArgs}
		if s.wrap != nil {
			defs[i].impl = s.wrap(defs[i].impl, d.form)
		}
	}
	for _, err := range errs {
		s.logger.Error(err.Error())
	}
	next := make(map[string]served, len(defs))
	var ch Changes
	var toAdd []*sdk.Tool
	s.mu.RLock()
	for _, d := range defs {
		t := d.def
		sv := served{tool: d.impl, desc: t.Description, schema: t.InputSchema.(json.RawMessage), hints: hintsOf(t)}
		next[t.Name] = sv
		old, ok := s.served[t.Name]
		switch {
		case !ok:
			ch.Added = append(ch.Added, t.Name)
			toAdd = append(toAdd, t)
		case old.desc != sv.desc || !bytes.Equal(old.schema, sv.schema) || !bytes.Equal(old.hints, sv.hints):
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

// limited refuses arguments larger than max with a 614, without calling
// the tool.
type limited struct {
	tool.Tool
	max int
}

func (l limited) Call(ctx context.Context, args json.RawMessage) (string, error) {
	if len(args) > l.max {
		return "", tool.ValueErrorf("", "arguments are %d bytes; the limit is %d: pass large content through a file and give its path",
			len(args), l.max)
	}
	return l.Tool.Call(ctx, args)
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
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	if !s.enter() {
		err := fmt.Errorf("%s: not run: the server is shutting down; call again (another replica may answer)", name)
		if s.refused != nil {
			if rerr := s.refused(audit.WithCaller(ctx, caller(ctx, req)), name, args, "shutting down", err); rerr != nil {
				err = fmt.Errorf("%w; not recorded: %v", err, rerr)
			}
		}
		return errorResult(err), nil
	}
	defer s.leave()
	if s.wrap != nil { // only a wrapper (the audit log) asks who called
		ctx = audit.WithCaller(ctx, caller(ctx, req))
	}
	// One context per call, cancelled when the session ends (withSession)
	// or at the shutdown deadline (Drain).
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := withSession(ctx, cancel)
	defer done()
	// Over HTTP, also when the request that carried it ends: its client
	// went away (the connection closed) and nobody can receive the answer,
	// stateless or not (no event store keeps answers for a reconnect).
	if req.Extra != nil && req.Extra.Header != nil {
		if rctx := s.requestEnded(req.Extra.Header); rctx != nil {
			stop := context.AfterFunc(rctx, func() { cancel(errClientGone) })
			defer stop()
		}
	}
	stopAfter := context.AfterFunc(s.callsCtx, func() { cancel(context.Cause(s.callsCtx)) })
	defer stopAfter()
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return errorResult(fmt.Errorf("%s: not started: %w", name, context.Cause(ctx))), nil
	}
	ctx = withProgress(ctx, req) // progress.go
	start := time.Now()
	text, out, err := observed(ctx, func(ctx context.Context) (string, error) { return s.call(ctx, t, args) })
	if err != nil && s.callsCtx.Err() != nil {
		err = fmt.Errorf("%w (%v)", err, errShutdown)
	}
	if s.logger.Enabled(ctx, slog.LevelDebug) { // the arguments alone cost allocations
		s.logger.Debug("call", "tool", name, "duration", time.Since(start), "error", err)
	}
	return result(text, out, err), nil
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
	ctx       context.Context
	cancel    context.CancelCauseFunc
	calls     sync.WaitGroup
	transport string // "stdio" (Serve) or "connect" (Connect)
	id        string // random, for the audit log
}

type sessionKey struct{}

// errClientGone is the cause of a call's cancellation when its client left.
var errClientGone = errors.New("mcp: the client closed the connection")

// newSession returns a session whose context ends with parent, and the
// context to connect with, which carries the session down to the handlers
// (the SDK derives every request's context from it, values included).
func newSession(parent context.Context, transport string) (*session, context.Context) {
	ctx, cancel := context.WithCancelCause(parent)
	sess := &session{ctx: ctx, cancel: cancel, transport: transport, id: rand.Text()[:16]}
	return sess, context.WithValue(parent, sessionKey{}, sess)
}

// caller says who made a call, for the audit log: the stdio (or Connect)
// session carried by ctx, or else an HTTP session of the SDK's handler.
func caller(ctx context.Context, req *sdk.CallToolRequest) audit.Caller {
	var c audit.Caller
	if sess, ok := ctx.Value(sessionKey{}).(*session); ok {
		c = audit.Caller{Transport: sess.transport, Session: sess.id}
	} else {
		c.Transport = "http"
		if req.Session != nil {
			c.Session = req.Session.ID()
		}
	}
	if req.Params != nil {
		c.Key, _ = req.Params.GetMeta()[IdempotencyKeyMeta].(string)
	}
	return c
}

// IdempotencyKeyMeta is the _meta field of a tools/call request that
// carries the call's idempotency key (a string naming one logical call
// across its retries, such as a Temporal activity's
// WORKFLOW_ID/RUN_ID/ACTIVITY_ID), recorded as the key of the call's audit
// record. It is the client's claim, recorded as given.
const IdempotencyKeyMeta = "toolgen/idempotency_key"

// withSession arranges for cancel (the call's) to run when the session of
// the request (carried by ctx) ends, and counts the call as running in its
// session until done is called.
func withSession(ctx context.Context, cancel context.CancelCauseFunc) (done func()) {
	sess, ok := ctx.Value(sessionKey{}).(*session)
	if !ok {
		return func() {}
	}
	sess.calls.Add(1)
	stop := context.AfterFunc(sess.ctx, func() { cancel(context.Cause(sess.ctx)) })
	return func() {
		stop()
		sess.calls.Done()
	}
}

// Connect starts a session with one client over t (for instance one end of
// sdk.NewInMemoryTransports) and returns at once; the session's calls are
// cancelled when it ends or ctx is done. Serve is the stdio form, with
// tolerant framing; use Connect to embed the server elsewhere.
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	sess, cctx := newSession(ctx, "connect")
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
	sess, cctx := newSession(ctx, "stdio")
	defer sess.cancel(errClientGone)
	t := &lineTransport{r: r, w: w, max: s.maxMsg, grace: s.grace, logger: s.logger,
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

// Drain stops the server taking calls and waits for the running ones: from
// now on a tools/call is answered with an isError result saying the server is
// shutting down (over HTTP, Handler answers 503 instead). When ctx ends
// before the running calls do, they are cancelled (their process groups
// killed) and Drain waits for them to return, then returns ctx's error.
//
// Over HTTP, Drain then waits (at most drainTimeout) until the requests in
// flight have been answered, and answerLinger more when there were any, so
// that CloseSessions after it cuts no answer: a client reads an answer on
// the connection of its request and learns that its session's stream ended
// on another one, and the go-sdk client fails every call still waiting
// when it sees the stream end first.
func (s *Server) Drain(ctx context.Context) error {
	ran, err := s.drainCalls(ctx)
	deadline := time.Now().Add(drainTimeout)
	for s.httpRequests() > 0 && time.Now().Before(deadline) {
		ran = true
		time.Sleep(5 * time.Millisecond)
	}
	if ran {
		time.Sleep(answerLinger)
	}
	return err
}

// answerLinger is how long Drain waits after the last answer went out.
const answerLinger = 250 * time.Millisecond

// drainCalls stops new calls and waits for the running ones (ran: there
// were some), cancelling them when ctx ends first.
func (s *Server) drainCalls(ctx context.Context) (ran bool, err error) {
	s.runMu.Lock()
	s.draining = true
	if s.running == 0 {
		s.runMu.Unlock()
		return false, nil
	}
	if s.idle == nil {
		s.idle = make(chan struct{})
	}
	idle := s.idle
	s.runMu.Unlock()
	select {
	case <-idle:
		return true, nil
	case <-ctx.Done():
		s.stopCalls(errShutdown)
		<-idle
		return true, ctx.Err()
	}
}

// httpRequests returns the number of HTTP requests in flight other than
// server-to-client streams (GET).
func (s *Server) httpRequests() int {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	return s.requests
}

func (s *Server) addRequests(n int) {
	s.runMu.Lock()
	s.requests += n
	s.runMu.Unlock()
}

// Draining reports whether Drain was called.
func (s *Server) Draining() bool {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	return s.draining
}

// enter counts a call as running, unless the server is draining.
func (s *Server) enter() bool {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.draining {
		return false
	}
	s.running++
	return true
}

func (s *Server) leave() {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	s.running--
	if s.running == 0 && s.idle != nil {
		close(s.idle)
		s.idle = nil
	}
}

// errShutdown is the cause of a call's cancellation at the shutdown deadline.
var errShutdown = errors.New("mcp: the server shut down before the call finished")

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

// runningCalls returns the number of calls running (for tests).
func (s *Server) runningCalls() int {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	return s.running
}
