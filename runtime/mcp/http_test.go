package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/audit"
	"github.com/nanogpt/toolgen/runtime/tool"
)

const testToken = "s3cret-token-0123456789abcdef"

// serveHTTP serves srv's Handler at /mcp of a loopback test server and
// returns the endpoint.
func serveHTTP(t testing.TB, srv *Server, o HTTPOptions) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler(o))
	hs := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.CloseSessions()
		hs.Close()
	})
	return hs.URL + "/mcp"
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// httpClient connects the SDK client to endpoint, with token when not "".
func httpClient(t testing.TB, endpoint, token string, opts *sdk.ClientOptions) (*sdk.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "1"}, opts).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1},
		&sdk.ClientSessionOptions{ProtocolVersion: legacyProtocol})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// post sends one raw JSON-RPC initialize to endpoint with the given headers.
func post(t testing.TB, endpoint string, header map[string]string, body string) (*http.Response, string) {
	t.Helper()
	if body == "" {
		body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	}
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Add(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp, string(data)
}

func echoServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	k := newKernel(t)
	return newServer(t, registry(t, commandTool(t, k, "echo_word", "echo {word}", "word")), opts...)
}

func TestHTTPBearerToken(t *testing.T) {
	endpoint := serveHTTP(t, echoServer(t), HTTPOptions{Token: testToken})
	for name, auth := range map[string]string{
		"none":          "",
		"wrong":         "Bearer wrong-token-0123456789abcdef",
		"prefix":        "Bearer " + testToken[:len(testToken)-1],
		"longer":        "Bearer " + testToken + "x",
		"basic":         "Basic " + testToken,
		"no scheme":     testToken,
		"empty bearer":  "Bearer ",
		"token twice":   "Bearer " + testToken + " " + testToken,
		"lookalike ws":  "Bearer\u00a0" + testToken,
		"scheme inside": "Bearer Bearer " + testToken,
	} {
		t.Run(name, func(t *testing.T) {
			h := map[string]string{}
			if auth != "" {
				h["Authorization"] = auth
			}
			resp, body := post(t, endpoint, h, "")
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			assert.Equal(t, "Unauthorized\n", body, "no detail")
			assert.Equal(t, "Bearer", resp.Header.Get("WWW-Authenticate"))
		})
	}
	_, err := httpClient(t, endpoint, "", nil)
	require.Error(t, err, "the SDK client without the token")

	cs, err := httpClient(t, endpoint, testToken, nil)
	require.NoError(t, err)
	res := call(t, cs, "echo_word", map[string]any{"word": "hi"})
	assert.Equal(t, "exit: 0\noutput: hi\n", text(t, res))
	resp, _ := post(t, endpoint, map[string]string{"Authorization": "bearer " + testToken}, "")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the scheme is case-insensitive")
}

func TestHTTPOriginChecked(t *testing.T) {
	endpoint := serveHTTP(t, echoServer(t), HTTPOptions{AllowedOrigins: []string{"https://app.example.com"}})
	u, _ := url.Parse(endpoint)
	for origin, want := range map[string]int{
		"http://evil.example":                  http.StatusForbidden,
		"http://127.0.0.1.evil.example":        http.StatusForbidden,
		"http://" + u.Host + ".evil.example":   http.StatusForbidden,
		"https://" + u.Host:                    http.StatusForbidden, // other scheme, other origin
		"http://localhost:" + u.Port():         http.StatusForbidden, // another name is another site
		"null":                                 http.StatusForbidden,
		"file://":                              http.StatusForbidden,
		"":                                     http.StatusForbidden, // present but empty
		"http://" + u.Host:                     http.StatusOK,
		"http://" + strings.ToUpper(u.Host):    http.StatusOK,
		"https://app.example.com":              http.StatusOK,
		"https://app.example.com/":             http.StatusOK,
		"https://app.example.com.evil.example": http.StatusForbidden,
	} {
		resp, body := post(t, endpoint, map[string]string{"Origin": origin}, "")
		assert.Equal(t, want, resp.StatusCode, "Origin %q: %s", origin, body)
	}
	// Two Origin headers.
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{}`))
	req.Header["Origin"] = []string{"http://" + u.Host, "http://evil.example"}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	// GET (the server-to-client stream) is checked too.
	req, _ = http.NewRequest(http.MethodGet, endpoint, nil)
	req.Header.Set("Origin", "http://evil.example")
	req.Header.Set("Accept", "text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	// A Host that is not a loopback name, on a loopback listener (DNS
	// rebinding): the SDK's check.
	req, _ = http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{}`))
	req.Host = "rebound.evil.example"
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
}

