package serving

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/nanogpt/toolgen/runtime/mcp"
)

// DefaultShutdownTimeout is how long running calls may finish after the
// context of Serve ends, when Config.ShutdownTimeout is 0.
const DefaultShutdownTimeout = 10 * time.Second

// MinTokenLen is the length of the shortest bearer token Listen accepts.
const MinTokenLen = 16

// Config says where and how a Listener serves.
type Config struct {
	// Addr is host:port, or unix:PATH for a Unix socket of mode 0600.
	Addr string
	// Token is the bearer token every request must carry (at least
	// MinTokenLen characters). When it is empty on a TCP address, Addr must
	// be loopback and Listen generates one into a 0600 file, unless
	// AllowUnauthenticated.
	Token string
	// AllowUnauthenticated serves a loopback TCP address without any token:
	// every local account can then call the tools. It never opens a
	// non-loopback address, and cannot be combined with a Token.
	AllowUnauthenticated bool
	// HTTP are the handler's options (see mcp.Server.Handler); its Token is
	// replaced by the Listener's.
	HTTP mcp.HTTPOptions
	// ShutdownTimeout is how long running calls may finish once the context
	// of Serve ends before they are killed (0: DefaultShutdownTimeout;
	// negative: killed at once).
	ShutdownTimeout time.Duration
	// Logf, when not nil, gets one line when Serve starts shutting down and
	// one when it had to kill calls.
	Logf func(format string, args ...any)
}

// A Listener is a bound address with its authentication: the token given,
// a generated one, or none. Close releases it: the listener, the socket
// file, the generated token's file.
type Listener struct {
	// Endpoint is where clients connect: http://HOST:PORT/mcp, or unix:PATH
	// (whose server answers at /mcp).
	Endpoint string
	// Auth says how a client is let in, for a log line, such as "bearer
	// token required".
	Auth string
	// TokenFile is the file (mode 0600) of the generated token, "" when
	// none was generated. Clients send "Authorization: Bearer" and its
	// content.
	TokenFile string

	cfg     Config
	ln      net.Listener
	token   string
	cleanup func()
	close   sync.Once
}

// Listen binds cfg.Addr with the defaults of the package doc: it refuses a
// non-loopback TCP address without a token, generates a token for a
// loopback one unless cfg.AllowUnauthenticated, and makes a unix:PATH
// socket mode 0600.
func Listen(cfg Config) (*Listener, error) {
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	l := &Listener{cfg: cfg, token: cfg.Token, cleanup: func() {}}
	if path, ok := SocketPath(cfg.Addr); ok {
		ln, remove, err := listenUnix(path)
		if err != nil {
			return nil, err
		}
		l.ln, l.cleanup, l.Endpoint, l.Auth = ln, remove, UnixPrefix+path, "socket mode 0600: this user only"
		if l.token != "" {
			l.Auth += "; bearer token required"
		}
		return l, nil
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, err
	}
	l.ln, l.Endpoint = ln, "http://"+ln.Addr().String()+"/mcp"
	switch {
	case l.token != "":
		l.Auth = "bearer token required"
	case cfg.AllowUnauthenticated:
		l.Auth = "no token: every local account can call"
	default:
		t, path, remove, err := generatedToken()
		if err != nil {
			ln.Close()
			return nil, tokenError{err}
		}
		l.token, l.TokenFile, l.cleanup = t, path, remove
		l.Auth = "bearer token required: generated, in " + path
	}
	return l, nil
}

// ErrGeneratedToken is matched (errors.Is) by the error of Listen when it
// could not write a generated token: the caller can then give a token, or
// opt out with AllowUnauthenticated.
var ErrGeneratedToken = errors.New("the generated token could not be written")

// tokenError is an error of generatedToken, matching ErrGeneratedToken.
type tokenError struct{ err error }

func (e tokenError) Error() string        { return e.err.Error() }
func (e tokenError) Unwrap() error        { return e.err }
func (e tokenError) Is(target error) bool { return target == ErrGeneratedToken }

// checkConfig refuses a Config Listen must not serve.
func checkConfig(cfg Config) error {
	if cfg.Token != "" && len(cfg.Token) < MinTokenLen {
		return fmt.Errorf("the token is %d characters; use at least %d", len(cfg.Token), MinTokenLen)
	}
	if cfg.Token != "" && cfg.AllowUnauthenticated {
		return errors.New("AllowUnauthenticated, but a token is given: choose one")
	}
	if err := CheckAddr(cfg.Addr, cfg.Token != ""); err != nil {
		return fmt.Errorf("%s: %w", cfg.Addr, err)
	}
	return nil
}

// Close closes the listener and removes the socket and the generated
// token's file; later calls do nothing.
func (l *Listener) Close() {
	l.close.Do(func() {
		l.ln.Close()
		l.cleanup()
	})
}

// Serve serves srv's Handler at /mcp on l until ctx ends, then shuts down:
// no new calls (503), running calls get cfg.ShutdownTimeout to finish and
// are then killed, sessions and connections are closed. It returns nil
// after that, or the error that stopped the HTTP server before; either
// way l is closed.
func (l *Listener) Serve(ctx context.Context, srv *mcp.Server) error {
	defer l.Close()
	o := l.cfg.HTTP
	o.Token = l.token
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler(o))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l.ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	l.drain(srv)
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	<-served
	return nil
}

// drain stops srv taking calls, lets the running ones finish for the
// shutdown timeout, kills the rest and closes the sessions.
func (l *Listener) drain(srv *mcp.Server) {
	timeout := l.cfg.ShutdownTimeout
	switch {
	case timeout == 0:
		timeout = DefaultShutdownTimeout
	case timeout < 0:
		timeout = 0
	}
	l.logf("shutting down: no new calls; running calls have %v", timeout)
	dctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Drain(dctx); err != nil {
		l.logf("calls still running after %v were killed", timeout)
	}
	srv.CloseSessions()
}

func (l *Listener) logf(format string, args ...any) {
	if l.cfg.Logf != nil {
		l.cfg.Logf(format, args...)
	}
}
