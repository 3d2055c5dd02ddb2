package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeEndToEnd builds toolgen once and drives "toolgen serve", a real
// subprocess, over its stdin and stdout: with the go-sdk's client for the
// protocol, and with raw lines for what a broken or vanishing client does.
func TestServeEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the toolgen binary")
	}
	bin := filepath.Join(t.TempDir(), "toolgen")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Run("tools", func(t *testing.T) { testServeTools(t, bin) })
	t.Run("cancel", func(t *testing.T) { testServeCancel(t, bin) })
	t.Run("watch", func(t *testing.T) { testServeWatch(t, bin) })
	t.Run("malformed", func(t *testing.T) { testServeMalformed(t, bin) })
	t.Run("client-vanishes", func(t *testing.T) { testServeClientVanishes(t, bin) })
	t.Run("sigterm", func(t *testing.T) { testServeSigterm(t, bin) })
}

// napDescriptor is a descriptor tool that runs sleep: a long call to cancel.
const napDescriptor = `{
  "name": "nap",
  "description": "Sleep for a number of seconds",
  "command": "sleep {secs}",
  "arguments": {"secs": {"type": "integer", "description": "Seconds to sleep", "required": true}}
}
`

// e2eDirs returns a workspace holding a.txt and a tools directory holding
// the nap descriptor.
func e2eDirs(t *testing.T) (ws, tools string) {
	t.Helper()
	ws = t.TempDir()
	tools = filepath.Join(t.TempDir(), "tools")
	writeTestFile(t, filepath.Join(ws, "a.txt"), "first line\na needle here\n")
	writeTestFile(t, filepath.Join(tools, "nap.tool.json"), napDescriptor)
	return ws, tools
}

func writeTestFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a process's
// stderr and the test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startClient starts "toolgen serve ARGS" and connects the go-sdk client to
// it over its stdio. The client speaks protocol version, or the SDK's latest
// when version is "".
func startClient(t *testing.T, bin, version string, opts *sdk.ClientOptions, args ...string) (*sdk.ClientSession, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Logf("close: %v", err)
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr)
		}
	})
	return cs, cmd, stderr
}

func callText(t *testing.T, cs *sdk.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("CallTool(%s): %d contents", name, len(res.Content))
	}
	return res.Content[0].(*sdk.TextContent).Text, res.IsError
}

func toolNames(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func testServeTools(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	cs, _, _ := startClient(t, bin, "", nil, "--tools", tools, "--workspace", ws)

	names := toolNames(t, cs)
	for _, want := range []string{"grep_text", "find_files", "sed_print", "nap"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("tools/list not sorted: %v", names)
	}

	// "toolgen schema --format mcp" prints exactly what tools/list serves.
	out, err := exec.Command(bin, "schema", "--tools", tools, "--workspace", ws, "--format", "mcp").Output()
	if err != nil {
		t.Fatal(err)
	}
	var exported struct{ Tools []map[string]any }
	if err := json.Unmarshal(out, &exported); err != nil {
		t.Fatal(err)
	}
	listed, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var served []map[string]any
	data, _ := json.Marshal(listed.Tools)
	json.Unmarshal(data, &served)
	if !reflect.DeepEqual(exported.Tools, served) {
		t.Errorf("toolgen schema --format mcp differs from tools/list:\nschema: %v\nserved: %v", exported.Tools, served)
	}

	for _, tc := range []struct {
		form, tool string
		args       any
		want       string
	}{
		{"builtin", "grep_text", map[string]any{"pattern": "needle", "path": "."}, "a.txt:2:a needle here"},
		{"descriptor", "nap", map[string]any{"secs": 0}, "exit: 0\noutput: "},
	} {
		text, isErr := callText(t, cs, tc.tool, tc.args)
		if isErr || !strings.Contains(text, tc.want) || !strings.HasPrefix(text, "exit: 0\n") {
			t.Errorf("%s %s: isError=%v %q, want %q", tc.form, tc.tool, isErr, text, tc.want)
		}
	}

	// Rejections are results with isError, text for the model.
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"metacharacter", map[string]any{"pattern": "x;y"}, `error 614: slot "pattern": character ';' (U+003B SEMICOLON)`},
		{"wrong JSON type", map[string]any{"pattern": 5}, `error 614: slot "pattern"`},
		{"path escape", map[string]any{"pattern": "x", "path": "../.."}, `error 614: slot "path"`},
		{"huge arguments", map[string]any{"pattern": strings.Repeat("a", 2<<20)}, "error 614: arguments are"},
	} {
		text, isErr := callText(t, cs, "grep_text", tc.args)
		if !isErr || !strings.Contains(text, tc.want) {
			t.Errorf("%s: isError=%v %.200q, want %q", tc.name, isErr, text, tc.want)
		}
	}

	// An unknown tool is a protocol error; the server keeps serving.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "no_such_tool"}); err == nil ||
		!strings.Contains(err.Error(), `unknown tool "no_such_tool"`) {
		t.Errorf("unknown tool: %v", err)
	}
	if text, isErr := callText(t, cs, "grep_text", map[string]any{"pattern": "first"}); isErr || !strings.Contains(text, "a.txt:1:") {
		t.Errorf("after errors: %q", text)
	}
}