func TestHTTPBounds(t *testing.T) {
	srv := echoServer(t)
	endpoint := serveHTTP(t, srv, HTTPOptions{MaxBodyBytes: 4096, MaxSessions: 2})
	resp, _ := post(t, endpoint, nil, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`+strings.Repeat("x", 5000)+`"}}`)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)

	for range 2 {
		_, err := httpClient(t, endpoint, "", nil)
		require.NoError(t, err)
	}
	resp, body := post(t, endpoint, nil, "")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, body)
	assert.Contains(t, body, "too many sessions")
	_, err := httpClient(t, endpoint, "", nil)
	assert.Error(t, err)
}

func TestHTTPIdleSessionsExpire(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	srv := echoServer(t)
	endpoint := serveHTTP(t, srv, HTTPOptions{SessionTimeout: 300 * time.Millisecond})
	_, err := httpClient(t, endpoint, "", &sdk.ClientOptions{})
	require.NoError(t, err)
	count := func() int {
		n := 0
		for range srv.sdk.Sessions() {
			n++
		}
		return n
	}
	// The client's standalone GET stream is a request: it keeps the
	// session busy. Without it (raw initialize), the session is idle.
	resp, _ := post(t, endpoint, nil, "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	id := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, id)
	assert.True(t, eventually(5*time.Second, func() bool {
		for ss := range srv.sdk.Sessions() {
			if ss.ID() == id {
				return false
			}
		}
		return true
	}), "idle session %s still open (%d sessions)", id, count())
}

// TestHTTPDrain: while draining, a new request is refused with 503 and a
// running call finishes; at the deadline the calls still running are
// cancelled, their process groups killed.
func TestHTTPDrain(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "nap", "sleep {secs}", "secs")))
	endpoint := serveHTTP(t, srv, HTTPOptions{})
	cs, err := httpClient(t, endpoint, "", nil)
	require.NoError(t, err)

	short := make(chan string, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nap", Arguments: map[string]any{"secs": "1"}})
		if err != nil {
			short <- err.Error()
			return
		}
		short <- res.Content[0].(*sdk.TextContent).Text
	}()
	require.True(t, eventually(5*time.Second, func() bool { return srv.runningCalls() == 1 }))
	drained := make(chan error, 1)
	go func() { drained <- srv.Drain(ctxTimeout(t, 10*time.Second)) }()
	require.True(t, eventually(5*time.Second, srv.Draining))
	resp, _ := post(t, endpoint, nil, "")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "exit: 0\noutput: ", <-short, "the running call finished")
	require.NoError(t, <-drained)

	// A second server: the deadline passes with a call running.
	srv2 := newServer(t, registry(t, commandTool(t, k, "nap", "sleep {secs}", "secs")))
	cs2, err := httpClient(t, serveHTTP(t, srv2, HTTPOptions{}), "", nil)
	require.NoError(t, err)
	secs := uniqueSecs()
	long := make(chan string, 1)
	go func() {
		res, err := cs2.CallTool(context.Background(), &sdk.CallToolParams{Name: "nap", Arguments: map[string]any{"secs": secs}})
		if err != nil {
			long <- err.Error()
			return
		}
		long <- res.Content[0].(*sdk.TextContent).Text
	}()
	pid := findProcess(t, "sleep", secs)
	start := time.Now()
	require.ErrorIs(t, srv2.Drain(ctxTimeout(t, 300*time.Millisecond)), context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.False(t, groupAlive(pid), "killed at the deadline")
	assert.Contains(t, <-long, "shut down")
}

