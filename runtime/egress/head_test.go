package egress

import (
	"bufio"
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/hostentry"
)

func TestCheckHeadAccepts(t *testing.T) {
	cases := []struct{ head, want string }{
		{"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n\r\n", "CONNECT api.github.com:443"},
		{"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com\r\n\r\n", "CONNECT api.github.com:443"},
		{"CONNECT API.github.com.:443 HTTP/1.1\r\n\r\n", "CONNECT api.github.com:443"},
		{"CONNECT [::1]:8080 HTTP/1.1\r\nhost: [::1]:8080\r\n\r\n", "CONNECT [::1]:8080"},
		{"GET http://example.org/x?y HTTP/1.1\r\nHost: example.org\r\n\r\n", "GET example.org:80"},
		{"GET http://example.org:80/ HTTP/1.1\r\nHost: EXAMPLE.org\r\n\r\n", "GET example.org:80"},
		{"GET HTTP://example.org:8080 HTTP/1.1\r\nHost: example.org:8080\r\nX: y\r\n\r\n", "GET example.org:8080"},
		{"POST http://127.0.0.1:9/ HTTP/1.0\n\n", "GET 127.0.0.1:9"},
	}
	for _, c := range cases {
		tg, err := checkHead([]byte(c.head))
		if err != nil {
			t.Errorf("checkHead(%q): %v", c.head, err)
			continue
		}
		got := "GET " + tg.host.String()
		if tg.connect {
			got = "CONNECT " + tg.host.String()
		}
		if got != c.want {
			t.Errorf("checkHead(%q) = %s, want %s", c.head, got, c.want)
		}
	}
}

func TestCheckHeadRefuses(t *testing.T) {
	cases := []struct{ head, why string }{
		{"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n", "not a proxy request"},
		{"OPTIONS * HTTP/1.1\r\nHost: a.example\r\n\r\n", "not a proxy request"},
		{"GET https://a.example/ HTTP/1.1\r\n\r\n", "CONNECT host:443"},
		{"GET ftp://a.example/ HTTP/1.1\r\n\r\n", "not an http:// URI"},
		{"GET http://evil.example@allowed.example/ HTTP/1.1\r\nHost: allowed.example\r\n\r\n", "user name"},
		{"GET http://allowed.example@evil.example/ HTTP/1.1\r\n\r\n", "user name"},
		{"GET http://allowed.example\\@evil.example/ HTTP/1.1\r\n\r\n", "backslash"},
		{"GET http://%65vil.example/ HTTP/1.1\r\n\r\n", "percent"},
		{"GET http://allowed.example/ HTTP/1.1\r\nHost: evil.example\r\n\r\n", "Host header says evil.example"},
		{"GET http://allowed.example/ HTTP/1.1\r\nHost: allowed.example:81\r\n\r\n", "Host header"},
		{"GET http://allowed.example/ HTTP/1.1\r\nHost: \r\n\r\n", "Host header"},
		{"GET http://allowed.example/ HTTP/1.1\r\nHost: allowed.example\r\nHost: evil.example\r\n\r\n", "more than one Host"},
		{"GET http://allowed.example/ HTTP/1.1\r\nHost: allowed.example\r\n Host: evil.example\r\n\r\n", "folds"},
		{"GET http://allowed.example/ HTTP/1.1\r\nHost : evil.example\r\n\r\n", "NAME: VALUE"},
		{"GET http://allowed.example/ HTTP/1.1\r\nX: a\rHost: evil.example\r\n\r\n", "CR"},
		{"GET http://allowed.example/ HTTP/1.1\r\nX: a\x00\r\n\r\n", "NUL"},
		{"CONNECT allowed.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n", "Host header"},
		{"CONNECT allowed.example HTTP/1.1\r\n\r\n", "no port"},
		{"CONNECT *.example.org:443 HTTP/1.1\r\n\r\n", "wildcard"},
		{"CONNECT 0x7f.1:80 HTTP/1.1\r\n\r\n", "ends in the number"},
		{"CONNECT 2130706433:80 HTTP/1.1\r\n\r\n", "ends in the number"},
		{"CONNECT [fe80::1%25eth0]:443 HTTP/1.1\r\n\r\n", "zone"},
		{"CONNECT аllowed.example:443 HTTP/1.1\r\n\r\n", "non-ASCII"},
		{"CONNECT allowed.example:0443 HTTP/1.1\r\n\r\n", "leading zeros"},
		{"GET  http://a.example/ HTTP/1.1\r\n\r\n", "request line"},
		{"GET http://a.example/ HTTP/2.0\r\n\r\n", "HTTP/1.0 and HTTP/1.1"},
		{"G(T http://a.example/ HTTP/1.1\r\n\r\n", "token"},
		{"\r\nGET http://a.example/ HTTP/1.1\r\n\r\n", "request line"},
	}
	for _, c := range cases {
		tg, err := checkHead([]byte(c.head))
		if err == nil {
			t.Errorf("checkHead(%q) = %+v, want an error about %q", c.head, tg, c.why)
			continue
		}
		if !strings.Contains(err.Error(), c.why) {
			t.Errorf("checkHead(%q): %v; want it to mention %q", c.head, err, c.why)
		}
		if strings.ContainsAny(err.Error(), "\r\n\x00") {
			t.Errorf("checkHead(%q): the message %q is not one line", c.head, err)
		}
	}
}