func testServeCancel(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	cs, _, _ := startClient(t, bin, "", nil, "--tools", tools, "--workspace", ws)
	secs := uniqueSecs()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "nap", Arguments: map[string]any{"secs": secs}})
		done <- err
	}()
	pid := findProcess(t, "sleep", strconv.Itoa(secs))
	cancel()
	if err := <-done; err == nil {
		t.Error("the cancelled call returned no error")
	}
	if !eventually(10*time.Second, func() bool { return !groupAlive(pid) }) {
		t.Fatalf("process group %d alive after the client cancelled", pid)
	}
	if text, isErr := callText(t, cs, "nap", map[string]any{"secs": 0}); isErr {
		t.Errorf("after cancelling: %q", text)
	}
}

func testServeWatch(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	changed := make(chan struct{}, 10)
	cs, _, stderr := startClient(t, bin, "2025-11-25", &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	}, "--tools", tools, "--workspace", ws, "--watch")
	if names := toolNames(t, cs); slices.Contains(names, "count_words") {
		t.Fatalf("count_words before it was written: %v", names)
	}
	waitChange := func(what string, want func([]string) bool) {
		t.Helper()
		deadline := time.After(15 * time.Second)
		for {
			select {
			case <-changed:
				if want(toolNames(t, cs)) {
					return
				}
			case <-deadline:
				t.Fatalf("%s: no list_changed with the expected list; tools: %v", what, toolNames(t, cs))
			}
		}
	}

	writeTestFile(t, filepath.Join(tools, "count-words.tool.json"), `{
  "name": "count_words",
  "description": "Count the words of a file",
  "command": "wc -w {file}",
  "arguments": {"file": {"type": "path", "description": "File", "required": true}}
}
`)
	waitChange("added", func(n []string) bool { return slices.Contains(n, "count_words") })
	if text, isErr := callText(t, cs, "count_words", map[string]any{"file": "a.txt"}); isErr || text != "exit: 0\noutput: 5 a.txt\n" {
		t.Errorf("new tool: isError=%v %q", isErr, text)
	}

	if err := os.Remove(filepath.Join(tools, "count-words.tool.json")); err != nil {
		t.Fatal(err)
	}
	waitChange("removed", func(n []string) bool { return !slices.Contains(n, "count_words") })

	// A broken descriptor is logged (613) and the others keep being served.
	writeTestFile(t, filepath.Join(tools, "remove.tool.json"), `{"name": "remove_it", "description": "Remove a file",
  "command": "rm {file}", "arguments": {"file": {"type": "path", "description": "File", "required": true}}}`)
	if !eventually(15*time.Second, func() bool { return strings.Contains(stderr.String(), "descriptor problem") }) {
		t.Fatalf("no descriptor problem logged:\n%s", stderr)
	}
	if !strings.Contains(stderr.String(), `remove.tool.json`) || !strings.Contains(stderr.String(), "error 613") {
		t.Errorf("problem log:\n%s", stderr)
	}
	if names := toolNames(t, cs); slices.Contains(names, "remove_it") || !slices.Contains(names, "nap") {
		t.Errorf("after a broken descriptor: %v", names)
	}
}

// rawServer is "toolgen serve" driven line by line.
type rawServer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	lines  chan string
	stderr *syncBuffer
}

func startRaw(t *testing.T, bin string, args ...string) *rawServer {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	r := &rawServer{cmd: cmd, lines: make(chan string, 100), stderr: &syncBuffer{}}
	cmd.Stderr = r.stderr
	var err error
	if r.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if r.stdout, err = cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(r.lines)
		sc := bufio.NewScanner(r.stdout)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("server stderr:\n%s", r.stderr)
		}
	})
	return r
}

