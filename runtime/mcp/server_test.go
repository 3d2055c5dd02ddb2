package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/tool"
)

func TestListGivesSchemasAsTheToolsDo(t *testing.T) {
	k := newKernel(t)
	echo := commandTool(t, k, "echo_pair", "echo {zeta} {alpha}", "zeta", "alpha")
	reg := registry(t, echo, &funcTool{name: "a_func", schema: "{\n  \"type\": \"object\", \"properties\": {}\n}"})
	srv := newServer(t, reg)
	cs := connect(t, srv, nil)

	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "a_func,echo_pair" {
		t.Fatalf("tools = %s, want a_func,echo_pair (sorted)", got)
	}
	if res.Tools[1].Description != echo.Description() {
		t.Errorf("description = %q, want %q", res.Tools[1].Description, echo.Description())
	}

	// The definitions the server serves carry each schema byte for byte
	// (compacted): the properties keep the slots' order.
	defs, errs := Tools(reg)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var want bytes.Buffer
	json.Compact(&want, echo.InputSchema())
	if got := defs[1].InputSchema.(json.RawMessage); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("schema = %s, want %s", got, want.Bytes())
	}
	if got := string(defs[0].InputSchema.(json.RawMessage)); got != `{"type":"object","properties":{}}` {
		t.Errorf("compacted schema = %s", got)
	}
	if !bytes.Contains(want.Bytes(), []byte(`"properties":{"zeta":`)) {
		t.Errorf("schema lost the slot order: %s", want.Bytes())
	}
}

func TestCallResults(t *testing.T) {
	k := newKernel(t)
	reg := registry(t,
		commandTool(t, k, "echo_word", "echo {word}", "word"),
		commandTool(t, k, "fail_cmd", "false"),
		commandTool(t, k, "missing_cmd", "no-such-binary-for-toolgen {word}", "word"),
		&funcTool{name: "panics", call: func(context.Context, json.RawMessage) (string, error) { panic("boom") }},
		&funcTool{name: "args", call: func(_ context.Context, args json.RawMessage) (string, error) { return string(args), nil }},
	)
	srv := newServer(t, reg, WithMaxArgumentBytes(100))
	cs := connect(t, srv, nil)

	tests := []struct {
		name    string
		tool    string
		args    any
		isError bool
		want    string // substring of the text
	}{
		{"ran", "echo_word", map[string]any{"word": "hello"}, false, "exit: 0\noutput: hello\n"},
		{"ran with a failing exit status", "fail_cmd", nil, false, "exit: 1\n"},
		{"rejected value (614)", "echo_word", map[string]any{"word": "a;b"}, true, `error 614: slot "word"`},
		{"wrong JSON type (614)", "echo_word", map[string]any{"word": 5}, true, `error 614: slot "word"`},
		{"missing required (614)", "echo_word", map[string]any{}, true, `error 614: slot "word": required`},
		{"unknown slot (614)", "echo_word", map[string]any{"word": "x", "extra": "y"}, true, "error 614"},
		{"arguments not an object (614)", "echo_word", []int{1}, true, "error 614"},
		{"could not start", "missing_cmd", map[string]any{"word": "x"}, true, "not found"},
		{"panicking tool", "panics", nil, true, "panics: internal error: the tool panicked: boom"},
		{"arguments over the limit", "echo_word", map[string]any{"word": strings.Repeat("x", 200)}, true,
			"the limit is 100: pass large content through a file"},
		{"no arguments are an empty object", "args", nil, false, "{}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, cs, tt.tool, tt.args)
			got := text(t, res)
			if res.IsError != tt.isError || !strings.Contains(got, tt.want) {
				t.Errorf("isError=%v text=%q; want isError=%v and text containing %q", res.IsError, got, tt.isError, tt.want)
			}
		})
	}

	// An unknown tool is a protocol error, and the session goes on.
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nope"})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Errorf("unknown tool: err = %v, want a protocol error naming it", err)
	}
	if res := call(t, cs, "echo_word", map[string]any{"word": "still"}); res.IsError {
		t.Errorf("after an unknown tool: %q", text(t, res))
	}
}