func ctxTimeout(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// roundRobin is a reverse proxy sending each request to the next backend.
func roundRobin(t testing.TB, backends ...string) string {
	var n atomic.Int64
	targets := make([]*url.URL, len(backends))
	for i, b := range backends {
		u, err := url.Parse(b)
		require.NoError(t, err)
		targets[i] = u
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			u := targets[int(n.Add(1)-1)%len(targets)]
			r.SetURL(u)
			r.Out.URL.Path = u.Path
			r.Out.Host = u.Host
		},
		FlushInterval: -1,
	}
	ps := httptest.NewServer(proxy)
	t.Cleanup(ps.Close)
	return ps.URL + "/mcp"
}

func auditedServer(t testing.TB, path string) (*Server, *audit.Log) {
	t.Helper()
	log, err := audit.Open(path, audit.Options{})
	require.NoError(t, err)
	a := audit.New(log)
	return echoServer(t, WithToolWrapper(a.Wrap)), log
}

func TestHTTPStatelessReplicasBehindAProxy(t *testing.T) {
	dir := t.TempDir()
	var endpoints []string
	var logs []*audit.Log
	for i := range 2 {
		srv, log := auditedServer(t, filepath.Join(dir, fmt.Sprintf("audit%d.jsonl", i)))
		logs = append(logs, log)
		endpoints = append(endpoints, serveHTTP(t, srv, HTTPOptions{Stateless: true, Token: testToken}))
	}
	cs, err := httpClient(t, roundRobin(t, endpoints...), testToken, nil)
	require.NoError(t, err)
	const calls = 20
	for i := range calls {
		res := call(t, cs, "echo_word", map[string]any{"word": fmt.Sprint("w", i)})
		require.Equal(t, fmt.Sprintf("exit: 0\noutput: w%d\n", i), text(t, res))
	}
	total := 0
	for i, log := range logs {
		require.NoError(t, log.Close())
		recs := auditLines(t, filepath.Join(dir, fmt.Sprintf("audit%d.jsonl", i)))
		assert.NotEmpty(t, recs, "replica %d served nothing", i)
		for _, r := range recs {
			assert.Equal(t, "http", r.Transport)
		}
		total += len(recs)
	}
	assert.Equal(t, calls, total)
}

func auditLines(t testing.TB, path string) []audit.Record {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []audit.Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r audit.Record
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r), sc.Text())
		out = append(out, r)
	}
	return out
}

func TestHTTPListChangedAfterSync(t *testing.T) {
	k := newKernel(t)
	reg := registry(t, commandTool(t, k, "echo_word", "echo {word}", "word"))
	srv := newServer(t, reg)
	changed := make(chan struct{}, 1)
	cs, err := httpClient(t, serveHTTP(t, srv, HTTPOptions{}), "", &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond) // the client opens its GET stream asynchronously
	require.NoError(t, reg.ReplaceGroup("dir", []tool.Entry{{Tool: commandTool(t, k, "echo_two", "echo {a} {b}", "a", "b")}}))
	srv.Sync()
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed over HTTP")
	}
	res := call(t, cs, "echo_two", map[string]any{"a": "1", "b": "2"})
	assert.Equal(t, "exit: 0\noutput: 1 2\n", text(t, res))
}