func TestReadHead(t *testing.T) {
	pipelined := "GET http://a.example/ HTTP/1.1\r\nHost: a.example\r\n\r\nGET http://b.example/ HTTP/1.1\r\n\r\n"
	br := bufio.NewReaderSize(strings.NewReader(pipelined), MaxHeadBytes)
	head, err := readHead(br)
	if err != nil || string(head) != "GET http://a.example/ HTTP/1.1\r\nHost: a.example\r\n\r\n" {
		t.Fatalf("readHead = %q, %v", head, err)
	}
	if br.Buffered() != len(pipelined) {
		t.Errorf("readHead consumed input: %d bytes left of %d", br.Buffered(), len(pipelined))
	}
	huge := "GET http://a.example/ HTTP/1.1\r\nX: " + strings.Repeat("a", MaxHeadBytes) + "\r\n\r\n"
	if _, err := readHead(bufio.NewReaderSize(strings.NewReader(huge), MaxHeadBytes)); err != errHeadTooLarge {
		t.Errorf("a head over MaxHeadBytes: %v, want errHeadTooLarge", err)
	}
	if _, err := readHead(bufio.NewReaderSize(strings.NewReader("GET http://a/ HTTP/1.1\r\n"), MaxHeadBytes)); err == nil {
		t.Error("an unfinished head was read as a whole one")
	}
}

// checkAgainstNetHTTP is the property both fuzz targets hold: whatever
// checkHead accepts, net/http reads as the same kind of request for the
// same host and port (agrees), or refuses to read.
func checkAgainstNetHTTP(t *testing.T, head []byte) {
	tg, err := checkHead(head)
	if err != nil {
		if strings.ContainsAny(err.Error(), "\r\n\x00") {
			t.Fatalf("message %q is not one line", err)
		}
		return
	}
	if tg.host.Wildcard || tg.host.Port == 0 || (tg.host.Name == "") == !tg.host.Addr.IsValid() {
		t.Fatalf("checkHead(%q) accepted a target that is not one host:port: %+v", head, tg.host)
	}
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(head)))
	if err != nil {
		return // the proxy answers 400
	}
	if err := agrees(req, tg); err != nil {
		// Not a hole (the proxy refuses it) but a difference worth knowing.
		t.Logf("checkHead and net/http disagree on %q: %v", head, err)
	}
	if _, err := hostentry.Parse(tg.host.String()); err != nil {
		t.Fatalf("the target %s of %q does not parse as an entry: %v", tg.host, head, err)
	}
}

func FuzzCheckHead(f *testing.F) {
	for _, s := range []string{
		"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n\r\n",
		"GET http://example.org/x HTTP/1.1\r\nHost: example.org\r\n\r\n",
		"GET http://evil.example@allowed.example/ HTTP/1.1\r\n\r\n",
		"GET http://a.example/ HTTP/1.1\r\nHost: b.example\r\n\r\n",
		"CONNECT [::1]:80 HTTP/1.1\r\n\r\n",
		"GET http://[::ffff:127.0.0.1]:8080/ HTTP/1.0\n\n",
		"GET http://0x7f.1/ HTTP/1.1\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkAgainstNetHTTP)
}