func TestCallsRunConcurrently(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	reg := registry(t,
		&funcTool{name: "slow", call: func(ctx context.Context, _ json.RawMessage) (string, error) {
			close(entered)
			<-release
			return "slow done", nil
		}},
		&funcTool{name: "quick", call: func(context.Context, json.RawMessage) (string, error) { return "quick done", nil }},
	)
	cs := connect(t, newServer(t, reg), nil)
	slow := make(chan string, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "slow"})
		if err != nil {
			slow <- err.Error()
			return
		}
		slow <- res.Content[0].(*sdk.TextContent).Text
	}()
	<-entered
	if got := text(t, call(t, cs, "quick", nil)); got != "quick done" {
		t.Errorf("quick = %q while slow runs", got)
	}
	close(release)
	if got := <-slow; got != "slow done" {
		t.Errorf("slow = %q", got)
	}
}

func TestConcurrentCallLimit(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	var running, peak atomic.Int32
	release := make(chan struct{})
	reg := registry(t, &funcTool{name: "block", call: func(ctx context.Context, _ json.RawMessage) (string, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		select {
		case <-release:
			return "ok", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}})
	cs := connect(t, newServer(t, reg, WithMaxConcurrentCalls(2)), nil)
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "block"}); err != nil {
				t.Error(err)
			}
		})
	}
	if !eventually(5*time.Second, func() bool { return running.Load() == 2 }) {
		t.Fatalf("running = %d, want 2", running.Load())
	}
	time.Sleep(50 * time.Millisecond) // would a third one start?
	close(release)
	wg.Wait()
	if p := peak.Load(); p != 2 {
		t.Errorf("peak concurrency = %d, want 2", p)
	}

	// A call waiting for a slot can be cancelled while it waits.
	hold := make(chan struct{})
	reg2 := registry(t, &funcTool{name: "hold", call: func(ctx context.Context, _ json.RawMessage) (string, error) {
		<-hold
		return "", nil
	}})
	cs2 := connect(t, newServer(t, reg2, WithMaxConcurrentCalls(1)), nil)
	go cs2.CallTool(context.Background(), &sdk.CallToolParams{Name: "hold"})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := cs2.CallTool(ctx, &sdk.CallToolParams{Name: "hold"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting call: err = %v, want the client's deadline", err)
	}
	close(hold)
}

func TestClientCancelCancelsTheCall(t *testing.T) {
	entered := make(chan struct{})
	cause := make(chan error, 1)
	reg := registry(t, &funcTool{name: "wait", call: func(ctx context.Context, _ json.RawMessage) (string, error) {
		close(entered)
		<-ctx.Done()
		cause <- ctx.Err()
		return "", ctx.Err()
	}})
	cs := connect(t, newServer(t, reg), nil)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "wait"})
		errc <- err
	}()
	<-entered
	cancel()
	select {
	case err := <-cause:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("tool ctx ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the tool's context was not cancelled")
	}
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("client: %v", err)
	}
}

func TestClientCancelKillsTheProcessGroup(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	k := newKernel(t)
	reg := registry(t, commandTool(t, k, "nap", "sleep {secs}", "secs"))
	cs := connect(t, newServer(t, reg), nil)
	secs := uniqueSecs()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		cs.CallTool(ctx, &sdk.CallToolParams{Name: "nap", Arguments: map[string]any{"secs": secs}})
	}()
	pid := findProcess(t, "sleep", secs)
	cancel()
	<-done
	if !eventually(5*time.Second, func() bool { return !groupAlive(pid) }) {
		t.Fatalf("process group %d still alive after the client cancelled", pid)
	}
	// The session goes on.
	if res := call(t, cs, "nap", map[string]any{"secs": "0"}); res.IsError {
		t.Errorf("next call: %s", text(t, res))
	}
}

