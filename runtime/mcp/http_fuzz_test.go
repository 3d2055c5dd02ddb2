package mcp

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
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