// Test1000HTTPCallsFrom50Clients: 50 sessions make 1,000 calls at once over
// HTTP, every one audited; then goroutines, fds and children are back to
// their baseline and the log holds exactly one line per call.
func Test1000HTTPCallsFrom50Clients(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 1,000 processes")
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	srv, log := auditedServer(t, path)
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler(HTTPOptions{Token: testToken}))
	hs := httptest.NewServer(mux)
	defer hs.Close()

	round := func(clients, per int) int64 {
		var good atomic.Int64
		var wg sync.WaitGroup
		for c := range clients {
			cs, err := httpClient(t, hs.URL+"/mcp", testToken, nil)
			require.NoError(t, err)
			for i := range per {
				wg.Go(func() {
					w := fmt.Sprintf("c%di%d", c, i)
					res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "echo_word", Arguments: map[string]any{"word": w}})
					if err == nil && !res.IsError && res.Content[0].(*sdk.TextContent).Text == "exit: 0\noutput: "+w+"\n" {
						good.Add(1)
					} else {
						t.Errorf("call %s: %v %+v", w, err, res)
					}
				})
			}
			defer cs.Close()
		}
		wg.Wait()
		return good.Load()
	}
	round(2, 2) // warm up
	srv.CloseSessions()
	hs.CloseClientConnections()
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	time.Sleep(100 * time.Millisecond)
	runtime.GC()
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)

	start := time.Now()
	require.Equal(t, int64(1000), func() int64 { return round(50, 20) }())
	t.Logf("1000 calls from 50 HTTP clients in %v", time.Since(start))
	srv.CloseSessions()
	hs.CloseClientConnections()
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()

	assertNoLeaks(t, goroutines, fds)
	require.NoError(t, log.Close())
	recs := auditLines(t, path)
	require.Len(t, recs, 1004)
	words := map[string]bool{}
	for i, r := range recs {
		assert.Equal(t, uint64(i+1), r.Seq)
		var a struct{ Word string }
		require.NoError(t, json.Unmarshal(r.Args, &a))
		words[a.Word] = true
		assert.NotEmpty(t, r.Session)
	}
	for c := range 50 {
		for i := range 20 {
			assert.True(t, words[fmt.Sprintf("c%di%d", c, i)], "no audit line for c%di%d", c, i)
		}
	}
}

