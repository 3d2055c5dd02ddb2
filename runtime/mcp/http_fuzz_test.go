package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzOriginAllowed: an Origin is let through only when it is exactly the
// server's own origin (http, the request's Host, default port filled in).
func FuzzOriginAllowed(f *testing.F) {
	for _, s := range [][2]string{
		{"http://127.0.0.1:8080", "127.0.0.1:8080"},
		{"http://evil.example", "127.0.0.1:8080"},
		{"HTTP://LOCALHOST", "localhost:80"},
		{"null", "x"},
		{"http://[::1]:9", "[::1]:9"},
		{"http://a@127.0.0.1:8080", "127.0.0.1:8080"},
		{"http://127.0.0.1:8080/path?q", "127.0.0.1:8080"},
	} {
		f.Add(s[0], s[1])
	}
	h := &httpGate{origins: map[string]bool{}}
	f.Fuzz(func(t *testing.T, origin, host string) {
		r := httptest.NewRequest(http.MethodPost, "http://x/mcp", nil)
		r.Host = host
		r.Header.Set("Origin", origin)
		if !h.originAllowed(r) {
			return
		}
		u, err := url.Parse(strings.ToLower(strings.TrimRight(origin, "/")))
		if err != nil || u.Scheme != "http" || u.Host == "" {
			t.Fatalf("allowed Origin %q (host %q) is not an http origin", origin, host)
		}
		if !sameHost(u.Host, "http", strings.ToLower(host)) {
			t.Fatalf("allowed Origin %q for Host %q", origin, host)
		}
	})
}

// FuzzAuthorized: only "Bearer TOKEN" (scheme in any case, blanks around the
// token) is let through.
func FuzzAuthorized(f *testing.F) {
	const token = "s3cret-token-0123456789abcdef"
	for _, s := range []string{"Bearer " + token, "bearer " + token, "Bearer  " + token + " ", "Basic " + token, token, "Bearer", ""} {
		f.Add(s)
	}
	srv := &Server{}
	h := srv.Handler(HTTPOptions{Token: token}).(*httpGate)
	f.Fuzz(func(t *testing.T, auth string) {
		r := httptest.NewRequest(http.MethodPost, "http://x/mcp", nil)
		r.Header["Authorization"] = []string{auth}
		got := h.authorized(r)
		scheme, rest, ok := strings.Cut(auth, " ")
		want := ok && strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(rest) == token
		if got != want {
			t.Fatalf("authorized(%q) = %v, want %v", auth, got, want)
		}
	})
}

// FuzzBatchDuplicate: batchDuplicate reports a shared id exactly when two
// requests with an id of a JSON array of objects share one (as the SDK
// tells ids apart), and the id it names is one of them.
func FuzzBatchDuplicate(f *testing.F) {
	for _, s := range []string{
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":1,"method":"b"}]`,
		`[{"id":1,"method":"a"},{"id":1.0,"method":"b"}]`,
		`[{"id":"1","method":"a"},{"id":1,"method":"b"}]`,
		`[{"id":null,"method":"a"},{"id":null,"method":"b"}]`,
		`[{"method":"a"},{"method":"a"}]`,
		`[{"id":1,"result":{}},{"id":1,"method":"b"}]`,
		`{"id":1,"method":"a"}`, `[]`, `[1,2]`, ` [ {"id":-0,"method":"x"}, {"id":0,"method":"y"} ]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		calls, dup, ok := batchDuplicate([]byte(body))
		if ok != (dup != nil) {
			t.Fatalf("ok %v with dup %q", ok, dup)
		}
		count := map[string]int{}
		for _, c := range calls {
			if c.method == "" && !strings.Contains(body, `"method"`) {
				t.Fatalf("a call without a method in %q", body)
			}
			count[fmt.Sprintf("%T:%v", c.id.Raw(), c.id.Raw())]++
		}
		shared := false
		for _, n := range count {
			shared = shared || n > 1
		}
		if shared != ok {
			t.Fatalf("%q: shared id %v, reported %v (%q)", body, shared, ok, dup)
		}
		if ok {
			id, err := jsonrpc.MakeID(mustAny(dup))
			if err != nil || count[fmt.Sprintf("%T:%v", id.Raw(), id.Raw())] < 2 {
				t.Fatalf("%q: reported id %q is not shared", body, dup)
			}
		}
	})
}
