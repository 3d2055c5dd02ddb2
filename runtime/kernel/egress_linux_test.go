//go:build linux

package kernel

import (
	"bufio"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// recordingProxy is an EgressFunc for the kernel's side of the contract: it
// answers every plain-HTTP request with 200 and the request line, and
// refuses (one line) a request for refuse.example. Package egress's real
// proxy is tested on its own and through the CLI.
func recordingProxy(seen *[]string, mu *sync.Mutex) EgressFunc {
	return func(ln net.Listener, hosts []string, refused func(string)) error {
		for {
			c, err := ln.Accept()
			if err != nil {
				return nil
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				mu.Lock()
				*seen = append(*seen, req.Method+" "+req.URL.String())
				mu.Unlock()
				if req.URL.Hostname() == "refuse.example" {
					refused("network: refused refuse.example:80, not in hosts")
					c.Write([]byte("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
					return
				}
				body := "via-proxy " + req.Method + " " + req.URL.String() + " hosts=" + strings.Join(hosts, ",")
				c.Write([]byte("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body))
			}()
		}
	}
}

// TestEgressOnlyThroughTheProxy: a command whose tool names hosts reaches
// the network only through the kernel's egress proxy, as root and as an
// ordinary user, strict and best-effort: curl's request arrives at the
// proxy (HTTP_PROXY points at the call's own loopback), the proxy's
// refusal is a line of the Result, and a direct connection to a listener
// of the host, TCP or UDP, reaches nothing.
func TestEgressOnlyThroughTheProxy(t *testing.T) {
	curl := guarantee.Program(t, "curl")
	if !EgressEnforced() {
		guarantee.Missing(t, "the call namespaces are refused here")
	}
	host, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer host.Close()
	go func() {
		for {
			c, err := host.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\ndirect"))
			c.Close()
		}
	}()
	for _, mode := range []sandbox.Mode{sandbox.Strict, sandbox.BestEffort} {
		t.Run(mode.String(), func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			base := modeKernel(t, t.TempDir(), mode, WithEgress(recordingProxy(&seen, &mu)), WithMemoryLimit(0))
			k := base.WithAccess(Access{Hosts: []string{"allowed.example:80"}})
			g := k.Guarantees(curl)
			require.Empty(t, g.Missing)
			assert.Contains(t, g.Network, "only allowed.example:80: through the kernel's egress proxy")

			res := mustRun(t, k, "curl", "-sS", "--max-time", "5", "http://allowed.example/x")
			assert.Equal(t, 0, res.ExitCode, res.Text())
			assert.Contains(t, res.Output, "via-proxy GET http://allowed.example/x hosts=allowed.example:80")

			res = mustRun(t, k, "curl", "-sS", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}", "http://refuse.example/")
			assert.Contains(t, res.Output, "403", res.Text())
			assert.Contains(t, res.Notice, "network: refused refuse.example:80, not in hosts")

			// A command looping on refused requests gets the first refusals
			// and a count, not a line each.
			urls := []string{"curl", "-sS", "--max-time", "10", "-o", "/dev/null"}
			for range maxRefusalLines + 5 {
				urls = append(urls, "http://refuse.example/")
			}
			res = mustRun(t, k, urls...)
			assert.Equal(t, maxRefusalLines, strings.Count(res.Notice, "network: refused"), res.Notice)
			assert.Contains(t, res.Notice, "; and 5 more refusals")

			// Around the proxy: no route (the host's listener is not in the
			// call's namespace; Landlock refuses other ports anyway).
			res = mustRun(t, k, "curl", "-sS", "--noproxy", "*", "--max-time", "3", "http://"+host.Addr().String()+"/")
			assert.NotEqual(t, 0, res.ExitCode, res.Text())
			assert.NotContains(t, res.Output, "direct")
			mu.Lock()
			defer mu.Unlock()
			assert.Len(t, seen, 2+maxRefusalLines+5, "%q", seen)
		})
	}
}
