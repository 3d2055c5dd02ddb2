package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/nanogpt/toolgen/internal/hostentry"
)

// serveConn serves one client connection: requests one after another, each
// checked on its own, until a CONNECT turns it into a tunnel, the client or
// the proxy closes it, or a request is refused.
func (s *session) serveConn(c net.Conn) {
	p := s.proxy
	br := bufio.NewReaderSize(c, MaxHeadBytes)
	for {
		c.SetReadDeadline(time.Now().Add(HeadTimeout))
		t, req, ok := s.readRequest(c, br)
		if !ok {
			return
		}
		c.SetReadDeadline(time.Time{})
		ctx, cancel := context.WithTimeout(s.ctx, DialTimeout)
		addrs, ref, err := p.allow(ctx, t.host)
		var up net.Conn
		if ref == nil && err == nil {
			up, err = s.connect(ctx, addrs)
		}
		cancel()
		switch {
		case ref != nil:
			p.refuse(ref.line)
			writeStatus(c, http.StatusForbidden, ref.line)
			return
		case err != nil:
			writeStatus(c, http.StatusBadGateway, err.Error())
			return
		}
		if t.connect {
			s.tunnel(c, br, up)
			return
		}
		keep := s.forward(c, req, t, up)
		s.remove(up)
		if !keep {
			return
		}
	}
}

// readRequest reads and checks the next request head; on a problem it
// answers the client and returns false.
func (s *session) readRequest(c net.Conn, br *bufio.Reader) (target, *http.Request, bool) {
	head, err := readHead(br)
	if err != nil {
		if errors.Is(err, errHeadTooLarge) {
			s.badRequest(c, http.StatusRequestHeaderFieldsTooLarge, err)
		}
		return target{}, nil, false // end of stream, timeout, closed: nothing to say
	}
	t, err := checkHead(head)
	if err != nil {
		s.badRequest(c, http.StatusBadRequest, err)
		return target{}, nil, false
	}
	req, err := http.ReadRequest(br)
	if err == nil {
		err = agrees(req, t)
	}
	if err != nil {
		s.badRequest(c, http.StatusBadRequest, err)
		return target{}, nil, false
	}
	return t, req, true
}

// badRequest refuses a request the proxy cannot read as one allowed shape.
func (s *session) badRequest(c net.Conn, code int, err error) {
	line := "network: refused a request: " + err.Error()
	s.proxy.refuse(line)
	writeStatus(c, code, line)
}

// agrees checks that net/http read the request as checkHead did: the same
// kind and the same host and port, so that no difference between the two
// parsers lets a request reach a host that was not checked.
func agrees(req *http.Request, t target) error {
	if (req.Method == http.MethodConnect) != t.connect {
		return errors.New("the request's method was read two ways")
	}
	def := uint16(80)
	authority := req.URL.Host
	if t.connect {
		def, authority = 0, req.Host
	} else if !strings.EqualFold(req.URL.Scheme, "http") || req.URL.User != nil {
		return errors.New("the request's URI was read two ways")
	}
	h, err := hostentry.ParseTarget(authority, def)
	if err != nil || h != t.host {
		return errors.New("the request's host was read two ways")
	}
	return nil
}

// connect dials the checked addresses in order and returns the first
// connection made, tracked by the session.
func (s *session) connect(ctx context.Context, addrs []netip.AddrPort) (net.Conn, error) {
	var last error
	for _, ap := range addrs {
		up, err := s.proxy.dial(ctx, "tcp", ap.String())
		if err != nil {
			last = err
			continue
		}
		if !s.add(up) {
			up.Close()
			return nil, errors.New("network: the proxy is closing")
		}
		return up, nil
	}
	return nil, fmt.Errorf("network: cannot connect: %w", last)
}

// tunnel answers a CONNECT and copies bytes both ways until both sides are
// done (or the session closes them). Bytes the client sent after its
// CONNECT head, already buffered in br, go to the host first: they are the
// tunnel's, never a second request.
func (s *session) tunnel(c net.Conn, br *bufio.Reader, up net.Conn) {
	defer s.remove(up)
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(up, br)
		closeWrite(up)
	}()
	io.Copy(c, up)
	closeWrite(c)
	select {
	case <-done:
	case <-time.After(HeadTimeout): // the client keeps its side open: end it
		c.Close()
		up.Close()
		<-done
	}
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
}