func TestSyncSendsListChanged(t *testing.T) {
	k := newKernel(t)
	reg := registry(t, commandTool(t, k, "echo_word", "echo {word}", "word"))
	srv := newServer(t, reg)
	changed := make(chan struct{}, 10)
	cs := connectVersion(t, srv, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	}, legacyProtocol)
	names := func() string {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name+"="+tl.Description)
		}
		return strings.Join(out, ",")
	}
	expectNotification := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no notifications/tools/list_changed", what)
		}
	}

	if ch := srv.Sync(); !ch.Empty() {
		t.Errorf("Sync with nothing changed = %+v", ch)
	}

	// Added.
	if err := reg.ReplaceGroup("dir", []tool.Entry{{Tool: &funcTool{name: "dropped", desc: "v1",
		call: func(context.Context, json.RawMessage) (string, error) { return "v1", nil }}}}); err != nil {
		t.Fatal(err)
	}
	if ch := srv.Sync(); strings.Join(ch.Added, ",") != "dropped" || len(ch.Removed)+len(ch.Updated) > 0 {
		t.Errorf("Sync = %+v, want dropped added", ch)
	}
	expectNotification("added")
	if got := names(); got != "dropped=v1,echo_word=test tool: echo {word}" {
		t.Errorf("after adding: %s", got)
	}

	// Same definition, other implementation: swapped without a notification.
	if err := reg.ReplaceGroup("dir", []tool.Entry{{Tool: &funcTool{name: "dropped", desc: "v1",
		call: func(context.Context, json.RawMessage) (string, error) { return "v1 again", nil }}}}); err != nil {
		t.Fatal(err)
	}
	if ch := srv.Sync(); !ch.Empty() {
		t.Errorf("Sync after an implementation swap = %+v, want no change", ch)
	}
	if got := text(t, call(t, cs, "dropped", nil)); got != "v1 again" {
		t.Errorf("after the swap the call ran %q", got)
	}

	// Updated.
	if err := reg.ReplaceGroup("dir", []tool.Entry{{Tool: &funcTool{name: "dropped", desc: "v2",
		call: func(context.Context, json.RawMessage) (string, error) { return "v2", nil }}}}); err != nil {
		t.Fatal(err)
	}
	if ch := srv.Sync(); strings.Join(ch.Updated, ",") != "dropped" {
		t.Errorf("Sync = %+v, want dropped updated", ch)
	}
	expectNotification("updated")
	if got := names(); !strings.HasPrefix(got, "dropped=v2,") {
		t.Errorf("after updating: %s", got)
	}

	// Removed: gone from the list, and calling it is an unknown tool.
	if err := reg.ReplaceGroup("dir", nil); err != nil {
		t.Fatal(err)
	}
	if ch := srv.Sync(); strings.Join(ch.Removed, ",") != "dropped" {
		t.Errorf("Sync = %+v, want dropped removed", ch)
	}
	expectNotification("removed")
	if got := names(); got != "echo_word=test tool: echo {word}" {
		t.Errorf("after removing: %s", got)
	}
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "dropped"}); err == nil {
		t.Error("a removed tool can still be called")
	}
}

func TestUnservableSchemaIsLeftOut(t *testing.T) {
	reg := registry(t,
		&funcTool{name: "not_object", schema: `{"type":"string"}`},
		&funcTool{name: "not_json", schema: `{`},
		&funcTool{name: "fine"},
	)
	var logs bytes.Buffer
	var mu sync.Mutex
	srv := newServer(t, reg, WithLogger(newTestLogger(&logs, &mu)))
	cs := connect(t, srv, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "fine" {
		t.Errorf("tools = %+v, want only fine", res.Tools)
	}
	_, errs := Tools(reg)
	if len(errs) != 2 {
		t.Errorf("Tools errors = %v, want 2", errs)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), `tool \"not_object\": input schema must have`) {
		t.Errorf("log = %s", logs.String())
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	reg := &tool.Registry{}
	for name, opt := range map[string]Option{
		"args":    WithMaxArgumentBytes(0),
		"message": WithMaxMessageBytes(-1),
		"calls":   WithMaxConcurrentCalls(0),
	} {
		if _, err := New(reg, opt); err == nil || !strings.HasPrefix(err.Error(), "mcp: ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := New(nil); err == nil {
		t.Error("New(nil) succeeded")
	}
}

func TestHandshakeAdvertisesTools(t *testing.T) {
	// Even with no tools, the tools capability (with listChanged) is there, so
	// a client keeps listening for tools a later Sync adds.
	srv := newServer(t, &tool.Registry{}, WithImplementation("x", "v9"), WithInstructions("hi"))
	cs := connect(t, srv, nil)
	init := cs.InitializeResult()
	if init.Capabilities.Tools == nil || !init.Capabilities.Tools.ListChanged {
		t.Errorf("capabilities = %+v", init.Capabilities)
	}
	if init.ServerInfo.Name != "x" || init.ServerInfo.Version != "v9" || init.Instructions != "hi" {
		t.Errorf("server info = %+v, instructions %q", init.ServerInfo, init.Instructions)
	}
}
