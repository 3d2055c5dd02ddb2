package egress

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

// mapResolver is a resolver of a fixed table; unknown names do not resolve.
type mapResolver struct {
	mu      sync.Mutex
	table   map[string][]string
	lookups []string
}

func (r *mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lookups = append(r.lookups, host)
	var out []netip.Addr
	for _, s := range r.table[host] {
		out = append(out, netip.MustParseAddr(s))
	}
	if len(out) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

// harness is a proxy on a loopback listener, with what it refused and
// dialed recorded. Dials of public test addresses (203.0.113.0/24) go to
// the local server routes names.
type harness struct {
	t       *testing.T
	proxy   *Proxy
	addr    string
	mu      sync.Mutex
	refused []string
	dialed  []string
	routes  map[string]string // public address:port → local address:port
	res     *mapResolver
}

func newHarness(t *testing.T, hosts []string, table map[string][]string) *harness {
	t.Helper()
	h := &harness{t: t, routes: map[string]string{}, res: &mapResolver{table: table}}
	p, err := New(hosts, WithResolver(h.res), WithRefused(h.onRefused), WithDial(h.dial))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.proxy, h.addr = p, ln.Addr().String()
	done := make(chan error, 1)
	go func() { done <- p.Serve(ln) }()
	t.Cleanup(func() {
		p.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return h
}

func (h *harness) onRefused(line string) {
	h.mu.Lock()
	h.refused = append(h.refused, line)
	h.mu.Unlock()
}

func (h *harness) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	h.mu.Lock()
	h.dialed = append(h.dialed, addr)
	to, ok := h.routes[addr]
	h.mu.Unlock()
	if !ok {
		to = addr
	}
	return (&net.Dialer{}).DialContext(ctx, network, to)
}

func (h *harness) route(public, local string) {
	h.mu.Lock()
	h.routes[public] = local
	h.mu.Unlock()
}

func (h *harness) refusals() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.refused...)
}

func (h *harness) dials() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.dialed...)
}

// exchange sends raw request bytes on a new connection to the proxy and
// returns the responses read, in order, until the connection ends.
func (h *harness) exchange(raw string, requests int) []*http.Response {
	h.t.Helper()
	c, err := net.Dial("tcp", h.addr)
	if err != nil {
		h.t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		h.t.Fatal(err)
	}
	br := bufio.NewReader(c)
	var out []*http.Response
	for i := range requests {
		if i == 0 && strings.HasPrefix(raw, "CONNECT ") {
			// A 200 is followed by the tunnel, which net/http would read as
			// its body: read its head only.
			resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(connectHead(h.t, br))), nil)
			if err != nil {
				h.t.Fatal(err)
			}
			out = append(out, resp)
			continue
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			break
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body = io.NopCloser(strings.NewReader(string(body)))
		out = append(out, resp)
	}
	return out
}

// connectHead reads the head of the answer to a CONNECT.
func connectHead(t *testing.T, br *bufio.Reader) string {
	var head strings.Builder
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the answer to CONNECT: %v", err)
		}
		head.WriteString(line)
		if line == "\r\n" {
			if strings.Contains(head.String(), "Content-Length:") { // a refusal: its body too
				resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(head.String())), nil)
				if err == nil && resp.ContentLength > 0 {
					body := make([]byte, resp.ContentLength)
					io.ReadFull(br, body)
					head.Write(body)
				}
			}
			return head.String()
		}
	}
}

func bodyOf(r *http.Response) string {
	b, _ := io.ReadAll(r.Body)
	return string(b)
}

// origin is a local HTTP server that records the Host of each request.
type origin struct {
	*httptest.Server
	mu    sync.Mutex
	hosts []string
	heads []http.Header
}

func newOrigin(t *testing.T) *origin {
	o := &origin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.hosts = append(o.hosts, r.Host)
		o.heads = append(o.heads, r.Header.Clone())
		o.mu.Unlock()
		if to := r.URL.Query().Get("redirect"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		fmt.Fprintf(w, "hello from origin, path %s", r.URL.Path)
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *origin) port() string {
	return o.Listener.Addr().(*net.TCPAddr).AddrPort().String()[len("127.0.0.1:"):]
}

func (o *origin) seen() ([]string, []http.Header) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.hosts...), append([]http.Header(nil), o.heads...)
}

