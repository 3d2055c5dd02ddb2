package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// rawClient drives Serve over pipes, line by line, as a hand-written client
// would: it can send anything and disappear at any moment.
type rawClient struct {
	t      *testing.T
	in     *io.PipeWriter // the server's input
	outR   *io.PipeReader // the server's output
	lines  chan string
	held   map[float64]map[string]any // responses read while waiting for another id
	done   chan error                 // Serve's result
	cancel context.CancelFunc
}

func serveRaw(t *testing.T, srv *Server) *rawClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &rawClient{t: t, in: inW, outR: outR, lines: make(chan string, 100), held: map[float64]map[string]any{},
		done: make(chan error, 1), cancel: cancel}
	go func() {
		c.done <- srv.Serve(ctx, inR, outW)
		outW.Close()
	}()
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// next returns the next line the server wrote, raw.
func (c *rawClient) next() string {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server closed its output")
		}
		return line
	case <-time.After(10 * time.Second):
		c.t.Fatal("no message from the server")
	}
	return ""
}

// response returns the response to request id (responses can come in any
// order) and its raw line.
func (c *rawClient) response(id float64) (map[string]any, string) {
	c.t.Helper()
	if m, ok := c.held[id]; ok {
		delete(c.held, id)
		return m, m["_raw"].(string)
	}
	for {
		line := c.next()
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			c.t.Fatalf("server wrote %q: %v", line, err)
		}
		m["_raw"] = line
		got, _ := m["id"].(float64)
		if _, isResponse := m["method"]; isResponse || got != id {
			c.held[got] = m
			continue
		}
		return m, line
	}
}

func (c *rawClient) initialize() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m, line := c.response(1); m["result"] == nil {
		c.t.Fatalf("initialize: %s", line)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func (c *rawClient) callTool(id int, name, args string) {
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, name, args))
}

// wait returns Serve's result, failing the test when it takes longer than d.
func (c *rawClient) wait(d time.Duration) error {
	c.t.Helper()
	select {
	case err := <-c.done:
		c.done <- err // for the cleanup
		return err
	case <-time.After(d):
		c.t.Fatalf("Serve still running after %v", d)
	}
	return nil
}

// resultText returns the text and isError of a tools/call response.
func resultText(t *testing.T, m map[string]any) (string, bool) {
	t.Helper()
	res, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("not a result: %s", m["_raw"])
	}
	content := res["content"].([]any)
	isErr, _ := res["isError"].(bool)
	return content[0].(map[string]any)["text"].(string), isErr
}

func TestServeKeepsServingAfterBadLines(t *testing.T) {
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "echo_pair", "echo {zeta} {alpha}", "zeta", "alpha")),
		WithMaxMessageBytes(4096))
	c := serveRaw(t, srv)
	c.initialize()

	bad := []struct {
		line string
		want string // the error response, or its beginning
	}{
		{`{not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid character 'n' looking for beginning of object key string"}}`},
		{`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"JSON-RPC batches are not supported: send one message per line"}}`},
		{`{"id":"x","method":"ping"}`, `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: id must be a string, a number or null"}}`},
		{`"just a string"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a message must be a JSON object"}}`},
		{`{"jsonrpc":"2.0","result":{}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a message without a method is a response and needs an id"}}`},
		{strings.Repeat("x", 10000), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message longer than 4096 bytes dropped"}}`},
	}
	for _, b := range bad {
		c.send(b.line)
		if got := c.next(); !strings.HasPrefix(got, b.want) {
			t.Errorf("after %.40q:\n got %s\nwant %s", b.line, got, b.want)
		}
	}
	c.send("   ") // blank lines are skipped silently

	// Still serving; the schema goes out as the tool gives it, slots in order.
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	_, line := c.response(2)
	if !strings.Contains(line, `"inputSchema":{"type":"object","properties":{"zeta":{`) || !strings.Contains(line, `},"alpha":{`) {
		t.Errorf("tools/list: %s", line)
	}
	c.callTool(3, "echo_pair", `{"zeta":"z","alpha":"a"}`)
	if m, _ := c.response(3); true {
		if text, isErr := resultText(t, m); isErr || text != "exit: 0\noutput: z a\n" {
			t.Errorf("call: %q isError=%v", text, isErr)
		}
	}
	c.in.Close()
	if err := c.wait(10 * time.Second); err != nil {
		t.Errorf("Serve = %v, want nil at the end of input", err)
	}
}

func TestServeEndOfInputAnswersQuickCalls(t *testing.T) {
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "echo_word", "echo {word}", "word")))
	// A quick call on a loaded machine can take longer than eofGrace: the
	// subject here is that the requests read are answered, not how fast.
	srv.grace = time.Minute
	c := serveRaw(t, srv)
	c.initialize()
	c.callTool(2, "echo_word", `{"word":"bye"}`)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	c.in.Close() // e.g. printf '...' | toolgen serve
	m, _ := c.response(2)
	if text, isErr := resultText(t, m); isErr || text != "exit: 0\noutput: bye\n" {
		t.Errorf("call: %q isError=%v", text, isErr)
	}
	if m, line := c.response(3); m["result"] == nil {
		t.Errorf("tools/list: %s", line)
	}
	if err := c.wait(5 * time.Second); err != nil {
		t.Errorf("Serve = %v", err)
	}
}

