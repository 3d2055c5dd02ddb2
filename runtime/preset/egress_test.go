package preset_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/egress"
	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestHostsReachTheKernel: a descriptor's network hosts and ExecTool's
// become the Access.Hosts of the kernel each tool runs on, and every
// preset's kernel has the egress proxy.
func TestHostsReachTheKernel(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "gh.tool.json", `{"name": "gh", "description": "GitHub API", "command": "curl -sS https://api.github.com/",
  "network": {"hosts": ["api.github.com:443", "*.githubusercontent.com:443"]}}`)
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(dir), preset.WithoutBuiltins(),
		preset.WithExec("curl"), preset.WithExecHosts("example.org:443", "localhost:8080"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Problems) > 0 {
		t.Fatal(problemLines(p.Problems))
	}
	if p.Kernel.Egress() == nil {
		t.Error("the preset's kernel has no egress proxy")
	}
	gh, _ := p.Registry.Get("gh")
	if got := gh.(*base.CommandToolBase).Kernel().Access().Hosts; !slices.Equal(got, []string{"api.github.com:443", "*.githubusercontent.com:443"}) {
		t.Errorf("gh's kernel hosts %q", got)
	}
	ex, _ := p.Registry.Get("exec")
	et := ex.(*exec.Tool)
	if got := et.Kernel().Access(); !slices.Equal(got.Hosts, []string{"example.org:443", "localhost:8080"}) || got.Network {
		t.Errorf("exec's kernel access %+v", got)
	}
	if !strings.Contains(et.Description(), "Network: only example.org:443, localhost:8080") {
		t.Errorf("exec's description does not tell the model its hosts: %s", et.Description())
	}
}

func TestExecHostsRefused(t *testing.T) {
	_, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithExecHosts("example.org:443"))
	if err == nil || !strings.Contains(err.Error(), "grants it no binary") {
		t.Errorf("hosts without exec: %v", err)
	}
	_, err = preset.New(preset.WithWorkspace(t.TempDir()), preset.WithExec("curl"), preset.WithExecHosts("example.org", "*.org:443"))
	if tool.CodeOf(err) != tool.CodeSpec || !strings.Contains(err.Error(), `exec: cannot allow network host example.org: has no port`) ||
		!strings.Contains(err.Error(), "network host *.org:443") {
		t.Errorf("bad hosts: %v", err)
	}
}

type fixedResolver map[string]string

func (r fixedResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// TestEgressFuncServesOneCall drives the preset's kernel.EgressFunc as the
// kernel's spawn path will: a listener, the call's hosts, a refusal sink;
// closing the listener ends it.
func TestEgressFuncServesOneCall(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "local") }))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	p, err := preset.New(preset.WithWorkspace(t.TempDir()),
		preset.WithEgressOptions(egress.WithResolver(fixedResolver{"rebind.test": "127.0.0.1"})))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var refused []string
	done := make(chan error, 1)
	hosts := []string{fmt.Sprintf("localhost:%d", port), fmt.Sprintf("rebind.test:%d", port)}
	go func() {
		done <- p.Kernel.Egress()(ln, hosts, func(line string) { mu.Lock(); refused = append(refused, line); mu.Unlock() })
	}()
	proxy, _ := url.Parse("http://" + ln.Addr().String())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy), DisableKeepAlives: true}}
	get := func(u string) (int, string) {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get(fmt.Sprintf("http://localhost:%d/", port)); code != 200 || body != "local" {
		t.Errorf("listed localhost: %d %q", code, body)
	}
	if code, _ := get(fmt.Sprintf("http://127.0.0.2:%d/", port)); code != 403 {
		t.Errorf("127.0.0.2: %d", code)
	}
	if code, _ := get(fmt.Sprintf("http://rebind.test:%d/", port)); code != 403 {
		t.Errorf("a listed name resolving to loopback: %d", code)
	}
	ln.Close()
	if err := <-done; err != nil {
		t.Errorf("the egress function returned %v after its listener closed", err)
	}
	want := []string{fmt.Sprintf("network: refused 127.0.0.2:%d, not in hosts", port),
		fmt.Sprintf("network: refused rebind.test:%d, it resolves to 127.0.0.1 (loopback), which only an entry naming that address reaches", port)}
	if !slices.Equal(refused, want) {
		t.Errorf("refusals %q, want %q", refused, want)
	}
	ln2, _ := net.Listen("tcp", "127.0.0.1:0")
	if err := p.Kernel.Egress()(ln2, []string{"bad"}, func(string) {}); err == nil {
		t.Error("a bad entry was served")
	}
	if _, err := ln2.Accept(); err == nil {
		t.Error("the listener of a refused host list stayed open")
	}
}