func TestPlainRequestThroughLocalhostEntry(t *testing.T) {
	o := newOrigin(t)
	h := newHarness(t, []string{"localhost:" + o.port()}, nil)
	resp := h.exchange("GET http://localhost:"+o.port()+"/a HTTP/1.1\r\nHost: localhost:"+o.port()+
		"\r\nProxy-Authorization: Basic c2VjcmV0\r\nConnection: close, X-Secret\r\nX-Secret: s\r\n\r\n", 1)
	if len(resp) != 1 || resp[0].StatusCode != 200 || bodyOf(resp[0]) != "hello from origin, path /a" {
		t.Fatalf("responses %v", resp)
	}
	hosts, heads := o.seen()
	if len(hosts) != 1 || hosts[0] != "localhost:"+o.port() {
		t.Errorf("the origin saw Host %v", hosts)
	}
	for _, name := range []string{"Proxy-Authorization", "X-Secret", "User-Agent"} {
		if v := heads[0].Get(name); v != "" {
			t.Errorf("the origin got %s: %q; hop-by-hop headers and a default User-Agent must not reach it", name, v)
		}
	}
	if len(h.refusals()) != 0 {
		t.Errorf("refusals %q", h.refusals())
	}
}

func TestRefusals(t *testing.T) {
	o := newOrigin(t)
	port := o.port()
	hosts := []string{"localhost:" + port, "allowed.test:" + port, "rebind.test:" + port, "mapped.test:" + port,
		"meta.test:80", "*.wild.test:" + port}
	table := map[string][]string{
		"allowed.test":   {"203.0.113.7"},
		"rebind.test":    {"127.0.0.1"},
		"mapped.test":    {"::ffff:127.0.0.1", "10.0.0.1"},
		"meta.test":      {"169.254.169.254"},
		"a.wild.test":    {"0.0.0.0"},
		"evil.example":   {"203.0.113.66"},
		"allowed.test.x": {"203.0.113.7"},
	}
	cases := []struct {
		name, raw, status, line string
	}{
		{"not in hosts", "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n",
			"403", "network: refused evil.example:443, not in hosts"},
		{"rebinding to loopback", "CONNECT rebind.test:" + port + " HTTP/1.1\r\n\r\n",
			"403", "network: refused rebind.test:" + port + ", it resolves to 127.0.0.1 (loopback), which only an entry naming that address reaches"},
		{"rebinding through a mapped address", "GET http://mapped.test:" + port + "/ HTTP/1.1\r\nHost: mapped.test:" + port + "\r\n\r\n",
			"403", "network: refused mapped.test:" + port + ", it resolves to 127.0.0.1 (loopback)"},
		{"cloud metadata", "GET http://meta.test/latest/ HTTP/1.1\r\nHost: meta.test\r\n\r\n",
			"403", "169.254.169.254 (link-local)"},
		{"wildcard to this host", "CONNECT a.wild.test:" + port + " HTTP/1.1\r\n\r\n",
			"403", "0.0.0.0 (unspecified (this host))"},
		{"the address of an allowed name", "CONNECT 203.0.113.7:" + port + " HTTP/1.1\r\n\r\n",
			"403", "network: refused 203.0.113.7:" + port + ", not in hosts"},
		{"another loopback address", "CONNECT 127.0.0.2:" + port + " HTTP/1.1\r\n\r\n",
			"403", "network: refused 127.0.0.2:" + port + ", not in hosts"},
		{"loopback by address, entry by name", "CONNECT 127.0.0.1:" + port + " HTTP/1.1\r\n\r\n",
			"403", "not in hosts"},
		{"another port", "CONNECT localhost:1 HTTP/1.1\r\n\r\n", "403", "network: refused localhost:1, not in hosts"},
		{"the apex of a wildcard", "CONNECT wild.test:" + port + " HTTP/1.1\r\n\r\n", "403", "not in hosts"},
		{"a suffix trick", "CONNECT allowed.test.x:" + port + " HTTP/1.1\r\n\r\n", "403", "not in hosts"},
		{"punycode lookalike", "CONNECT xn--llowed-6of.test:" + port + " HTTP/1.1\r\n\r\n", "403", "not in hosts"},
		{"Cyrillic lookalike", "CONNECT аllowed.test:" + port + " HTTP/1.1\r\n\r\n", "400", "non-ASCII"},
		{"user name in the URI", "GET http://evil.example@localhost:" + port + "/ HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\n",
			"400", "user name"},
		{"user name hiding the host", "GET http://localhost:" + port + "@evil.example/ HTTP/1.1\r\nHost: evil.example\r\n\r\n",
			"400", "user name"},
		{"Host header mismatch", "GET http://localhost:" + port + "/ HTTP/1.1\r\nHost: evil.example\r\n\r\n",
			"400", "but its Host header says evil.example"},
		{"CONNECT with another Host", "CONNECT localhost:" + port + " HTTP/1.1\r\nHost: evil.example:443\r\n\r\n",
			"400", "Host header"},
		{"origin-form", "GET / HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\n", "400", "not a proxy request"},
		{"hex address", "CONNECT 0x7f.1:" + port + " HTTP/1.1\r\n\r\n", "400", "ends in the number"},
		{"decimal address", "GET http://2130706433:" + port + "/ HTTP/1.1\r\n\r\n", "400", "ends in the number"},
		{"zone", "CONNECT [fe80::1%25lo]:" + port + " HTTP/1.1\r\n\r\n", "400", "zone"},
		{"leading zero port", "CONNECT localhost:0" + port + " HTTP/1.1\r\n\r\n", "400", "leading zeros"},
		{"https in a plain request", "GET https://localhost:" + port + "/ HTTP/1.1\r\n\r\n", "400", "CONNECT host:443"},
		{"head too large", "GET http://localhost:" + port + "/ HTTP/1.1\r\nX: " + strings.Repeat("a", MaxHeadBytes) + "\r\n\r\n",
			"431", "32 KiB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, hosts, table)
			h.route("203.0.113.7:"+port, "127.0.0.1:"+port)
			resp := h.exchange(c.raw, 1)
			if len(resp) != 1 {
				t.Fatal("no response")
			}
			body := bodyOf(resp[0])
			if fmt.Sprint(resp[0].StatusCode) != c.status || !strings.Contains(body, c.line) {
				t.Errorf("%d %q, want %s and %q", resp[0].StatusCode, body, c.status, c.line)
			}
			if got := h.refusals(); len(got) != 1 || got[0]+"\n" != body {
				t.Errorf("refusal lines %q, want exactly the body %q", got, body)
			}
			if d := h.dials(); len(d) != 0 {
				t.Errorf("the proxy dialed %v for a refused request", d)
			}
			if hosts, _ := o.seen(); len(hosts) != 0 {
				t.Errorf("the origin was reached: %v", hosts)
			}
		})
	}
}

