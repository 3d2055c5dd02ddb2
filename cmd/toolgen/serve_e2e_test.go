package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	bin := builtToolgen(t)
	t.Run("tools", func(t *testing.T) { testServeTools(t, bin) })
	t.Run("cancel", func(t *testing.T) { testServeCancel(t, bin) })
	t.Run("watch", func(t *testing.T) { testServeWatch(t, bin) })
	t.Run("malformed", func(t *testing.T) { testServeMalformed(t, bin) })
	t.Run("client-vanishes", func(t *testing.T) { testServeClientVanishes(t, bin) })
	t.Run("sigterm", func(t *testing.T) { testServeSigterm(t, bin) })
}

// builtToolgen returns the toolgen binary built once per test binary
// (toolgenBinary, startup_bench_test.go), failing the test when it cannot
// be built.
func builtToolgen(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv(scriptToolgenEnv); bin != "" {
		return bin // .ci/unprivileged's, built as root
	}
	bin, err := toolgenBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
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

// tryCall is callText for goroutines: a protocol error is returned as text
// ("protocol error: ...") instead of failing the test.
func tryCall(cs *sdk.ClientSession, name string, args any) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "protocol error: " + err.Error(), true
	}
	if len(res.Content) != 1 {
		return fmt.Sprintf("%d contents", len(res.Content)), true
	}
	tc, _ := res.Content[0].(*sdk.TextContent)
	if tc == nil {
		return "not text", true
	}
	return tc.Text, res.IsError
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
	cs, server, _ := startClient(t, bin, "", nil, "--tools", tools, "--workspace", ws)

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

	// The server is toolgen's own small process: it forks its calls
	// itself, with no spawner process beside it.
	if n := spawnersOf(server.Process.Pid); n > 0 {
		t.Errorf("toolgen serve started %d spawner processes; it forks its calls itself", n)
	}
}

// spawnersOf counts the children of pid that are a kernel's spawner
// process.
func spawnersOf(pid int) int {
	n := 0
	procs(func(p, _ int, _ string) {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
		if err != nil {
			return
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) && isSpawner(strconv.Itoa(p)) {
			n++
		}
	})
	return n
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

// e2eToken is the bearer token of the HTTP tests (at least 16 characters).
const e2eToken = "e2e-token-0123456789abcdef"

// TestServeHTTPEndToEnd drives "toolgen serve --http", the real binary, with
// the go-sdk client over Streamable HTTP. Under -short it uses the test
// binary (TestMain puts it on PATH as toolgen: the same run function);
// otherwise the binary built once by toolgenBinary.
func TestServeHTTPEndToEnd(t *testing.T) {
	bin := ""
	if testing.Short() {
		var err error
		if bin, err = exec.LookPath("toolgen"); err != nil {
			t.Skip("no toolgen on PATH")
		}
	} else {
		bin = builtToolgen(t)
	}
	t.Run("auth-and-audit", func(t *testing.T) { testHTTPAuthAndAudit(t, bin) })
	t.Run("origin", func(t *testing.T) { testHTTPOrigin(t, bin) })
	// The rest take seconds under -race; their in-process twins in
	// runtime/mcp (TestHTTPListChangedAfterSync, TestHTTPDrain,
	// TestHTTPStatelessReplicasBehindAProxy) run in every mode.
	slow := func(name string, f func(*testing.T, string)) {
		t.Run(name, func(t *testing.T) {
			if testing.Short() {
				t.Skip("slow: runs in make test-all")
			}
			f(t, bin)
		})
	}
	slow("watch", testHTTPWatch)
	slow("replicas", testHTTPReplicas)
	slow("sigterm", testHTTPSigterm)
	slow("1000-calls", testHTTP1000Calls)
}

// httpServer is one "toolgen serve --http" process.
type httpServer struct {
	cmd      *exec.Cmd
	endpoint string
	stderr   *syncBuffer
	exited   chan struct{}
}

// startHTTP starts "toolgen serve --http 127.0.0.1:0 ARGS" with env added
// to its environment and waits until it listens.
func startHTTP(t *testing.T, bin string, env []string, args ...string) *httpServer {
	t.Helper()
	return startServeHTTP(t, bin, env, append([]string{"--http", "127.0.0.1:0"}, args...)...)
}

// startServeHTTP starts "toolgen serve ARGS" (ARGS hold --http) with env
// added to its environment and waits until it listens; endpoint is what
// follows "listening on" (http://HOST:PORT/mcp, or unix:PATH).
func startServeHTTP(t *testing.T, bin string, env []string, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	s := &httpServer{cmd: cmd, stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-s.exited
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr)
		}
	})
	ok := eventually(20*time.Second, func() bool {
		for _, line := range strings.Split(s.stderr.String(), "\n") {
			if _, rest, found := strings.Cut(line, "listening on "); found {
				s.endpoint, _, _ = strings.Cut(rest, " ")
				return true
			}
		}
		return false
	})
	if !ok {
		t.Fatalf("the server did not start listening:\n%s", s.stderr)
	}
	return s
}

