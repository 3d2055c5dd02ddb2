package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of HTTPOptions.
const (
	DefaultMaxSessions    = 256
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxBodyBytes   = DefaultMaxMessageBytes
	DefaultBodyTimeout    = 30 * time.Second
)

// HTTPOptions configure Handler.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// (Authorization: Bearer TOKEN). It is compared in constant time; a
	// request without it gets 401 with no detail.
	Token string
	// Stateless serves every request on a temporary session (the SDK's
	// stateless mode): no session affinity, so replicas behind any load
	// balancer serve one fleet. Server-to-client messages outside a request
	// (list_changed) cannot be delivered then.
	Stateless bool
	// SessionTimeout closes a session idle for that long. Default
	// DefaultSessionTimeout; negative never.
	SessionTimeout time.Duration
	// MaxSessions bounds the sessions open at once; a new one beyond it gets
	// 503. Default DefaultMaxSessions.
	MaxSessions int
	// MaxBodyBytes bounds a request body (413 beyond). Default
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// BodyTimeout bounds how long the body of a request may take to arrive
	// (408 beyond), so that a client sending it slowly holds neither a
	// goroutine nor anything else for long. Default DefaultBodyTimeout.
	BodyTimeout time.Duration
	// AllowedOrigins are the origins (scheme://host[:port]) a browser
	// request may come from besides the server's own; see Handler.
	AllowedOrigins []string
}

// Handler returns the MCP Streamable HTTP handler of the server (the SDK's
// StreamableHTTPHandler; mount it at /mcp), behind these checks, in order:
//
//   - with a Token, the Authorization header must carry it: 401 otherwise,
//     with a WWW-Authenticate: Bearer header and no other detail;
//   - a request with an Origin header must come from the server's own
//     origin (the scheme and Host it was sent to; behind a proxy that
//     terminates TLS, list the public origin) or one of AllowedOrigins: 403
//     otherwise (DNS-rebinding and cross-site protection; "null" is
//     refused). The SDK also refuses, on a loopback listener, a Host that
//     is not a loopback name (403);
//   - while the server drains (Drain), 503 with Retry-After for a request
//     of no session (a new session, or any request when stateless), so a
//     load balancer moves on to another replica; an open session's
//     requests still reach it (its stream delivers the last answers);
//   - the body of a POST is read whole, within BodyTimeout (408 beyond),
//     before the request counts towards MaxSessions: a client trickling
//     its body cannot hold a place of a session being opened;
//   - a request opening a new session when MaxSessions are open: 503.
//
// Without a Token every request that reaches the handler is served:
// package serving listens with a token (or a 0600 Unix socket) and refuses
// a non-loopback address without one; use it unless the handler is mounted
// behind an authentication of your own.
//
// Request bodies are bounded by MaxBodyBytes (413), the calls running at
// once by WithMaxConcurrentCalls, idle sessions expire after SessionTimeout.
// As over stdio, a request before initialize gets a JSON-RPC error with
// code -32600 (the SDK sends 0), and one reusing an in-flight id is refused
// (the SDK's transport answers 400, -32600). A JSON-RPC batch (protocol
// 2025-03-26) in which two requests share an id is refused whole: 400, and
// an array with a -32600 error for each of its requests, under its id;
// each tools/call in it is recorded as refused (WithRefusalRecorder, rule
// "duplicate id"). The calls a POST carries are cancelled when it ends
// before they do (the client closed the connection): their process groups
// are killed and their WithMaxConcurrentCalls slots freed.
func (s *Server) Handler(o HTTPOptions) http.Handler {
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.SessionTimeout < 0 {
		o.SessionTimeout = 0
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	inner := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Stateless:           o.Stateless,
		SessionTimeout:      o.SessionTimeout,
		MaxRequestBodyBytes: o.MaxBodyBytes,
		Logger:              s.logger,
	})
	h := &httpGate{s: s, inner: inner, opts: o, origins: map[string]bool{}}
	if o.Token != "" {
		sum := sha256.Sum256([]byte(o.Token))
		h.tokenSum = sum[:]
	}
	for _, origin := range o.AllowedOrigins {
		h.origins[strings.ToLower(strings.TrimRight(origin, "/"))] = true
	}
	return h
}

type httpGate struct {
	s        *Server
	inner    http.Handler
	opts     HTTPOptions
	tokenSum []byte
	origins  map[string]bool

	mu      sync.Mutex
	opening int // requests without a session id in flight (may open one)
}