func TestNameConnectsToCheckedAddress(t *testing.T) {
	o := newOrigin(t)
	port := o.port()
	table := map[string][]string{"api.test": {"127.0.0.1", "203.0.113.7", "10.1.1.1"}, "*.other": {"203.0.113.8"}}
	h := newHarness(t, []string{"API.Test.:" + port}, table)
	h.route("203.0.113.7:"+port, "127.0.0.1:"+port)
	resp := h.exchange("GET http://api.TEST.:"+port+"/x HTTP/1.1\r\nHost: api.test:"+port+"\r\n\r\n", 1)
	if len(resp) != 1 || resp[0].StatusCode != 200 {
		t.Fatalf("responses %v", resp)
	}
	if d := h.dials(); len(d) != 1 || d[0] != "203.0.113.7:"+port {
		t.Errorf("dialed %v; want only the public address the name resolved to", d)
	}
	if hosts, _ := o.seen(); len(hosts) != 1 || hosts[0] != "api.test:"+port {
		t.Errorf("the origin saw Host %v, want the checked name", hosts)
	}
	h.res.mu.Lock()
	defer h.res.mu.Unlock()
	if len(h.res.lookups) != 1 || h.res.lookups[0] != "api.test" {
		t.Errorf("lookups %v; want one, of the canonical name", h.res.lookups)
	}
}