// exit sends sig (unless 0) and waits for the exit code.
func (s *httpServer) exit(t *testing.T, sig syscall.Signal, d time.Duration) int {
	t.Helper()
	if sig != 0 {
		s.cmd.Process.Signal(sig)
	}
	select {
	case <-s.exited:
		return s.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		t.Fatalf("the server still runs %v after %v", d, sig)
	}
	return -1
}

// tokenTransport adds a bearer token to every request.
type tokenTransport struct{ token string }

func (tt tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+tt.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects the go-sdk client to endpoint, sending token unless
// it is "".
func connectHTTP(t *testing.T, endpoint, token string, opts *sdk.ClientOptions) (*sdk.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = tokenTransport{token}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e-http", Version: "1"}, opts).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1},
		&sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// rawPost posts an initialize request with the given headers.
func rawPost(t *testing.T, endpoint string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func writeToken(t *testing.T) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "token")
	writeTestFile(t, f, e2eToken+"\n")
	return f
}

// auditRecord is one line of the audit log, as the tests read it.
type auditRecord struct {
	Seq       uint64          `json:"seq"`
	Event     string          `json:"event"` // a line that records no call (a rotation)
	Transport string          `json:"transport"`
	Session   string          `json:"session"`
	Tool      string          `json:"tool"`
	Form      string          `json:"form"`
	Args      json.RawMessage `json:"args"`
	Argv      []string        `json:"argv"`
	Code      int             `json:"code"`
	Rule      string          `json:"rule"`
	Exit      *int            `json:"exit"`
	Killed    bool            `json:"killed"`
	Confine   string          `json:"confine"`
}

func readAudit(t *testing.T, path string) []auditRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []auditRecord
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		var r auditRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

func testHTTPAuthAndAudit(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	s := startHTTP(t, bin, nil, "--token-file", writeToken(t), "--tools", tools, "--workspace", ws,
		"--confine", "off", "--audit", log)
	if !strings.Contains(s.stderr.String(), "bearer token required") {
		t.Errorf("stderr does not say the token is required:\n%s", s.stderr)
	}

	// Refused: no token, a wrong one; 401 with no detail.
	if _, err := connectHTTP(t, s.endpoint, "", nil); err == nil {
		t.Error("connected without the token")
	}
	for _, auth := range []string{"", "Bearer wrong", "Bearer " + e2eToken + "0", "Basic " + e2eToken} {
		code, body := rawPost(t, s.endpoint, map[string]string{"Authorization": auth})
		if code != http.StatusUnauthorized || body != "Unauthorized\n" {
			t.Errorf("Authorization %q: %d %q, want 401 \"Unauthorized\\n\"", auth, code, body)
		}
	}

	// Accepted: a sequence of calls, each checked in the audit log below.
	cs, err := connectHTTP(t, s.endpoint, e2eToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	type made struct {
		tool, args string
		code       int
		exit       int
	}
	calls := []made{
		{"grep_text", `{"pattern":"needle","path":"."}`, 0, 0},
		{"grep_text", `{"pattern":"-e","path":"."}`, 614, -1},
		{"sed_print", `{"range":"1","path":"a.txt"}`, 0, 0},
		{"find_files", `{"path":"../..","pattern":"x"}`, 614, -1},
		{"grep_text", `{"pattern":"absent","path":"."}`, 0, 1},
		{"nap", `{"secs":0}`, 0, 0},
	}
	for _, c := range calls {
		var args map[string]any
		json.Unmarshal([]byte(c.args), &args)
		text, isErr := callText(t, cs, c.tool, args)
		if isErr != (c.code != 0) {
			t.Errorf("%s %s: isError=%v: %s", c.tool, c.args, isErr, text)
		}
	}
	// A tool the server does not serve (the model probing for exec) reaches
	// no tool, and is recorded all the same.
	if text, failed := tryCall(cs, "exec", map[string]any{"command": "id"}); !failed || !strings.Contains(text, "unknown tool") {
		t.Errorf("an unknown tool: %q", text)
	}
	if code := s.exit(t, syscall.SIGTERM, 15*time.Second); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	recs := readAudit(t, log)
	if len(recs) != len(calls)+1 {
		t.Fatalf("%d audit lines for %d calls", len(recs), len(calls)+1)
	}
	if r := recs[len(calls)]; r.Tool != "exec" || r.Rule != "unknown tool" || r.Session != recs[0].Session || len(r.Argv) > 0 {
		t.Errorf("the unknown tool's audit line: %+v", r)
	}
	recs = recs[:len(calls)]
	for i, c := range calls {
		r := recs[i]
		var want, got any
		json.Unmarshal([]byte(c.args), &want)
		json.Unmarshal(r.Args, &got)
		switch {
		case r.Seq != uint64(i+1), r.Tool != c.tool, !reflect.DeepEqual(got, want), r.Code != c.code,
			r.Transport != "http", r.Session == "", r.Session != recs[0].Session, r.Confine != "off":
			t.Errorf("audit line %d = %+v, args %s; want the call %+v over http in one session", i+1, r, r.Args, c)
		case c.code == 0 && (r.Exit == nil || *r.Exit != c.exit || len(r.Argv) == 0 || !filepath.IsAbs(r.Argv[0])):
			t.Errorf("audit line %d: exit %v argv %q, want exit %d and the argv that ran", i+1, r.Exit, r.Argv, c.exit)
		case c.code != 0 && (r.Exit != nil || len(r.Argv) > 0 || r.Rule == ""):
			t.Errorf("audit line %d: a refusal with exit %v argv %q rule %q", i+1, r.Exit, r.Argv, r.Rule)
		}
	}
}

func testHTTPOrigin(t *testing.T, bin string) {
	s := startHTTP(t, bin, []string{"TOOLGEN_TOKEN=" + e2eToken}, "--workspace", t.TempDir())
	auth := "Bearer " + e2eToken
	for origin, want := range map[string]int{
		"http://evil.example": http.StatusForbidden,
		"null":                http.StatusForbidden,
		strings.Replace(s.endpoint, "/mcp", "", 1):        http.StatusOK,
		strings.Replace(s.endpoint, "http:", "https:", 1): http.StatusForbidden,
	} {
		code, body := rawPost(t, s.endpoint, map[string]string{"Authorization": auth, "Origin": strings.TrimSuffix(origin, "/mcp")})
		if code != want {
			t.Errorf("Origin %q: %d %q, want %d", origin, code, body, want)
		}
	}
}

func testHTTPWatch(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	s := startHTTP(t, bin, nil, "--no-token", "--tools", tools, "--workspace", ws, "--watch")
	if !strings.Contains(s.stderr.String(), "no token (--no-token): every local account can call") {
		t.Errorf("stderr does not say it listens on loopback only:\n%s", s.stderr)
	}
	changed := make(chan struct{}, 10)
	cs, err := connectHTTP(t, s.endpoint, "", &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the client opens its server-to-client stream asynchronously
	writeTestFile(t, filepath.Join(tools, "shout.tool.json"), `{
  "name": "shout",
  "description": "Echo a word",
  "command": "echo {word}",
  "arguments": {"word": {"type": "string", "description": "Word", "required": true}}
}
`)
	select {
	case <-changed:
	case <-time.After(15 * time.Second):
		t.Fatal("no list_changed after a descriptor was dropped in")
	}
	if !slices.Contains(toolNames(t, cs), "shout") {
		t.Fatalf("tools after the drop: %v", toolNames(t, cs))
	}
	if text, isErr := callText(t, cs, "shout", map[string]any{"word": "hey"}); isErr || !strings.Contains(text, "output: hey") {
		t.Errorf("shout: %q isError=%v", text, isErr)
	}
}

func testHTTPReplicas(t *testing.T, bin string) {
	dir := t.TempDir()
	var backends []*url.URL
	var logs []string
	for i := range 2 {
		log := filepath.Join(dir, fmt.Sprintf("audit%d.jsonl", i))
		logs = append(logs, log)
		s := startHTTP(t, bin, []string{"TOOLGEN_TOKEN=" + e2eToken}, "--stateless", "--workspace", t.TempDir(), "--audit", log)
		u, err := url.Parse(s.endpoint)
		if err != nil {
			t.Fatal(err)
		}
		backends = append(backends, u)
		defer s.exit(t, syscall.SIGTERM, 15*time.Second)
	}
	var next atomic.Int64
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			u := backends[int(next.Add(1)-1)%len(backends)]
			r.SetURL(u)
			r.Out.URL.Path = u.Path
			r.Out.Host = u.Host
		},
		FlushInterval: -1,
	})
	defer proxy.Close()
	cs, err := connectHTTP(t, proxy.URL+"/mcp", e2eToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	for i := range n {
		word := fmt.Sprint("r", i)
		if text, isErr := callText(t, cs, "sed_print", map[string]any{"range": "1", "path": "."}); !isErr {
			_ = text
		}
		if text, isErr := callText(t, cs, "find_files", map[string]any{"path": ".", "pattern": word}); isErr || !strings.HasPrefix(text, "exit: 0") {
			t.Fatalf("call %d through the proxy: %q isError=%v", i, text, isErr)
		}
	}
	cs.Close()
	total := 0
	for i, log := range logs {
		// Every line is written before its answer: no need to stop first.
		recs := readAudit(t, log)
		if len(recs) == 0 {
			t.Errorf("replica %d served no call", i)
		}
		total += len(recs)
	}
	if total != 2*n {
		t.Errorf("%d audit lines across the replicas for %d calls", total, 2*n)
	}
}

func testHTTPSigterm(t *testing.T, bin string) {
	ws, tools := e2eDirs(t)
	s := startHTTP(t, bin, nil, "--no-token", "--tools", tools, "--workspace", ws, "--shutdown-timeout", "1500ms")
	cs, err := connectHTTP(t, s.endpoint, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	// A call that ends within the deadline finishes; one that does not is
	// killed with its process group at the deadline.
	short := make(chan string, 1)
	go func() {
		text, _ := tryCall(cs, "nap", map[string]any{"secs": 1})
		short <- text
	}()
	secs := uniqueSecs()
	long := make(chan string, 1)
	go func() {
		text, _ := tryCall(cs, "nap", map[string]any{"secs": secs})
		long <- text
	}()
	pid := findProcess(t, "sleep", strconv.Itoa(secs))
	findProcess(t, "sleep", "1")
	s.cmd.Process.Signal(syscall.SIGTERM)
	if !eventually(5*time.Second, func() bool { return strings.Contains(s.stderr.String(), "shutting down") }) {
		t.Fatal("no shutdown message")
	}
	if code, _ := rawPost(t, s.endpoint, nil); code != http.StatusServiceUnavailable {
		t.Errorf("a new request while draining: %d, want 503", code)
	}
	if text := <-short; !strings.HasPrefix(text, "exit: 0") {
		t.Errorf("the short call: %q, want it finished", text)
	}
	if text := <-long; !strings.Contains(text, "shut down") {
		t.Errorf("the long call: %q, want it killed at the deadline", text)
	}
	if code := s.exit(t, 0, 10*time.Second); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	if groupAlive(pid) {
		t.Errorf("process group %d outlived the server", pid)
	}
}

// serverFDs counts the open file descriptors of pid.
func serverFDs(t *testing.T, pid int) int {
	t.Helper()
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// childrenOf lists the processes whose parent is pid.
// isSpawner reports whether the process pid is a kernel's spawner process
// (argv[0] "toolgen-spawner"), which lives as long as its kernel by design.
func isSpawner(pid string) bool {
	data, _ := os.ReadFile("/proc/" + pid + "/cmdline")
	argv0, _, _ := strings.Cut(string(data), "\x00")
	return argv0 == "toolgen-spawner"
}

func childrenOf(pid int) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) && !isSpawner(e.Name()) {
			out = append(out, e.Name()+" "+s[:i+1]+" "+f[0])
		}
	}
	return out
}

