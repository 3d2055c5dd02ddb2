package egress

import (
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// curl runs the real curl with only the proxy environment a confined
// command gets (both spellings: curl reads http_proxy in lower case only)
// and returns its output and exit code.
func curl(t *testing.T, proxy string, args ...string) (string, int) {
	t.Helper()
	path, err := exec.LookPath("curl")
	if err != nil {
		t.Fatalf("curl is needed for this test (it is installed in the project's image): %v", err)
	}
	cmd := exec.Command(path, append([]string{"-q", "-sS", "--max-time", "20"}, args...)...)
	url := "http://" + proxy
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin",
		"HTTP_PROXY=" + url, "http_proxy=" + url, "HTTPS_PROXY=" + url, "https_proxy=" + url,
		"ALL_PROXY=" + url, "all_proxy=" + url, "NO_PROXY=", "no_proxy="}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

func TestCurlPlainHTTP(t *testing.T) {
	o := newOrigin(t)
	port := o.port()
	h := newHarness(t, []string{"localhost:" + port}, map[string][]string{"evil.example": {"203.0.113.66"}})

	out, code := curl(t, h.addr, "http://localhost:"+port+"/ok")
	if code != 0 || out != "hello from origin, path /ok" {
		t.Errorf("allowed: exit %d, %q", code, out)
	}
	out, code = curl(t, h.addr, "-f", "http://127.0.0.2:"+port+"/")
	if code != 22 || !strings.Contains(out, "403") {
		t.Errorf("127.0.0.2, not listed: exit %d, %q; want curl's 22 for the 403", code, out)
	}
	// A redirect from the allowed host to an unlisted one is curl's next
	// request, refused on its own.
	out, code = curl(t, h.addr, "-L", "http://localhost:"+port+"/r?redirect=http://evil.example/")
	if code != 0 || !strings.Contains(out, "network: refused evil.example:80, not in hosts") {
		t.Errorf("redirect: exit %d, %q", code, out)
	}
	want := []string{"network: refused 127.0.0.2:" + port + ", not in hosts", "network: refused evil.example:80, not in hosts"}
	if got := h.refusals(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("refusals %q, want %q", got, want)
	}
}

func TestCurlHTTPSByName(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "tls hello, host %s", r.Host)
	}))
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	local := srv.Listener.Addr().String()
	// example.com is in the test certificate; the test's resolver points
	// it at a public test address that the dialer routes to the server,
	// and rebind.example.com at loopback.
	h := newHarness(t, []string{"example.com:443", "*.example.com:443"},
		map[string][]string{"example.com": {"203.0.113.9"}, "rebind.example.com": {"127.0.0.1"}})
	h.route("203.0.113.9:443", local)

	out, code := curl(t, h.addr, "--cacert", ca, "https://example.com/")
	if code != 0 || out != "tls hello, host example.com" {
		t.Errorf("https through CONNECT: exit %d, %q", code, out)
	}
	out, code = curl(t, h.addr, "--cacert", ca, "https://rebind.example.com/")
	if code == 0 || !strings.Contains(out, "403") {
		t.Errorf("a listed name resolving to loopback: exit %d, %q", code, out)
	}
	out, code = curl(t, h.addr, "--cacert", ca, "https://example.org/")
	if code == 0 || !strings.Contains(out, "403") {
		t.Errorf("an unlisted name: exit %d, %q", code, out)
	}
	want := []string{
		"network: refused rebind.example.com:443, it resolves to 127.0.0.1 (loopback), which only an entry naming that address reaches",
		"network: refused example.org:443, not in hosts",
	}
	if got := h.refusals(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("refusals %q, want %q", got, want)
	}
	if d := h.dials(); fmt.Sprint(d) != "[203.0.113.9:443]" {
		t.Errorf("dialed %v, want the checked address only", d)
	}
}