// forward sends one plain HTTP request to the checked host on up and its
// response back, and reports whether the client connection stays open for
// another request (which is checked again: a redirect is one).
func (s *session) forward(c net.Conn, req *http.Request, t target, up net.Conn) bool {
	wantClose := req.Close
	major, minor := req.ProtoMajor, req.ProtoMinor
	removeHopByHop(req.Header)
	if req.Header.Get("Expect") != "" {
		if strings.EqualFold(req.Header.Get("Expect"), "100-continue") {
			io.WriteString(c, "HTTP/1.1 100 Continue\r\n\r\n")
		}
		req.Header.Del("Expect")
	}
	if _, ok := req.Header["User-Agent"]; !ok {
		req.Header["User-Agent"] = []string{""} // net/http would add its own
	}
	req.URL.Scheme, req.URL.Host = "http", hostPort(t.host)
	req.Host = hostHeader(t.host)
	req.RequestURI, req.Close = "", true
	uw := bufio.NewWriter(up)
	if err := req.Write(uw); err != nil || uw.Flush() != nil {
		return false
	}
	resp, err := readResponse(up, req)
	if err != nil {
		writeStatus(c, http.StatusBadGateway, "network: "+t.host.String()+" sent no valid response: "+err.Error())
		return false
	}
	defer resp.Body.Close()
	removeHopByHop(resp.Header)
	keep := !wantClose && (resp.ContentLength >= 0 || chunked(resp) || bodyless(req, resp))
	if major == 1 && minor == 0 && chunked(resp) { // an HTTP/1.0 client reads to the end instead
		resp.TransferEncoding, keep = nil, false
	}
	resp.ProtoMajor, resp.ProtoMinor, resp.Close = major, minor, !keep
	return resp.Write(c) == nil && keep
}

// MaxResponseHeadBytes bounds the heads of a host's response to a plain
// request (interim 1xx responses included): net/http reads a response
// head without a limit of its own.
const MaxResponseHeadBytes = 1 << 20

// readResponse reads the head of the host's response within
// ResponseTimeout and MaxResponseHeadBytes, skipping interim (1xx)
// responses.
func readResponse(up net.Conn, req *http.Request) (*http.Response, error) {
	up.SetReadDeadline(time.Now().Add(ResponseTimeout))
	limit := &headLimit{r: up, left: MaxResponseHeadBytes}
	br := bufio.NewReader(limit)
	for {
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusSwitchingProtocols {
			resp.Body.Close()
			return nil, errors.New("it switched protocols, which the proxy does not pass on")
		}
		if resp.StatusCode >= 200 {
			up.SetReadDeadline(time.Time{})
			limit.left = -1 // the body: streamed, not bounded
			return resp, nil
		}
		resp.Body.Close()
	}
}

// headLimit reads from r at most left bytes while left >= 0, then fails;
// left < 0 means no limit.
type headLimit struct {
	r    io.Reader
	left int64
}

var errResponseHead = errors.New("its response head exceeds 1 MiB")

func (l *headLimit) Read(p []byte) (int, error) {
	if l.left < 0 {
		return l.r.Read(p)
	}
	if l.left == 0 {
		return 0, errResponseHead
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

func chunked(resp *http.Response) bool {
	return len(resp.TransferEncoding) > 0 && resp.TransferEncoding[0] == "chunked"
}

func bodyless(req *http.Request, resp *http.Response) bool {
	return req.Method == http.MethodHead || resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified
}

// hopByHop are the headers that concern one connection, not the request.
var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// removeHopByHop deletes the hop-by-hop headers and those Connection names.
func removeHopByHop(h http.Header) {
	for _, v := range h.Values("Connection") {
		for name := range strings.SplitSeq(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, name := range hopByHop {
		h.Del(name)
	}
}

// hostPort is the checked host in URL form, port included.
func hostPort(h hostentry.Host) string {
	if h.Addr.IsValid() {
		return netip.AddrPortFrom(h.Addr, h.Port).String()
	}
	return h.Name + ":" + strconv.Itoa(int(h.Port))
}

// hostHeader is the Host header the host gets: its port left out when it
// is HTTP's default.
func hostHeader(h hostentry.Host) string {
	hp := hostPort(h)
	if h.Port == 80 {
		return strings.TrimSuffix(hp, ":80")
	}
	return hp
}

// writeStatus answers the client with code and one line of text, and asks
// it to close the connection.
func writeStatus(c net.Conn, code int, line string) {
	body := line + "\n"
	c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		code, http.StatusText(code), len(body), body)
	c.SetWriteDeadline(time.Time{})
}