// TestHTTPSessionBoundHoldsUnderABurst: 40 clients initialize at once
// against MaxSessions 5: at most 5 get a session.
func TestHTTPSessionBoundHoldsUnderABurst(t *testing.T) {
	srv := echoServer(t)
	endpoint := serveHTTP(t, srv, HTTPOptions{MaxSessions: 5})
	var wg sync.WaitGroup
	var ok atomic.Int64
	for range 40 {
		wg.Go(func() {
			if resp, _ := post(t, endpoint, nil, ""); resp.StatusCode == http.StatusOK {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	n := 0
	for range srv.sdk.Sessions() {
		n++
	}
	assert.LessOrEqual(t, n, 5)
	assert.LessOrEqual(t, ok.Load(), int64(5))
	assert.Positive(t, ok.Load())
}

// TestHTTPRequestBeforeInitializeHasAValidCode: as on stdio, no error goes
// out with code 0 (the SDK's own error before initialize).
func TestHTTPRequestBeforeInitializeHasAValidCode(t *testing.T) {
	endpoint := serveHTTP(t, echoServer(t), HTTPOptions{})
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"x"}}}`,
	} {
		_, got := post(t, endpoint, map[string]string{"Mcp-Protocol-Version": "2025-06-18"}, body)
		assert.Contains(t, got, `"id":3,"error":{"code":-32600,"message":"method`)
		assert.NotContains(t, got, `"code":0`)
	}
	// A result whose text holds the same bytes is not touched: in JSON
	// they are escaped.
	tricky := `{"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"x"}}`
	echo := &funcTool{name: "tricky", call: func(context.Context, json.RawMessage) (string, error) { return tricky, nil }}
	cs, err := httpClient(t, serveHTTP(t, newServer(t, registry(t, echo)), HTTPOptions{}), "", nil)
	require.NoError(t, err)
	assert.Equal(t, tricky, text(t, call(t, cs, "tricky", map[string]any{})))
}

// TestHTTPSessionsOpenedBackToBack: a client that opens a session as soon
// as the previous one's initialize was answered is not refused while the
// bound is not reached (a session used to count both as open and as still
// opening until its handler returned, so the bound was hit one early).
func TestHTTPSessionsOpenedBackToBack(t *testing.T) {
	for range 20 {
		srv := echoServer(t)
		endpoint := serveHTTP(t, srv, HTTPOptions{MaxSessions: 2})
		for i := range 2 {
			_, err := httpClient(t, endpoint, "", nil)
			require.NoError(t, err, "session %d of 2", i+1)
		}
		_, err := httpClient(t, endpoint, "", nil)
		require.Error(t, err, "a third session")
	}
}

// TestHTTPDrainKeepsOpenSessions: while the server drains, a request of no
// session gets 503, but an open session's requests still reach it: its
// server-to-client stream may be opened (late, under load) to receive the
// answers of its running calls; refusing it made the client fail them.
func TestHTTPDrainKeepsOpenSessions(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "nap", "sleep {secs}", "secs")))
	endpoint := serveHTTP(t, srv, HTTPOptions{})
	resp, body := post(t, endpoint, nil, "")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	session := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	hdr := map[string]string{"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}
	resp, body = post(t, endpoint, hdr, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Less(t, resp.StatusCode, 300, body)

	cs, err := httpClient(t, endpoint, "", nil)
	require.NoError(t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nap", Arguments: map[string]any{"secs": "1"}})
	}()
	require.True(t, eventually(5*time.Second, func() bool { return srv.runningCalls() == 1 }))
	drained := make(chan error, 1)
	go func() { drained <- srv.Drain(ctxTimeout(t, 10*time.Second)) }()
	require.True(t, eventually(5*time.Second, srv.Draining))

	resp, _ = post(t, endpoint, nil, "")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "a new session while draining")

	req, err := http.NewRequest(http.MethodGet, endpoint, nil)
	require.NoError(t, err)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "text/event-stream")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	stream, err := http.DefaultClient.Do(req.WithContext(ctx))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, stream.StatusCode, "the open session's stream while draining")
	stream.Body.Close()

	resp, body = post(t, endpoint, hdr, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nap","arguments":{"secs":"0"}}}`)
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, "shutting down", "a new call of an open session is answered, not run")
	<-done
	require.NoError(t, <-drained)
}

// TestHTTPNumericIDAnsweredAsSent: over HTTP too, a numeric id the SDK
// would answer as another id (it keeps an int64: 9.5 as 9) is refused with
// -32600 carrying the id as sent; an integral id still works.
func TestHTTPNumericIDAnsweredAsSent(t *testing.T) {
	endpoint := serveHTTP(t, echoServer(t), HTTPOptions{})
	resp, body := post(t, endpoint, nil, "")
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	hdr := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-06-18"}
	post(t, endpoint, hdr, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, id := range []string{`9.5`, `9007199254740993`, `1e400`, `-0.5`} {
		resp, body := post(t, endpoint, hdr, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/list"}`)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "id %s: %s", id, body)
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal([]byte(body), &m), body)
		assert.Equal(t, id, string(m.ID), body)
		if assert.NotNil(t, m.Error, body) {
			assert.Equal(t, -32600, m.Error.Code, body)
		}
	}
	resp, body = post(t, endpoint, hdr, `{"jsonrpc":"2.0","id":12,"method":"tools/list"}`)
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `"id":12`)
	assert.NotContains(t, body, `"error"`)
}

func TestBadNumericID(t *testing.T) {
	for raw, bad := range map[string]bool{
		`9.5`: true, `9007199254740993`: true, `-9007199254740993`: true, `1e400`: true, `-0.5`: true,
		`9`: false, `-3`: false, `9.0`: false, `1e3`: false, `"9.5"`: false, `null`: false, ``: false, `9007199254740991`: false,
	} {
		assert.Equal(t, bad, badNumericID(json.RawMessage(raw)), "%s", raw)
	}
}
