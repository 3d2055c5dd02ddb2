package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/egress"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// testResolver is the proxy's resolver in these tests: a fixed table.
type testResolver map[string]string

func (r testResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// udpMarker is the payload of the datagram the test sends its own UDP
// listener to know that every earlier datagram was read.
const udpMarker = "toolgen-test-marker"

// hostOf is the hosts entry egressTools gives the tool name.
func hostOf(name string, port int) string {
	if name == "fetch_rebind" {
		return fmt.Sprintf("rebind.test:%d", port)
	}
	return fmt.Sprintf("localhost:%d", port)
}

// egressTools writes the descriptors of issue 23's item 5 into a new tools
// directory: each names the local server's port in its hosts.
func egressTools(t *testing.T, port, udpPort int) string {
	t.Helper()
	dir := t.TempDir()
	tools := map[string]string{
		"fetch_local":    fmt.Sprintf(`curl -sS http://localhost:%d/`, port),
		"fetch_other":    fmt.Sprintf(`curl -sS http://127.0.0.2:%d/`, port),
		"fetch_rebind":   fmt.Sprintf(`curl -sS http://rebind.test:%d/`, port),
		"fetch_redirect": fmt.Sprintf(`curl -sS -L http://localhost:%d/redirect`, port),
		"send_udp":       fmt.Sprintf(`curl -sS --max-time 3 tftp://127.0.0.1:%d/file`, udpPort),
		"lookup":         `getent ahosts example.com`,
	}
	for name, command := range tools {
		host := hostOf(name, port)
		desc := fmt.Sprintf(`{"name": %q, "description": "issue 23 item 5", "command": %q, "network": {"hosts": [%q]}}`,
			name, command, host)
		if err := os.WriteFile(filepath.Join(dir, name+".tool.json"), []byte(desc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestEgressThroughTheCLI is issue 23's item 5 through the CLI's entry
// point (runEnv), in strict and best-effort: a local server reached through
// the entry localhost:PORT; the same server as 127.0.0.2:PORT refused; UDP
// to a local listener and a DNS lookup reaching nothing; a listed name that
// the proxy's resolver points at 127.0.0.1 refused; a redirect from the
// allowed host to an unlisted one refused. The descriptors and explain's
// account of them are checked now; the calls need the kernel to run
// commands in a network namespace whose only route out is the proxy, and
// run once kernel.EgressEnforced() says it does.
func TestEgressThroughTheCLI(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "http://evil.example/", http.StatusFound)
			return
		}
		fmt.Fprint(w, "hello from the test server")
	}))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	var datagrams atomic.Int32
	marked := make(chan struct{}, 1)
	go func() {
		buf := make([]byte, 2048)
		for {
			n, _, err := udp.ReadFrom(buf)
			if err != nil {
				return
			}
			if string(buf[:n]) == udpMarker {
				marked <- struct{}{}
				continue
			}
			datagrams.Add(1)
		}
	}()
	// drained returns once every datagram sent to the listener before it
	// was called has been counted: the test's own marker, sent now, is
	// queued behind them on the one socket.
	drained := func(t *testing.T) {
		t.Helper()
		c, err := net.Dial("udp", udp.LocalAddr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write([]byte(udpMarker)); err != nil {
			t.Fatal(err)
		}
		select {
		case <-marked:
		case <-time.After(time.Minute):
			t.Fatal("the listener never read the test's own marker datagram")
		}
	}
	tools, ws := egressTools(t, port, udp.LocalAddr().(*net.UDPAddr).Port), t.TempDir()
	call := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		env := &cmdEnv{stdout: &out, stderr: &errOut,
			egress: []egress.Option{egress.WithResolver(testResolver{"rebind.test": "127.0.0.1"})}}
		code := runEnv(env, append(args[:1:1], append([]string{"--tools", tools, "--workspace", ws}, args[1:]...)...))
		return code, out.String(), errOut.String()
	}
	for _, name := range []string{"fetch_local", "fetch_other", "fetch_rebind", "fetch_redirect", "send_udp", "lookup"} {
		code, out, stderr := call("explain", name, "{}")
		if code != exitOK || !strings.Contains(out, "network:     only "+hostOf(name, port)+", through toolgen's egress proxy") {
			t.Fatalf("explain %s: exit %d\n%s%s", name, code, out, stderr)
		}
	}
	if !kernel.EgressEnforced() {
		guarantee.Missing(t, "kernel.EgressEnforced() is false: commands with network hosts cannot run here in a "+
			"network namespace whose only route out is the egress proxy; the calls of this test need it")
	}
	for _, mode := range []string{"strict", "best-effort"} {
		t.Run(mode, func(t *testing.T) {
			cases := []struct {
				tool, want string
			}{
				{"fetch_local", "hello from the test server"},
				{"fetch_other", fmt.Sprintf("network: refused 127.0.0.2:%d, not in hosts", port)},
				{"fetch_rebind", fmt.Sprintf("network: refused rebind.test:%d, it resolves to 127.0.0.1 (loopback)", port)},
				{"fetch_redirect", "network: refused evil.example:80, not in hosts"},
			}
			for _, c := range cases {
				before := hits.Load()
				code, out, stderr := call("call", "--confine", mode, c.tool, "{}")
				if code != exitOK || !strings.Contains(out, c.want) {
					t.Errorf("%s: exit %d, want %q in\n%s%s", c.tool, code, c.want, out, stderr)
				}
				reached := hits.Load() - before
				if wantHits := map[string]int32{"fetch_local": 1, "fetch_redirect": 1}[c.tool]; reached != wantHits {
					t.Errorf("%s: the server got %d requests, want %d", c.tool, reached, wantHits)
				}
			}
			code, out, _ := call("call", "--confine", mode, "send_udp", "{}")
			drained(t)
			if code != exitOK || strings.HasPrefix(out, "exit: 0\n") || datagrams.Load() != 0 {
				t.Errorf("UDP reached the host's listener (%d datagrams) or the call succeeded:\n%s", datagrams.Load(), out)
			}
			code, out, _ = call("call", "--confine", mode, "lookup", "{}")
			if code != exitOK || strings.HasPrefix(out, "exit: 0\n") {
				t.Errorf("a DNS lookup succeeded:\n%s", out)
			}
		})
	}
}
