package egress

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"

	"github.com/nanogpt/toolgen/internal/hostentry"
)

func BenchmarkParseHost(b *testing.B) {
	for b.Loop() {
		if _, err := hostentry.Parse("*.githubusercontent.com:443"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckHead(b *testing.B) {
	head := []byte("GET http://api.example.org/v1/items?page=2 HTTP/1.1\r\nHost: api.example.org\r\n" +
		"User-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n")
	for b.Loop() {
		if _, err := checkHead(head); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlainRequest is one plain HTTP request through the proxy to a
// local server, on a kept-alive client connection: the proxy's cost per
// request (head checks, a new upstream connection, the copy).
func BenchmarkPlainRequest(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	p, err := New([]string{"localhost:" + port})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go p.Serve(ln)
	defer p.Close()
	proxy, _ := url.Parse("http://" + ln.Addr().String())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	target := "http://localhost:" + port + "/"
	for b.Loop() {
		resp, err := client.Get(target)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
	}
}
