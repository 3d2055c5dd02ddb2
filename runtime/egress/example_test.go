package egress_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"

	"github.com/nanogpt/toolgen/runtime/egress"
)

// A proxy for one call: the command's HTTP client goes through it, and a
// host not in the list gets a 403 with the line the refusal function got.
func ExampleNew() {
	p, err := egress.New([]string{"api.github.com:443"},
		egress.WithRefused(func(line string) { fmt.Println("refused:", line) }))
	if err != nil {
		panic(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	done := make(chan error)
	go func() { done <- p.Serve(ln) }()

	proxy, _ := url.Parse("http://" + ln.Addr().String())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	resp, err := client.Get("http://evil.example/")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Printf("%d %s", resp.StatusCode, body)

	ln.Close() // the end of the call
	fmt.Println("serve:", <-done)
	// Output:
	// refused: network: refused evil.example:80, not in hosts
	// 403 network: refused evil.example:80, not in hosts
	// serve: <nil>
}
