package egress

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/nanogpt/toolgen/internal/hostentry"
)

// MaxHeadBytes bounds a request's line and headers; a longer head is
// refused (431) without being read further.
const MaxHeadBytes = 32 << 10

// errHeadTooLarge is readHead's error for a head of more than MaxHeadBytes.
var errHeadTooLarge = errors.New("the request's line and headers exceed 32 KiB")

// target is what a request head asks the proxy for.
type target struct {
	connect bool           // CONNECT host:port (a tunnel), else a plain HTTP request
	host    hostentry.Host // the host and port it names (never a wildcard)
	display string         // the request target as written, for messages (show'd)
}

// readHead returns the request head waiting in br (request line and
// headers, up to and including the blank line) without consuming it, so
// that http.ReadRequest reads exactly the bytes that were checked. br must
// be at least MaxHeadBytes large.
func readHead(br *bufio.Reader) ([]byte, error) {
	for n := 1; ; {
		_, err := br.Peek(n) // waits for the n-th byte
		buf, _ := br.Peek(br.Buffered())
		if end := headEnd(buf); end >= 0 {
			return buf[:end], nil
		}
		if len(buf) >= MaxHeadBytes || errors.Is(err, bufio.ErrBufferFull) {
			return nil, errHeadTooLarge
		}
		if err != nil {
			return nil, err
		}
		n = len(buf) + 1
	}
}

// headEnd returns the length of the head in buf (through the line feed of
// the blank line that ends it), or -1 when it is not complete yet. A line
// ends with LF, optionally preceded by CR, as net/http reads it.
func headEnd(buf []byte) int {
	first := true // the request line, which may not be empty
	for off := 0; ; {
		i := bytes.IndexByte(buf[off:], '\n')
		if i < 0 {
			return -1
		}
		line := buf[off : off+i]
		off += i + 1
		if !first && (len(line) == 0 || (len(line) == 1 && line[0] == '\r')) {
			return off
		}
		first = false
	}
}

// checkHead reads the request line and the Host headers of head and
// returns what the request asks for. It refuses anything a forward proxy
// should not pass on: a request that is not CONNECT host:port or an
// absolute http:// URI, a user name in the URL, a Host header that names
// another host than the target, two Host headers, folded header lines and
// stray CR or NUL bytes (on which HTTP parsers differ).
func checkHead(head []byte) (target, error) {
	text := string(head)
	if strings.ContainsAny(text, "\x00") {
		return target{}, errors.New("the request holds a NUL byte")
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if strings.ContainsRune(l, '\r') {
			return target{}, errors.New("the request holds a CR that does not end a line")
		}
		lines[i] = l
	}
	method, raw, err := requestLine(lines[0])
	if err != nil {
		return target{}, err
	}
	hosts, err := hostHeaders(lines[1:])
	if err != nil {
		return target{}, err
	}
	t, err := requestTarget(method, raw)
	if err != nil {
		return target{}, err
	}
	if len(hosts) == 1 {
		if err := sameHost(t, hosts[0]); err != nil {
			return target{}, err
		}
	}
	return t, nil
}

// requestLine splits "METHOD TARGET HTTP/1.x".
func requestLine(l string) (method, target string, err error) {
	parts := strings.Split(l, " ")
	if len(parts) != 3 {
		return "", "", fmt.Errorf("the request line %s is not METHOD TARGET HTTP/1.1", hostentry.Show(l))
	}
	if parts[2] != "HTTP/1.1" && parts[2] != "HTTP/1.0" {
		return "", "", fmt.Errorf("the request is %s; the proxy speaks HTTP/1.0 and HTTP/1.1", hostentry.Show(parts[2]))
	}
	if parts[0] == "" || strings.Trim(parts[0], tokenChars) != "" {
		return "", "", fmt.Errorf("the method %s is not an HTTP token", hostentry.Show(parts[0]))
	}
	return parts[0], parts[1], nil
}

// tokenChars are the characters of an HTTP token (RFC 9110 §5.6.2).
const tokenChars = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// hostHeaders returns the values of the Host headers, refusing folded
// lines and header names that are not tokens.
func hostHeaders(lines []string) ([]string, error) {
	var hosts []string
	for _, l := range lines {
		if l == "" {
			break
		}
		if l[0] == ' ' || l[0] == '\t' {
			return nil, errors.New("the request folds a header over two lines (obsolete, and read differently by different parsers)")
		}
		name, value, ok := strings.Cut(l, ":")
		if !ok || name == "" || strings.Trim(name, tokenChars) != "" {
			return nil, fmt.Errorf("the header line %s is not NAME: VALUE", hostentry.Show(l))
		}
		if strings.EqualFold(name, "Host") {
			hosts = append(hosts, strings.Trim(value, " \t"))
		}
	}
	if len(hosts) > 1 {
		return nil, errors.New("the request has more than one Host header")
	}
	return hosts, nil
}

// requestTarget reads the target of a CONNECT (host:port) or of a plain
// request (an absolute http:// URI).
func requestTarget(method, raw string) (target, error) {
	t := target{display: hostentry.Show(raw)}
	if method == "CONNECT" {
		h, err := hostentry.ParseTarget(raw, 0)
		if err != nil {
			return target{}, fmt.Errorf("CONNECT %s: the target %w", hostentry.Show(raw), err)
		}
		t.connect, t.host = true, h
		return t, nil
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	switch {
	case strings.HasPrefix(raw, "/") || raw == "*":
		return target{}, fmt.Errorf("%s %s is not a proxy request: send it with an absolute URI (http://host/…), or CONNECT host:port", hostentry.Show(method), hostentry.Show(raw))
	case !ok || !strings.EqualFold(scheme, "http"):
		return target{}, fmt.Errorf("the target %s is not an http:// URI; for https, the client sends CONNECT host:443", hostentry.Show(raw))
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if strings.ContainsAny(authority, "@\\%") {
		return target{}, fmt.Errorf("the URI %s hides its host behind a user name, a backslash or a percent escape", hostentry.Show(raw))
	}
	h, err := hostentry.ParseTarget(authority, 80)
	if err != nil {
		return target{}, fmt.Errorf("the URI %s: its host %w", hostentry.Show(raw), err)
	}
	t.host = h
	return t, nil
}

// sameHost requires a Host header to name the target: the same host, and
// the same port (a header without one means the target's default: 443 for
// a tunnel, 80 for http).
func sameHost(t target, header string) error {
	def := uint16(80)
	if t.connect {
		def = t.host.Port
	}
	h, err := hostentry.ParseTarget(header, def)
	if err != nil || h != t.host {
		return fmt.Errorf("the request is for %s but its Host header says %s", t.host, hostentry.Show(header))
	}
	return nil
}
