package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// newKernel returns a kernel on a fresh, empty workspace (the shared
// kerneltest setup; the name stays for this package's many callers).
func newKernel(t testing.TB) *kernel.Kernel {
	t.Helper()
	return kerneltest.New(t, nil)
}

// commandTool builds a command tool from a template whose slots are all
// required strings, in the order given.
func commandTool(t testing.TB, k *kernel.Kernel, name, command string, slots ...string) tool.Tool {
	t.Helper()
	spec := tool.Spec{Name: name, Description: "test tool: " + command, Command: command}
	for _, s := range slots {
		spec.Args = append(spec.Args, tool.Arg{Name: s, Type: tool.String, Required: true, Description: "slot " + s})
	}
	b, err := base.New(spec, k)
	if err != nil {
		t.Fatalf("base.New(%s): %v", command, err)
	}
	return b
}

// funcTool is a tool whose Call is a Go function.
type funcTool struct {
	name, desc string
	schema     string
	call       func(ctx context.Context, args json.RawMessage) (string, error)
}

func (f *funcTool) Name() string { return f.name }
func (f *funcTool) Description() string {
	if f.desc == "" {
		return "func tool " + f.name
	}
	return f.desc
}
func (f *funcTool) InputSchema() json.RawMessage {
	if f.schema == "" {
		return json.RawMessage(`{"type":"object"}`)
	}
	return json.RawMessage(f.schema)
}
func (f *funcTool) Call(ctx context.Context, args json.RawMessage) (string, error) {
	return f.call(ctx, args)
}

// registry returns a registry holding tools.
func registry(t testing.TB, tools ...tool.Tool) *tool.Registry {
	t.Helper()
	reg := &tool.Registry{}
	for _, tl := range tools {
		if err := reg.Add(tool.Entry{Tool: tl, Form: tool.FormBuiltin, Source: "test " + tl.Name()}); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// newServer returns a server for reg, failing the test on error.
func newServer(t testing.TB, reg *tool.Registry, opts ...Option) *Server {
	t.Helper()
	srv, err := New(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// legacyProtocol is the newest protocol version with the initialize
// handshake, the one MCP clients speak today. With it the server sends
// notifications/tools/list_changed to every session; with 2026-07-28 only
// to sessions with a subscriptions/listen open, which the SDK client opens
// asynchronously after Connect, so a change right after connecting can be
// missed.
const legacyProtocol = "2025-11-25"

// connect starts an in-memory session with srv and returns the client side;
// the session is closed when the test ends. The client speaks the SDK's
// latest protocol version.
func connect(t testing.TB, srv *Server, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	return connectVersion(t, srv, opts, "")
}

// connectVersion is connect with the client speaking protocol version v.
func connectVersion(t testing.TB, srv *Server, opts *sdk.ClientOptions, v string) *sdk.ClientSession {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := client.Connect(context.Background(), ct, &sdk.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call calls name with args and fails the test on a protocol error.
func call(t testing.TB, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// text returns the text of a result's single TextContent.
func text(t testing.TB, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("result has %d contents, want 1: %+v", len(res.Content), res.Content)
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("content is %T, want *TextContent", res.Content[0])
	}
	return tc.Text
}

// eventually polls cond every 5ms until it holds or d passes.
func eventually(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// procStat is what /proc/PID/stat says about a process.
type procStat struct {
	pid, ppid, pgrp int
	state           string
}

// processes lists every process visible in /proc.
func processes() []procStat {
	ents, _ := os.ReadDir("/proc")
	var out []procStat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		out = append(out, procStat{pid: pid, ppid: ppid, pgrp: pgrp, state: f[0]})
	}
	return out
}

// groupAlive reports whether any process is in process group pgid.
func groupAlive(pgid int) bool {
	for _, p := range processes() {
		if p.pgrp == pgid {
			return true
		}
	}
	return false
}

// children returns the processes whose parent is this test binary.
func children() []procStat {
	var out []procStat
	for _, p := range processes() {
		if p.ppid == os.Getpid() && !isSpawner(p.pid) {
			out = append(out, p)
		}
	}
	return out
}

// isSpawner reports whether the process pid is a kernel's spawner process
// (argv[0] "toolgen-spawner"), which lives as long as its kernel by design.
func isSpawner(pid int) bool {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	argv0, _, _ := strings.Cut(string(data), "\x00")
	return argv0 == "toolgen-spawner"
}

// findProcess waits until a process runs the binary named name (any
// directory) with exactly args, and returns its pid.
func findProcess(t testing.TB, name string, args ...string) int {
	t.Helper()
	want := strings.Join(args, "\x00") + "\x00"
	var pid int
	ok := eventually(10*time.Second, func() bool {
		for _, p := range processes() {
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.pid))
			if err != nil {
				continue
			}
			argv0, rest, _ := strings.Cut(string(data), "\x00")
			if filepath.Base(argv0) == name && rest == want {
				pid = p.pid
				return true
			}
		}
		return false
	})
	if !ok {
		t.Fatalf("no process %s %q appeared", name, args)
	}
	return pid
}

// newTestLogger returns a logger writing text to buf, under mu.
func newTestLogger(buf *bytes.Buffer, mu *sync.Mutex) *slog.Logger {
	return slog.New(slog.NewTextHandler(lockedWriter{buf, mu}, nil))
}

type lockedWriter struct {
	buf *bytes.Buffer
	mu  *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// uniqueSecs returns a sleep duration no other test uses, so that the
// process running it can be found by its command line.
func uniqueSecs() string {
	secsMu.Lock()
	defer secsMu.Unlock()
	secsNext++
	return strconv.Itoa(1_000_000 + os.Getpid()%100_000*100 + secsNext)
}

var (
	secsMu   sync.Mutex
	secsNext int
)