func (h *httpGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Header.Del(requestKeyHeader)
	// The bearer and Origin checks are written here rather than taken from
	// the go-sdk's auth.RequireBearerToken and net/http's
	// CrossOriginProtection:
	//   - RequireBearerToken is built for OAuth: its verifier must return a
	//     TokenInfo with an Expiration (refused without one unless
	//     AllowMissingExpiration), the comparison of a static token would
	//     still be ours to write in constant time, and it tells a refused
	//     client why ("no bearer token", "token expired", the verifier's
	//     text) where this contract answers 401 with no detail, and with no
	//     WWW-Authenticate header unless OAuth options are given, where
	//     this contract always sends "WWW-Authenticate: Bearer".
	//   - CrossOriginProtection lets every GET, HEAD and OPTIONS through,
	//     and MCP's GET opens a session's server-to-client stream; it trusts
	//     Sec-Fetch-Site before the Origin header; and it compares Origin
	//     with Host without the scheme (failing open from http to https).
	//     Here every method is checked, Origin against the scheme and host
	//     the request was sent to, "null" and repeated Origin headers are
	//     refused.
	if h.tokenSum != nil && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	if !h.originAllowed(r) {
		http.Error(w, "Forbidden: cross-origin request", http.StatusForbidden)
		return
	}
	// While draining, no new session (nor, stateless, any request) is
	// taken; a session's own requests still are: its server-to-client
	// stream may be (re)opened to receive the answers of calls still
	// running (a client that cannot open it fails them), and its new
	// calls get an isError result saying the server is shutting down.
	if h.s.Draining() && r.Header.Get("Mcp-Session-Id") == "" {
		w.Header().Set("Retry-After", "1")
		w.Header().Set("Connection", "close")
		http.Error(w, "Service Unavailable: shutting down", http.StatusServiceUnavailable)
		return
	}
	// The body first: whoever sends it slowly is cut off at BodyTimeout and
	// has held no place among the sessions being opened.
	body, ok := checkHTTPID(w, r, h.opts.MaxBodyBytes, h.opts.BodyTimeout)
	if !ok {
		return
	}
	if calls, dup, found := batchDuplicate(body); found {
		h.refuseBatch(w, r, calls, dup)
		return
	}
	if !h.opts.Stateless && r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
		// A new session. Count those being opened too, so that a burst
		// of initialize requests cannot overshoot the bound.
		h.mu.Lock()
		full := h.sessions()+h.opening >= h.opts.MaxSessions
		if !full {
			h.opening++
		}
		h.mu.Unlock()
		if full {
			w.Header().Set("Retry-After", "5")
			http.Error(w, "Service Unavailable: too many sessions", http.StatusServiceUnavailable)
			return
		}
		// It stops counting as opening once its answer starts (the SDK
		// has registered the session by then, so it is counted there): a
		// client that got its answer and opens the next session at once
		// must not find this one counted twice.
		var once sync.Once
		release := func() {
			once.Do(func() {
				h.mu.Lock()
				h.opening--
				h.mu.Unlock()
			})
		}
		defer release()
		w = releaseWriter{w, release}
	}
	if r.Method != http.MethodGet {
		h.s.addRequests(1)
		defer h.s.addRequests(-1)
	}
	if r.Method == http.MethodPost {
		// The calls of this request end with it (see requestKeyHeader).
		defer h.s.watchRequest(r)()
	}
	h.inner.ServeHTTP(codeFixWriter{w}, r)
}

// requestKeyHeader carries, from httpGate to handle, the key under which
// the HTTP request of a call is registered: the SDK runs a call with its
// session's context, not the request's, and hands the handler nothing of
// the request but its header. A client's own header of that name is
// dropped first.
const requestKeyHeader = "X-Toolgen-Request-Key"

// watchRequest registers r under a fresh key put into its header, so that
// the calls it carries are cancelled when it ends; the returned function
// unregisters it.
func (s *Server) watchRequest(r *http.Request) (unwatch func()) {
	key := rand.Text()
	r.Header.Set(requestKeyHeader, key)
	s.httpReqs.Store(key, r.Context())
	return func() { s.httpReqs.Delete(key) }
}

// requestEnded returns the context of the HTTP request that carried a
// call, from the call's header: nil when the call came otherwise (stdio),
// an already cancelled context when that request has already ended.
func (s *Server) requestEnded(h http.Header) context.Context {
	key := h.Get(requestKeyHeader)
	if key == "" {
		return nil
	}
	if ctx, ok := s.httpReqs.Load(key); ok {
		return ctx.(context.Context)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// releaseWriter calls release before the first byte of the answer goes
// out (the status line included).
type releaseWriter struct {
	http.ResponseWriter
	release func()
}

func (w releaseWriter) WriteHeader(code int) {
	w.release()
	w.ResponseWriter.WriteHeader(code)
}

func (w releaseWriter) Write(p []byte) (int, error) {
	w.release()
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w releaseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush implements http.Flusher.
func (w releaseWriter) Flush() {
	w.release()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// authorized compares the bearer token in constant time (of the hashes, so
// the length of the token does not leak either).
func (h *httpGate) authorized(r *http.Request) bool {
	auth := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(auth, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		token = ""
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return subtle.ConstantTimeCompare(sum[:], h.tokenSum) == 1 && ok
}

// originAllowed reports whether r has no Origin, or one naming the host it
// was sent to, or an allowed origin.
func (h *httpGate) originAllowed(r *http.Request) bool {
	origins := r.Header.Values("Origin")
	if len(origins) == 0 {
		return true
	}
	if len(origins) > 1 {
		return false
	}
	origin := strings.ToLower(strings.TrimRight(origins[0], "/"))
	if h.origins[origin] {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // "null", file://, garbage
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return u.Scheme == scheme && sameHost(u.Host, u.Scheme, strings.ToLower(r.Host))
}

// sameHost compares host[:port] of an origin with a request's Host, with
// the scheme's default port filled in.
func sameHost(origin, scheme, host string) bool {
	def := "80"
	if scheme == "https" {
		def = "443"
	}
	norm := func(hp string) string {
		if _, _, err := net.SplitHostPort(hp); err != nil {
			return net.JoinHostPort(strings.Trim(hp, "[]"), def)
		}
		return hp
	}
	return norm(origin) == norm(host)
}

// sessions counts the sessions open.
func (h *httpGate) sessions() int {
	n := 0
	for range h.s.sdk.Sessions() {
		n++
	}
	return n
}

// CloseSessions closes every open session (HTTP and stdio alike), ending
// their streams; used at shutdown after Drain.
func (s *Server) CloseSessions() {
	for ss := range s.sdk.Sessions() {
		ss.Close()
	}
}
