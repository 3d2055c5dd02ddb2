package egress

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/nanogpt/toolgen/internal/hostentry"
)

// Bounds of one proxy. A call's proxy serves one command: these are far
// above what a command needs and far below what would hurt the host.
const (
	// MaxConns is the number of client connections served at once; one
	// more is answered 503 and closed.
	MaxConns = 64
	// HeadTimeout is how long a client has to send a request's head, and
	// how long a kept-alive connection may sit idle before the next one.
	HeadTimeout = 30 * time.Second
	// DialTimeout bounds name resolution plus connecting to the host.
	DialTimeout = 10 * time.Second
	// ResponseTimeout is how long an upstream server has to send the head
	// of its response to a plain HTTP request.
	ResponseTimeout = 60 * time.Second
)

// Resolver looks up the addresses of a host name. *net.Resolver is one;
// tests give their own (WithResolver).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DialFunc connects to an address ("ip:port" as netip.AddrPort writes it).
// (*net.Dialer).DialContext is one.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// Proxy is an egress proxy for one allow-list. It is safe for concurrent
// use; it holds no state between connections besides the open ones.
type Proxy struct {
	hosts    []hostentry.Host
	resolver Resolver
	dial     DialFunc
	refused  func(line string)
	notify   sync.Mutex // serialises refused

	mu     sync.Mutex
	lns    map[net.Listener]struct{}
	closed bool
	slots  chan struct{} // MaxConns tokens, shared by every Serve
}

// Option configures New.
type Option func(*Proxy)

// WithResolver sets the resolver of host names (default
// net.DefaultResolver). A test may point a name at any address: the
// proxy still refuses a special-purpose one (see Class) for a name entry.
func WithResolver(r Resolver) Option { return func(p *Proxy) { p.resolver = r } }

// WithRefused sets the function told of each refusal, in one line of
// printable text such as "network: refused evil.example:443, not in
// hosts". Calls are serialised; the function should return quickly. The
// default drops them (the client still gets the line in a 403 response).
func WithRefused(f func(line string)) Option { return func(p *Proxy) { p.refused = f } }

// WithDial sets how the proxy connects to an address it has checked
// (default: a net.Dialer). It is given the address, never a name, so no
// second resolution can happen; tests use it to route a public test
// address to a local server.
func WithDial(d DialFunc) Option { return func(p *Proxy) { p.dial = d } }

// New returns a proxy that lets connections reach exactly the entries of
// hosts (see ParseHost): CONNECT host:port tunnels and plain http://
// requests. An empty list allows nothing. The error joins the problem of
// every bad entry. A nil Option is ignored.
func New(hosts []string, opts ...Option) (*Proxy, error) {
	parsed, err := hostentry.ParseAll(hosts)
	if err != nil {
		return nil, err
	}
	p := &Proxy{
		hosts:    parsed,
		resolver: net.DefaultResolver,
		dial:     (&net.Dialer{}).DialContext,
		lns:      map[net.Listener]struct{}{},
		slots:    make(chan struct{}, MaxConns),
	}
	for _, o := range opts {
		if o != nil {
			o(p)
		}
	}
	return p, nil
}

// Hosts returns the allow-list in canonical form ("api.github.com:443"),
// in the order given.
func (p *Proxy) Hosts() []string {
	out := make([]string, len(p.hosts))
	for i, h := range p.hosts {
		out[i] = h.String()
	}
	return out
}

// Serve accepts client connections on ln and serves each until ln is
// closed (by the caller or by Close); then it closes every connection it
// accepted, tunnels included, waits for them to end and returns nil. Any
// other error of ln.Accept is returned the same way, after the cleanup.
// Serve closes ln before it returns.
func (p *Proxy) Serve(ln net.Listener) error {
	if !p.track(ln) {
		ln.Close()
		return nil
	}
	defer p.untrack(ln)
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{proxy: p, conns: map[net.Conn]struct{}{}, ctx: ctx, cancel: cancel}
	var err error
	for {
		var c net.Conn
		c, err = ln.Accept()
		if err != nil {
			break
		}
		select {
		case p.slots <- struct{}{}:
		default:
			writeStatus(c, 503, "network: the proxy serves at most 64 connections at once")
			c.Close()
			continue
		}
		if !s.add(c) {
			<-p.slots
			c.Close()
			continue
		}
		s.wg.Go(func() {
			defer func() { <-p.slots }()
			defer s.remove(c)
			s.serveConn(c)
		})
	}
	ln.Close()
	s.closeAll()
	s.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// Close closes every listener the proxy serves; each Serve then closes
// its connections and returns. A later Serve returns at once.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	lns := make([]net.Listener, 0, len(p.lns))
	for ln := range p.lns {
		lns = append(lns, ln)
	}
	p.mu.Unlock()
	for _, ln := range lns {
		ln.Close()
	}
	return nil
}

func (p *Proxy) track(ln net.Listener) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.lns[ln] = struct{}{}
	return true
}

func (p *Proxy) untrack(ln net.Listener) {
	p.mu.Lock()
	delete(p.lns, ln)
	p.mu.Unlock()
}

// refuse reports a refusal line.
func (p *Proxy) refuse(line string) {
	if p.refused == nil {
		return
	}
	p.notify.Lock()
	defer p.notify.Unlock()
	p.refused(line)
}

// session is one Serve: the connections it accepted and the upstream
// connections opened for them, all closed when it ends.
type session struct {
	proxy  *Proxy
	ctx    context.Context // ends when the session closes: lookups and dials stop
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

// add tracks c; false when the session is closing.
func (s *session) add(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *session) remove(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.Close()
}

func (s *session) closeAll() {
	s.cancel()
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
}