func TestServeEndOfInputKillsRunningCommands(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	k := newKernel(t)
	c := serveRaw(t, newServer(t, registry(t, commandTool(t, k, "nap", "sleep {secs}", "secs"))))
	c.initialize()
	secs := uniqueSecs()
	c.callTool(2, "nap", fmt.Sprintf(`{"secs":%q}`, secs))
	pid := findProcess(t, "sleep", secs)
	start := time.Now()
	c.in.Close()
	m, _ := c.response(2)
	if text, isErr := resultText(t, m); !isErr || !strings.Contains(text, "context canceled") {
		t.Errorf("cancelled call: %q isError=%v", text, isErr)
	}
	if err := c.wait(eofGrace + drainTimeout + 2*time.Second); err != nil {
		t.Errorf("Serve = %v", err)
	}
	if groupAlive(pid) {
		t.Errorf("process group %d outlived the session", pid)
	}
	if d := time.Since(start); d < eofGrace/2 {
		t.Errorf("the call was cancelled after %v, before the grace period", d)
	}
}

func TestServeClientVanishes(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	k := newKernel(t)
	c := serveRaw(t, newServer(t, registry(t, commandTool(t, k, "nap", "sleep {secs}", "secs"))))
	c.initialize()
	secs := uniqueSecs()
	c.callTool(2, "nap", fmt.Sprintf(`{"secs":%q}`, secs))
	pid := findProcess(t, "sleep", secs)
	c.outR.Close() // nobody reads the answers any more
	c.in.Close()
	if err := c.wait(eofGrace + drainTimeout + 2*time.Second); err != nil {
		t.Logf("Serve = %v", err)
	}
	if !eventually(5*time.Second, func() bool { return !groupAlive(pid) }) {
		t.Errorf("process group %d outlived its client", pid)
	}
}

func TestServeContextEndKillsRunningCommands(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	k := newKernel(t)
	c := serveRaw(t, newServer(t, registry(t, commandTool(t, k, "nap", "sleep {secs}", "secs"))))
	c.initialize()
	secs := uniqueSecs()
	c.callTool(2, "nap", fmt.Sprintf(`{"secs":%q}`, secs))
	pid := findProcess(t, "sleep", secs)
	c.cancel() // SIGTERM in toolgen serve
	if err := c.wait(eofGrace); !errors.Is(err, context.Canceled) {
		t.Errorf("Serve = %v, want context.Canceled", err)
	}
	if groupAlive(pid) {
		t.Errorf("process group %d outlived Serve", pid)
	}
}

func TestServeWithTheSDKClient(t *testing.T) {
	k := newKernel(t)
	reg := registry(t, commandTool(t, k, "echo_word", "echo {word}", "word"))
	srv := newServer(t, reg)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	changed := make(chan struct{}, 1)
	client := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := client.Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW},
		&sdk.ClientSessionOptions{ProtocolVersion: legacyProtocol})
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, cs, "echo_word", map[string]any{"word": "hi"}); text(t, res) != "exit: 0\noutput: hi\n" {
		t.Errorf("call: %q", text(t, res))
	}
	if err := reg.ReplaceGroup("dir", []tool.Entry{{Tool: commandTool(t, k, "echo_two", "echo {a} {b}", "a", "b")}}); err != nil {
		t.Fatal(err)
	}
	srv.Sync()
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no list_changed")
	}
	if res := call(t, cs, "echo_two", map[string]any{"a": "1", "b": "2"}); text(t, res) != "exit: 0\noutput: 1 2\n" {
		t.Errorf("new tool: %q", text(t, res))
	}
	cs.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the client closed")
	}
}

// TestDecodeMessageMatchesTheSDK checks that the transport's decoder takes
// and refuses what jsonrpc.DecodeMessage does, with the same result.
func TestDecodeMessageMatchesTheSDK(t *testing.T) {
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,2]}}}`,
		`{"jsonrpc":"2.0","id":"abc","method":"ping"}`,
		`{"jsonrpc":"2.0","id":-7,"method":"ping","params":null}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":null,"method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","method":""}`,
		`{"jsonrpc":"2.0","id":4,"result":{"roots":[]}}`,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"nope","data":{"x":1}}}`,
		`{"jsonrpc":"2.0","id":6,"error":null,"result":{}}`,
		`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":5}`,
		`{"jsonrpc":2,"id":1,"method":"ping"}`,
		`"ping"`,
		`42`,
		`null`,
	} {
		want, wantErr := jsonrpc.DecodeMessage([]byte(in))
		got, gotErr := decodeMessage([]byte(in))
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("%s: SDK error %v, ours %v", in, wantErr, gotErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		w, _ := jsonrpc.EncodeMessage(want)
		g, _ := jsonrpc.EncodeMessage(got)
		if !bytes.Equal(w, g) {
			t.Errorf("%s:\n SDK  %s\n ours %s", in, w, g)
		}
	}
}