func testHTTP1000Calls(t *testing.T, bin string) {
	ws := t.TempDir()
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	s := startHTTP(t, bin, nil, "--no-token", "--workspace", ws, "--audit", log, "--audit-max-size", "64K", "--audit-keep", "100")
	pid := s.cmd.Process.Pid
	round := func(clients, per int) int {
		var good atomic.Int64
		var wg sync.WaitGroup
		for c := range clients {
			cs, err := connectHTTP(t, s.endpoint, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range per {
				wg.Go(func() {
					word := fmt.Sprintf("c%di%d", c, i)
					text, isErr := tryCall(cs, "find_files", map[string]any{"path": ".", "pattern": word})
					if !isErr && text == "exit: 0\noutput: " {
						good.Add(1)
					} else {
						t.Errorf("call %s: %q", word, text)
					}
				})
			}
			defer cs.Close()
		}
		wg.Wait()
		return int(good.Load())
	}
	round(2, 2)
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	time.Sleep(200 * time.Millisecond)
	fds := serverFDs(t, pid)
	start := time.Now()
	if ok := round(50, 20); ok != 1000 {
		t.Fatalf("%d of 1000 calls succeeded", ok)
	}
	t.Logf("1000 calls from 50 clients in %v", time.Since(start))
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	if !eventually(10*time.Second, func() bool { return serverFDs(t, pid) <= fds }) {
		t.Errorf("server fds: %d, baseline %d", serverFDs(t, pid), fds)
	}
	if kids := childrenOf(pid); len(kids) > 0 {
		t.Errorf("processes left under the server: %v", kids)
	}
	if code := s.exit(t, syscall.SIGTERM, 15*time.Second); code != 0 {
		t.Errorf("exit code %d", code)
	}
	files, _ := filepath.Glob(log + "*")
	if len(files) < 2 {
		t.Errorf("the log was not rotated: %v", files)
	}
	seen := map[uint64]bool{}
	words := map[string]bool{}
	for _, f := range files {
		for _, r := range readAudit(t, f) {
			if r.Event != "" {
				continue // a rotation's first line, not a call
			}
			seen[r.Seq] = true
			var a struct{ Pattern string }
			json.Unmarshal(r.Args, &a)
			words[a.Pattern] = true
		}
	}
	if len(seen) != 1004 {
		t.Errorf("%d audit lines for 1004 calls", len(seen))
	}
	for c := range 50 {
		for i := range 20 {
			if !words[fmt.Sprintf("c%di%d", c, i)] {
				t.Errorf("no audit line for c%di%d", c, i)
			}
		}
	}
}
