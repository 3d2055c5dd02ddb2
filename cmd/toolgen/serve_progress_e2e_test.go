package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// tickerMain is the toolgen-ticker helper (TestMain).
func tickerMain() {
	n, err := strconv.Atoi(os.Args[len(os.Args)-1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: toolgen-ticker N")
		os.Exit(2)
	}
	for i := 1; i <= n; i++ {
		fmt.Printf("tick %d\n", i)
		fmt.Fprintf(os.Stderr, "warn %d\n", i)
		if i < n {
			time.Sleep(250 * time.Millisecond)
		}
	}
	os.Exit(0)
}

// tickerTools returns a workspace and a tools directory holding "ticker",
// a descriptor that runs a copy of this test binary as toolgen-ticker (the
// name picks the helper), with stderr kept apart and a timeout of its own.
// Its servers run with --memory-limit none: a test binary built with
// -race reserves more address space than the default cap.
func tickerTools(t *testing.T) (ws, tools string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "toolgen-ticker")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	ws, tools = t.TempDir(), filepath.Join(t.TempDir(), "tools")
	writeTestFile(t, filepath.Join(tools, "ticker.tool.json"), `{
  "name": "ticker",
  "description": "Print a tick every quarter of a second",
  "command": "`+bin+` {n}",
  "arguments": {"n": {"type": "integer", "description": "How many ticks", "required": true}},
  "timeout": "3m",
  "stderr": "separate"
}
`)
	return ws, tools
}

// progressSink collects the notifications/progress a client receives.
type progressSink struct {
	mu   sync.Mutex
	got  []*sdk.ProgressNotificationParams
	seen chan struct{} // one value per notification, never blocking
}

func newProgressSink() *progressSink { return &progressSink{seen: make(chan struct{}, 1000)} }

func (p *progressSink) handler(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	p.mu.Lock()
	p.got = append(p.got, req.Params)
	p.mu.Unlock()
	select {
	case p.seen <- struct{}{}:
	default:
	}
}

func (p *progressSink) list() []*sdk.ProgressNotificationParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*sdk.ProgressNotificationParams(nil), p.got...)
}

// TestServeProgressEndToEnd: a long call of "toolgen serve", over stdio and
// over HTTP, sends notifications/progress about every second to a go-sdk
// client that gave a progress token, with the output so far; none without
// a token, and none after the result.
func TestServeProgressEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the toolgen binary")
	}
	bin := builtToolgen(t)
	t.Run("stdio", func(t *testing.T) {
		ws, tools := tickerTools(t)
		sink := newProgressSink()
		cs, _, _ := startClient(t, bin, "", &sdk.ClientOptions{ProgressNotificationHandler: sink.handler},
			"--tools", tools, "--workspace", ws, "--memory-limit", "none")
		checkProgress(t, cs, sink)
		checkProgressCancelled(t, cs, sink)
	})
	t.Run("http", func(t *testing.T) {
		ws, tools := tickerTools(t)
		s := startHTTP(t, bin, []string{"TOOLGEN_TOKEN="}, "--no-token", "--tools", tools, "--workspace", ws, "--memory-limit", "none")
		sink := newProgressSink()
		cs, err := connectHTTP(t, s.endpoint, "", &sdk.ClientOptions{ProgressNotificationHandler: sink.handler})
		if err != nil {
			t.Fatal(err)
		}
		checkProgress(t, cs, sink)
	})
}