func TestKeepAliveSecondRequestCheckedAgain(t *testing.T) {
	o := newOrigin(t)
	port := o.port()
	h := newHarness(t, []string{"localhost:" + port}, map[string][]string{"evil.example": {"203.0.113.66"}})
	raw := "GET http://localhost:" + port + "/one HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\n" +
		"GET http://evil.example:" + port + "/two HTTP/1.1\r\nHost: evil.example:" + port + "\r\n\r\n"
	resp := h.exchange(raw, 2)
	if len(resp) != 2 || resp[0].StatusCode != 200 || resp[1].StatusCode != 403 {
		t.Fatalf("responses %v, want 200 then 403", resp)
	}
	if r := h.refusals(); len(r) != 1 || r[0] != "network: refused evil.example:"+port+", not in hosts" {
		t.Errorf("refusals %q", r)
	}
	if hosts, _ := o.seen(); len(hosts) != 1 {
		t.Errorf("origin requests %v, want the first only", hosts)
	}
}

func TestSmuggledRequestStaysInBody(t *testing.T) {
	o := newOrigin(t)
	port := o.port()
	h := newHarness(t, []string{"localhost:" + port}, nil)
	inner := "GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\n\r\n"
	// Content-Length and chunked together: net/http goes by chunked and
	// the proxy sends on what it read, framed its own way.
	raw := "POST http://localhost:" + port + "/p HTTP/1.1\r\nHost: localhost:" + port +
		"\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + inner
	resp := h.exchange(raw, 2)
	for _, r := range resp {
		if r.StatusCode == 200 {
			continue
		}
		if r.StatusCode != 400 && r.StatusCode != 403 {
			t.Errorf("status %d", r.StatusCode)
		}
	}
	for _, d := range h.dials() {
		if d != "127.0.0.1:"+port && d != "[::1]:"+port {
			t.Errorf("dialed %s", d)
		}
	}
	hosts, _ := o.seen()
	for _, hh := range hosts {
		if hh != "localhost:"+port {
			t.Errorf("the origin saw a request for %s", hh)
		}
	}
}

func TestConnectPipelinedBytesGoToTunnel(t *testing.T) {
	o := newOrigin(t)
	port := o.port()
	h := newHarness(t, []string{"localhost:" + port}, map[string][]string{"evil.example": {"203.0.113.66"}})
	raw := "CONNECT localhost:" + port + " HTTP/1.1\r\n\r\n" +
		"GET /in-tunnel HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" +
		"CONNECT evil.example:443 HTTP/1.1\r\n\r\n"
	resp := h.exchange(raw, 3)
	if len(resp) < 2 || resp[0].StatusCode != 200 || resp[1].StatusCode != 200 ||
		bodyOf(resp[1]) != "hello from origin, path /in-tunnel" {
		t.Fatalf("responses %v", resp)
	}
	for _, d := range h.dials() {
		if !strings.HasSuffix(d, ":"+port) {
			t.Errorf("dialed %s: bytes after a CONNECT were read as a second request", d)
		}
	}
	if r := h.refusals(); len(r) != 0 {
		t.Errorf("refusals %q: the tunnel's bytes were parsed by the proxy", r)
	}
}

func TestCloseEndsTunnels(t *testing.T) {
	o := newOrigin(t)
	port := o.port()
	p, err := New([]string{"localhost:" + port})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Serve(ln) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "CONNECT localhost:"+port+" HTTP/1.1\r\n\r\n")
	br := bufio.NewReader(c)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	ln.Close() // what the kernel does when the call ends
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its listener closed")
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("the tunnel stayed open: %v", err)
	}
	if err := p.Serve(ln); err == nil {
		// a closed listener: Serve returns at once
	} else {
		t.Errorf("Serve on a closed listener: %v", err)
	}
}

func TestNewRefusesBadEntries(t *testing.T) {
	_, err := New([]string{"ok.example:443", "bad", "*.com:443"})
	if err == nil || !strings.Contains(err.Error(), `network host bad: has no port`) ||
		!strings.Contains(err.Error(), `network host *.com:443`) {
		t.Errorf("New: %v", err)
	}
}
