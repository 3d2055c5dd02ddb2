package egress_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"

	"github.com/nanogpt/toolgen/runtime/egress"
)

func ExampleParseHost() {
	for _, entry := range []string{"API.GitHub.com.:443", "*.example.org:443", "[::ffff:10.0.0.5]:8443", "api.github.com", "0x7f.1:80"} {
		h, err := egress.ParseHost(entry)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(h)
	}
	// Output:
	// api.github.com:443
	// *.example.org:443
	// 10.0.0.5:8443
	// network host api.github.com: has no port; write HOST:PORT, e.g. api.github.com:443
	// network host 0x7f.1:80: ends in the number 1, which resolvers read as an IPv4 address; write an address as four decimal numbers (127.0.0.1)
}

func ExampleHostOfURL() {
	fmt.Println(egress.HostOfURL("https://api.github.com/repos/golang/go"))
	fmt.Println(egress.HostOfURL("http://localhost:8080/health"))
	// Output:
	// api.github.com:443
	// localhost:8080
}

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