// checkProgress calls ticker for about 2.5 s with a progress token and
// checks what came, then calls it without one.
func checkProgress(t *testing.T, cs *sdk.ClientSession, sink *progressSink) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	params := &sdk.CallToolParams{Name: "ticker", Arguments: map[string]any{"n": 11}}
	params.SetProgressToken("tick-token")
	start := time.Now()
	res, err := cs.CallTool(ctx, params)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	atReturn := len(sink.list())
	text := res.Content[0].(*sdk.TextContent).Text
	if res.IsError || !strings.HasPrefix(text, "exit: 0\nstdout: tick 1\ntick 2\n") || !strings.Contains(text, "tick 11\nstderr: warn 1\n") {
		t.Errorf("result (isError %v):\n%s", res.IsError, text)
	}
	var out struct {
		Output string  `json:"output"`
		Stderr *string `json:"stderr"`
	}
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, &out); err != nil || !strings.HasSuffix(out.Output, "tick 11\n") || out.Stderr == nil || !strings.HasSuffix(*out.Stderr, "warn 11\n") {
		t.Errorf("structured content %s: want stdout in output and stderr apart", data)
	}
	// About one a second: the ticks alone take 2.5 s, so at least 2; a
	// loaded machine stretches the call, and the count with it.
	got := sink.list()
	if most := int(took/tool.ProgressInterval) + 1; len(got) < 2 || len(got) > most {
		t.Fatalf("%d progress notifications over a call of %v, want 2 to %d (about one a second)", len(got), took, most)
	}
	for i, p := range got {
		if p.ProgressToken != "tick-token" {
			t.Errorf("notification %d: token %v", i, p.ProgressToken)
		}
		if p.Progress < 1 || (i > 0 && p.Progress <= got[i-1].Progress) {
			t.Errorf("notification %d: progress %v does not grow from a second on", i, p.Progress)
		}
		if !strings.Contains(p.Message, "bytes of output in") || !strings.Contains(p.Message, "last lines:\n") ||
			!strings.Contains(p.Message, "tick ") || !strings.Contains(p.Message, "warn ") {
			t.Errorf("notification %d: message %q lacks the output so far", i, p.Message)
		}
	}
	time.Sleep(1500 * time.Millisecond)
	if n := len(sink.list()); n != atReturn {
		t.Errorf("%d progress notifications after the result", n-atReturn)
	}
	// No token, no notification.
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ticker", Arguments: map[string]any{"n": 7}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(sink.list()); n != atReturn {
		t.Errorf("%d progress notifications for a call without a progress token", n-atReturn)
	}
}

// checkProgressCancelled cancels a reporting call once its first
// notification came: the call ends at once and reports nothing more.
func checkProgressCancelled(t *testing.T, cs *sdk.ClientSession, sink *progressSink) {
	t.Helper()
	for len(sink.seen) > 0 {
		<-sink.seen
	}
	before := len(sink.list())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	params := &sdk.CallToolParams{Name: "ticker", Arguments: map[string]any{"n": 400}}
	params.SetProgressToken(7)
	done := make(chan error, 1)
	var early *sdk.CallToolResult
	go func() {
		res, err := cs.CallTool(ctx, params)
		early = res
		done <- err
	}()
	select {
	case <-sink.seen:
	case err := <-done:
		data, _ := json.Marshal(early)
		t.Fatalf("a call of 100 s returned before its first progress notification: %v %s", err, data)
	case <-time.After(60 * time.Second): // a second, unless the machine is starved
		t.Fatal("no progress notification for 60 s from a call of 100 s")
	}
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("the cancelled call returned no error")
		}
	case <-time.After(30 * time.Second): // at once, unless the machine is starved
		t.Fatal("the cancelled call did not return")
	}
	time.Sleep(500 * time.Millisecond) // let a late one arrive, if the server sent one
	afterCancel := len(sink.list())
	time.Sleep(2 * time.Second)
	if n := len(sink.list()); n != afterCancel {
		t.Errorf("%d progress notifications over 2 s after the cancelled call ended", n-afterCancel)
	}
	if afterCancel-before > 2 {
		t.Errorf("%d progress notifications for a call cancelled after its first", afterCancel-before)
	}
	// The server is still there, and the next call runs.
	if text, isErr := callText(t, cs, "ticker", map[string]any{"n": 1}); isErr || !strings.HasPrefix(text, "exit: 0\nstdout: tick 1\n") {
		t.Errorf("after cancelling: %q", text)
	}
}
