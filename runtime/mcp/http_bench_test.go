package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkHTTPCall is tools/call of "true" through Handler with the SDK's
// HTTP client, sequential, beside the same call over stdio (Serve) in the
// same run: compare ns/op (target: HTTP ≤ stdio + 0.3 ms).
func BenchmarkHTTPCall(b *testing.B) {
	k := newKernel(b)
	tl := commandTool(b, k, "nothing", "true")
	b.Run("stdio", func(b *testing.B) {
		f := sessionCaller(b, serveStdioPipes(b, newServer(b, registry(b, tl))))
		f()
		for b.Loop() {
			f()
		}
	})
	for _, stateless := range []bool{false, true} {
		name := "http"
		if stateless {
			name = "http-stateless"
		}
		b.Run(name, func(b *testing.B) {
			srv := newServer(b, registry(b, tl))
			mux := http.NewServeMux()
			mux.Handle("/mcp", srv.Handler(HTTPOptions{Stateless: stateless, Token: testToken}))
			hs := httptest.NewServer(mux)
			defer hs.Close()
			defer srv.CloseSessions()
			hc := &http.Client{Transport: bearer{testToken, &http.Transport{MaxIdleConnsPerHost: 16}}}
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(),
				&sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			f := sessionCaller(b, cs)
			f()
			for b.Loop() {
				f()
			}
		})
	}
}