func (r *rawServer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(r.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (r *rawServer) next(t *testing.T) string {
	t.Helper()
	select {
	case line, ok := <-r.lines:
		if !ok {
			t.Fatal("the server closed stdout")
		}
		return line
	case <-time.After(15 * time.Second):
		t.Fatal("no line from the server")
	}
	return ""
}

// initialize does the handshake of today's MCP clients.
func (r *rawServer) initialize(t *testing.T) {
	t.Helper()
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if line := r.next(t); !strings.Contains(line, `"id":1,"result":{`) || !strings.Contains(line, `"serverInfo":{"name":"toolgen"`) {
		t.Fatalf("initialize: %s", line)
	}
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// exit waits for the server to end on its own and returns its exit code.
func (r *rawServer) exit(t *testing.T, d time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case <-done:
		return r.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		t.Fatalf("the server still runs after %v", d)
	}
	return -1
}

func testServeMalformed(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	r := startRaw(t, bin, "--tools", tools, "--workspace", ws)
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize"`) // cut short
	if line := r.next(t); !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: `) {
		t.Errorf("malformed JSON: %s", line)
	}
	r.send(t, `{"jsonrpc":"1.0","id":5,"method":"ping"}`)
	if line := r.next(t); !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,`) {
		t.Errorf("not JSON-RPC 2.0: %s", line)
	}
	r.initialize(t)
	r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	line := r.next(t)
	// The schema goes out as the tool gives it: slots in declared order.
	if !strings.Contains(line, `"name":"grep_text"`) ||
		!strings.Contains(line, `"properties":{"pattern":{"type":"string"`) {
		t.Errorf("tools/list: %.300s", line)
	}
	r.send(t, `{"jsonrpc":"2.0","id":3,"method":"no/such/method"}`)
	if line := r.next(t); !strings.Contains(line, `"id":3,"error":{"code":-32601`) {
		t.Errorf("unknown method: %s", line)
	}
	r.stdin.Close()
	if code := r.exit(t, 10*time.Second); code != 0 {
		t.Errorf("exit code %d at the end of input, want 0", code)
	}
	if !strings.Contains(r.stderr.String(), "bad message from client") {
		t.Errorf("stderr does not log the bad lines:\n%s", r.stderr)
	}
}

func testServeClientVanishes(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	r := startRaw(t, bin, "--tools", tools, "--workspace", ws)
	r.initialize(t)
	secs := uniqueSecs()
	r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nap","arguments":{"secs":%d}}}`, secs))
	pid := findProcess(t, "sleep", strconv.Itoa(secs))
	r.stdout.Close() // the client is gone: nobody reads, nobody writes
	r.stdin.Close()
	if code := r.exit(t, 10*time.Second); code != 0 {
		t.Errorf("exit code %d when the client vanished, want 0", code)
	}
	if !eventually(5*time.Second, func() bool { return !groupAlive(pid) }) {
		t.Errorf("process group %d outlived its client", pid)
	}
}

func testServeSigterm(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	r := startRaw(t, bin, "--tools", tools, "--workspace", ws)
	r.initialize(t)
	secs := uniqueSecs()
	r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nap","arguments":{"secs":%d}}}`, secs))
	pid := findProcess(t, "sleep", strconv.Itoa(secs))
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := r.exit(t, 10*time.Second); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	if groupAlive(pid) {
		t.Errorf("process group %d outlived the server", pid)
	}
}

// uniqueSecs returns a sleep duration no other running test uses, so the
// process can be found by its command line.
func uniqueSecs() int {
	secsMu.Lock()
	defer secsMu.Unlock()
	secsNext++
	return 2_000_000 + os.Getpid()%100_000*100 + secsNext
}

var (
	secsMu   sync.Mutex
	secsNext int
)

// eventually polls cond every 10ms until it holds or d passes.
func eventually(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// procs calls f with the pid, process group and command line of every
// process in /proc.
func procs(f func(pid, pgrp int, cmdline string)) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		fields := strings.Fields(s[i+1:])
		if i < 0 || len(fields) < 3 {
			continue
		}
		pgrp, _ := strconv.Atoi(fields[2])
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		f(pid, pgrp, string(cmdline))
	}
}

// findProcess waits for a process running the binary name with exactly
// args, and returns its pid.
func findProcess(t *testing.T, name string, args ...string) int {
	t.Helper()
	want := strings.Join(args, "\x00") + "\x00"
	pid := 0
	ok := eventually(15*time.Second, func() bool {
		procs(func(p, _ int, cmdline string) {
			argv0, rest, _ := strings.Cut(cmdline, "\x00")
			if filepath.Base(argv0) == name && rest == want {
				pid = p
			}
		})
		return pid != 0
	})
	if !ok {
		t.Fatalf("no process %s %q appeared", name, args)
	}
	return pid
}

// groupAlive reports whether a process of group pgid still exists.
func groupAlive(pgid int) bool {
	alive := false
	procs(func(_, pgrp int, _ string) {
		if pgrp == pgid {
			alive = true
		}
	})
	return alive
}
