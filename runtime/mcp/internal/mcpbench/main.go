// Command mcpbench measures toolgen serve against the physical floor, in one
// run: a bare os/exec of "echo hi"; the go-sdk's own stdio server with a raw
// tool handler running "echo hi" with os/exec (what the SDK and its client
// cost, nothing of toolgen); then tools/call of a tool running "echo hi"
// through "toolgen serve" over stdio and over Streamable HTTP (loopback),
// each with --confine off and with the default confinement. For each it
// prints the sequential median (one call at a time), the calls/s with 8
// calls in flight, and the server's RSS (current and peak, and with the
// pages it shares with a spawner process counted once, for a server that
// has one: toolgen serve forks its calls itself) after 1,000 calls. With -commands it adds the rows of mcp-server-commands (the npm
// package: a Node server whose run_command tool runs "echo hi" through
// sh -c), for the same comparison against a server that confines nothing.
// Run it from the module root:
//
//	go run ./runtime/mcp/internal/mcpbench            # builds toolgen first (CGO_ENABLED=0)
//	go run ./runtime/mcp/internal/mcpbench -bin ./toolgen -seq 300 -par 800
//	go run ./runtime/mcp/internal/mcpbench -commands /tmp/n/node_modules/mcp-server-commands/build/index.js
//
// The rows are interleaved so that the load of a shared machine falls on all
// of them alike: every server is started first, then the sequential and the
// concurrent phases alternate batches of calls between the rows. Compare the
// rows of one run, not runs.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	bin := flag.String("bin", "", "toolgen binary to measure (default: CGO_ENABLED=0 go build ./cmd/toolgen into a temporary directory)")
	seq := flag.Int("seq", 200, "sequential calls timed for the median, per row")
	par := flag.Int("par", 800, "calls timed with 8 in flight, per row")
	total := flag.Int("total", 1000, "calls made per server before its RSS is read")
	modes := flag.String("confine", "off,best-effort", "comma-separated --confine modes to measure")
	withAudit := flag.Bool("audit", true, "also measure stdio with --audit FILE")
	commands := flag.String("commands", "", "mcp-server-commands to measure too: its build/index.js (run with node) or an executable")
	flag.Parse()
	if os.Getenv(sdkServerEnv) == "1" {
		serveSDKFloor()
		return
	}
	if err := run(*bin, *commands, *seq, *par, *total, strings.Split(*modes, ","), *withAudit); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

const inFlight = 8

// row is one line of the table: a way to make calls, and what was measured.
type row struct {
	name    string
	callers []func() error               // inFlight callers (clients or sessions)
	rss     func() (int64, int64, int64) // RSS, peak RSS, RSS counting shared pages once, in KiB; nil for the floor
	cpu     func() time.Duration         // CPU time of the server and its reaped children; nil for the floor

	times     []time.Duration // sequential calls
	parCalls  int
	parTime   time.Duration
	rssNow    int64
	rssPeak   int64
	once      int64
	callsMade int
	cpu0      time.Duration // at the end of the warm-up
	cpuUsed   time.Duration // since then, up to total calls
}

func run(bin, commands string, seq, par, total int, modes []string, withAudit bool) error {
	dir, err := os.MkdirTemp("", "mcpbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		bin = filepath.Join(dir, "toolgen")
		fmt.Fprintln(os.Stderr, "building toolgen ...")
		build := exec.Command("go", "build", "-o", bin, "./cmd/toolgen")
		build.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build and the Dockerfile build it
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/toolgen (run from the module root): %v\n%s", err, out)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	ws := filepath.Join(dir, "ws")
	tools := filepath.Join(dir, "tools")
	for _, d := range []string{ws, tools} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	desc := `{"name": "echo_hi", "description": "Print hi", "command": "echo hi", "arguments": {}}` + "\n"
	if err := os.WriteFile(filepath.Join(tools, "echo-hi.tool.json"), []byte(desc), 0o644); err != nil {
		return err
	}

	var cleanup []func()
	defer func() {
		for _, f := range slices.Backward(cleanup) {
			f()
		}
	}()
	floor := &row{name: "floor: os/exec echo hi"}
	for range inFlight {
		floor.callers = append(floor.callers, execEcho)
	}
	rows := []*row{floor}
	add := func(name, bin, transport string, args []string) error {
		r, stop, err := startServer(serverCmd(bin, args), transport, toolgenEcho)
		cleanup = append(cleanup, stop)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		r.name = name
		rows = append(rows, r)
		return nil
	}
	if err := add("go-sdk stdio server running os/exec", self, "stdio", nil); err != nil {
		return err
	}
	if err := add("go-sdk stdio server, raw client", self, "stdio-raw", nil); err != nil {
		return err
	}
	if commands != "" {
		for _, transport := range []string{"stdio", "stdio-raw"} {
			r, stop, err := startServer(commandsCmd(commands), transport, commandsEcho)
			cleanup = append(cleanup, stop)
			if err != nil {
				return fmt.Errorf("mcp-server-commands: %w", err)
			}
			r.name = "mcp-server-commands " + strings.Replace(transport, "-raw", ", raw client", 1) + " (node, sh -c)"
			rows = append(rows, r)
		}
	}
	for _, mode := range modes {
		mode = strings.TrimSpace(mode)
		args := []string{"serve", "--tools", tools, "--workspace", ws, "--confine", mode, "--no-builtins"}
		for _, transport := range []string{"stdio", "stdio-raw", "http"} {
			if err := add(fmt.Sprintf("toolgen serve %s --confine %s", strings.Replace(transport, "-raw", ", raw client,", 1), mode), bin, transport, args); err != nil {
				return err
			}
		}
		if withAudit {
			log := filepath.Join(dir, "audit-"+mode+".jsonl")
			if err := add(fmt.Sprintf("toolgen serve stdio --confine %s --audit", mode), bin, "stdio",
				append(slices.Clone(args), "--audit", log)); err != nil {
				return err
			}
		}
	}
	load0 := loadAvg()
	if err := measure(rows, seq, par, total); err != nil {
		return err
	}
	report(rows, floor, seq, par, total, load0, loadAvg())
	return nil
}

// execEcho is one call of the floor.
func execEcho() error {
	out, err := exec.Command("echo", "hi").Output()
	if err == nil && string(out) != "hi\n" {
		err = fmt.Errorf("output %q", out)
	}
	return err
}

// measure makes the calls of every row, interleaved: a warm-up, seq
// sequential calls per row in batches of 20 alternating between rows (back
// to back within a batch, so a server does not go idle between its timed
// calls), the concurrent phase in batches of 100 alternating the same way, then calls up to total per row, and reads each
// server's RSS.
func measure(rows []*row, seq, par, total int) error {
	for _, r := range rows {
		for range 20 {
			if err := r.callers[0](); err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
		}
		r.callsMade = 20
		if r.cpu != nil {
			r.cpu0 = r.cpu()
		}
	}
	const batch = 20 // sequential calls per row in a row, then the next row
	for done := 0; done < seq; done += batch {
		for _, r := range rows {
			for range min(batch, seq-done) {
				start := time.Now()
				if err := r.callers[0](); err != nil {
					return fmt.Errorf("%s: %w", r.name, err)
				}
				r.times = append(r.times, time.Since(start))
				r.callsMade++
			}
		}
	}
	const parBatch = 100
	for done := 0; done < par; done += parBatch {
		n := min(parBatch, par-done)
		for _, r := range rows {
			elapsed, err := concurrently(r.callers, n)
			if err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
			r.parTime += elapsed
			r.parCalls += n
			r.callsMade += n
		}
	}
	for _, r := range rows {
		for ; r.callsMade < total; r.callsMade++ {
			if err := r.callers[r.callsMade%inFlight](); err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
		}
		if r.rss != nil {
			r.rssNow, r.rssPeak, r.once = r.rss()
		}
		if r.cpu != nil {
			r.cpuUsed = r.cpu() - r.cpu0
		}
	}
	return nil
}

// concurrently makes n calls with every caller in flight at once and returns
// how long they took.
func concurrently(callers []func() error, n int) (time.Duration, error) {
	var left atomic.Int64
	left.Store(int64(n))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	start := time.Now()
	for _, c := range callers {
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				if err := c(); err != nil {
					mu.Lock()
					first = cmpOr(first, err)
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start), first
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func report(rows []*row, floor *row, seq, par, total int, load0, load1 string) {
	median := func(r *row) time.Duration {
		t := slices.Clone(r.times)
		slices.Sort(t)
		return t[len(t)/2]
	}
	rate := func(r *row) float64 { return float64(r.parCalls) / r.parTime.Seconds() }
	fm, fr := median(floor), rate(floor)
	w := 0
	for _, r := range rows {
		w = max(w, len(r.name))
	}
	fmt.Printf("%-*s %11s %10s %11s %8s %13s %8s %13s\n", w, "", "seq median", "Δ floor", "calls/s @8", "% floor", "RSS/peak MiB", "once MiB", "CPU µs/call")
	for _, r := range rows {
		rss, once, cpu := "-", "-", "-"
		if r.rss != nil {
			rss = fmt.Sprintf("%.1f/%.1f", float64(r.rssNow)/1024, float64(r.rssPeak)/1024)
			once = fmt.Sprintf("%.1f", float64(r.once)/1024)
			cpu = fmt.Sprintf("%.0f", float64(r.cpuUsed.Microseconds())/float64(r.callsMade-20))
		}
		m := median(r)
		fmt.Printf("%-*s %9.3fms %+8.3fms %11.0f %7.0f%% %13s %8s %13s\n", w, r.name, ms(m), ms(m-fm), rate(r), 100*rate(r)/fr, rss, once, cpu)
	}
	fmt.Printf("(rows interleaved: %d sequential calls per row for the medians in batches of 20, %d calls per row with %d in flight in batches of 100, RSS after %d calls per server, "+
		"summed over the server and its spawner process where it has one (toolgen serve forks its calls itself); once: the server's RSS and a spawner's private pages, "+
		"the pages they share counted once; load average %s before, %s after)\n",
		seq, par, inFlight, total, load0, load1)
}

// loadAvg returns the 1-minute load average, to say how noisy a run was.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// echoTool is how a server's tool that runs "echo hi" is called, and what
// its result's first text must be.
type echoTool struct {
	name string
	args map[string]any
	ok   func(text string) bool
}

// toolgenEcho is the echo_hi tool of the servers toolgen generates and of
// the go-sdk floor.
var toolgenEcho = echoTool{name: "echo_hi", args: map[string]any{},
	ok: func(text string) bool { return strings.HasPrefix(text, "exit: 0\noutput: hi\n") }}

// commandsEcho is mcp-server-commands' run_command of "echo hi" (its
// first text is the command's stdout).
var commandsEcho = echoTool{name: "run_command", args: map[string]any{"command": "echo hi"},
	ok: func(text string) bool { return text == "hi\n" }}

// commandsCmd is the command of the mcp-server-commands server at path.
func commandsCmd(path string) *exec.Cmd {
	if strings.HasSuffix(path, ".js") {
		return exec.Command("node", path)
	}
	return exec.Command(path)
}

// startServer starts one server (cmd; for http, toolgen's serve command
// line, to which it adds the listening flags) and connects one session to
// it; the returned row's callers share that session (8 calls in flight on
// it) and call tool. stop ends the session and the server; it is never nil.
func startServer(cmd *exec.Cmd, transport string, tool echoTool) (*row, func(), error) {
	var stops []func()
	stop := func() {
		for _, f := range slices.Backward(stops) {
			f()
		}
	}
	if transport == "stdio-raw" {
		return startRaw(cmd, tool)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "mcpbench", Version: "1"}, nil)
	var cs *sdk.ClientSession
	var pid int
	switch transport {
	case "stdio":
		var err error
		if cs, err = client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil); err != nil {
			return nil, stop, err
		}
		pid = cmd.Process.Pid
	case "http":
		cmd.Args = append(cmd.Args, "--http", "127.0.0.1:0", "--no-token")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			return nil, stop, err
		}
		if err := cmd.Start(); err != nil {
			return nil, stop, err
		}
		pid = cmd.Process.Pid
		stops = append(stops, func() {
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		})
		endpoint, err := listening(stderr)
		if err != nil {
			return nil, stop, err
		}
		hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
		if cs, err = client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc,
			DisableStandaloneSSE: true}, nil); err != nil {
			return nil, stop, err
		}
	}
	stops = append(stops, func() { cs.Close() })
	r := &row{rss: func() (int64, int64, int64) { return rssOf(pid) }, cpu: func() time.Duration { return cpuOf(pid) }}
	for range inFlight {
		r.callers = append(r.callers, callEcho(cs, tool))
	}
	return r, stop, nil
}

// callEcho returns a caller of tool through cs.
func callEcho(cs *sdk.ClientSession, tool echoTool) func() error {
	params := &sdk.CallToolParams{Name: tool.name, Arguments: tool.args}
	return func() error {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			return err
		}
		if len(res.Content) == 0 {
			return fmt.Errorf("result without content")
		}
		text, _ := res.Content[0].(*sdk.TextContent)
		if res.IsError || text == nil || !tool.ok(text.Text) {
			return fmt.Errorf("result %+v", res.Content[0])
		}
		return nil
	}
}

// listening reads the server's stderr until it says where it listens, then
// keeps draining it.
func listening(stderr io.Reader) (string, error) {
	br := bufio.NewReader(stderr)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		line, err := br.ReadString('\n')
		if _, rest, ok := strings.Cut(line, "listening on "); ok {
			endpoint, _, _ := strings.Cut(rest, " ")
			go io.Copy(io.Discard, br)
			return endpoint, nil
		}
		if err != nil {
			return "", fmt.Errorf("the server did not start: %v (%s)", err, line)
		}
	}
	return "", fmt.Errorf("the server did not start in time")
}

// rssOf returns VmRSS and VmHWM of pid and its spawner process, if any
// (a kernel that forks its calls from one: its memory is the server's),
// summed, and
// pid's VmRSS plus the spawner's private pages (the pages they share, the
// executable's among them, counted once), in KiB.
func rssOf(pid int) (rss, peak, once int64) {
	for i, p := range withSpawner(pid) {
		r, pk := rssOne(p)
		rss, peak = rss+r, peak+pk
		if i == 0 {
			once = r
		} else {
			once += privateOf(p)
		}
	}
	return rss, peak, once
}

// privateOf returns the resident pages of pid that no other process maps,
// in KiB.
func privateOf(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	var sum int64
	for _, line := range strings.Split(string(data), "\n") {
		var v int64
		if _, err := fmt.Sscanf(line, "Private_Clean: %d kB", &v); err == nil {
			sum += v
		}
		if _, err := fmt.Sscanf(line, "Private_Dirty: %d kB", &v); err == nil {
			sum += v
		}
	}
	return sum
}

// withSpawner returns pid and its children named toolgen-spawner.
func withSpawner(pid int) []int {
	out := []int{pid}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		var c int
		if _, err := fmt.Sscan(e.Name(), &c); err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || strings.TrimRight(string(cmd), "\x00") != "toolgen-spawner" {
			continue
		}
		if f := statFields(c); len(f) > 1 && f[1] == fmt.Sprint(pid) {
			out = append(out, c)
		}
	}
	return out
}

// statFields returns the fields of /proc/PID/stat after the command name
// (which may hold spaces): state, ppid, ...
func statFields(pid int) []string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(data[i+1:]))
}

// rssOne returns VmRSS and VmHWM of pid, in KiB.
func rssOne(pid int) (rss, peak int64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		var v int64
		if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &v); err == nil {
			rss = v
		}
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &v); err == nil {
			peak = v
		}
	}
	return rss, peak
}

// sdkServerEnv makes this program the go-sdk floor server: the SDK's own
// stdio transport and a raw tool handler that runs "echo hi" with os/exec,
// nothing of toolgen. Its row shows what the SDK and the client cost.
const sdkServerEnv = "MCPBENCH_SDK_SERVER"

func serveSDKFloor() {
	s := sdk.NewServer(&sdk.Implementation{Name: "sdk-floor", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "echo_hi", Description: "Print hi", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			out, err := exec.CommandContext(ctx, "echo", "hi").Output()
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "exit: 0\noutput: " + string(out)}}}, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench sdk server:", err)
		os.Exit(1)
	}
}

// cpuOf returns the CPU time (user and system) of pid, of its spawner
// process, and of the children they have waited for, from /proc/PID/stat.
func cpuOf(pid int) time.Duration {
	var ticks int64
	for _, p := range withSpawner(pid) {
		f := statFields(p)
		if len(f) < 15 {
			continue
		}
		for _, s := range f[11:15] { // utime, stime, cutime, cstime (fields 14-17)
			var v int64
			fmt.Sscan(s, &v)
			ticks += v
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times: 100 on Linux.
const clockTicks = 100

// serverCmd is the command of a stdio server: bin with args, or with nil
// args this program as the go-sdk floor server.
func serverCmd(bin string, args []string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	if args == nil {
		cmd.Env = append(os.Environ(), sdkServerEnv+"=1")
	}
	return cmd
}

// startRaw starts a stdio server and talks to it as a minimal JSON-RPC
// client would: one line per request, responses matched by id, no schema
// work. Its row shows the server's cost without most of the client's (the
// go-sdk client's own work runs on the same 2 cores as the server).
func startRaw(cmd *exec.Cmd, tool echoTool) (*row, func(), error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, func() {}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, func() {}, err
	}
	if err := cmd.Start(); err != nil {
		return nil, func() {}, err
	}
	stop := func() {
		stdin.Close()
		cmd.Wait()
	}
	rc := &rawClient{w: stdin, pending: map[int64]chan []byte{}}
	go rc.readLoop(stdout)
	init := `"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpbench","version":"1"}}`
	if _, err := rc.call(init); err != nil {
		return nil, stop, fmt.Errorf("initialize: %w", err)
	}
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		return nil, stop, err
	}
	r := &row{rss: func() (int64, int64, int64) { return rssOf(cmd.Process.Pid) }, cpu: func() time.Duration { return cpuOf(cmd.Process.Pid) }}
	params, err := json.Marshal(map[string]any{"name": tool.name, "arguments": tool.args})
	if err != nil {
		return nil, stop, err
	}
	body := `"method":"tools/call","params":` + string(params)
	for range inFlight {
		r.callers = append(r.callers, func() error {
			resp, err := rc.call(body)
			if err != nil {
				return err
			}
			return rawResult(resp, tool)
		})
	}
	return r, stop, nil
}

// rawResult checks a tools/call response line: not an error, and its
// first text is what tool answers.
func rawResult(resp []byte, tool echoTool) error {
	var msg struct {
		Result *struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(resp, &msg); err != nil || msg.Result == nil || msg.Result.IsError ||
		len(msg.Result.Content) == 0 || !tool.ok(msg.Result.Content[0].Text) {
		return fmt.Errorf("result %s", resp)
	}
	return nil
}

// rawClient is a JSON-RPC client over one line-framed connection.
type rawClient struct {
	wmu     sync.Mutex
	w       io.Writer
	mu      sync.Mutex
	next    int64
	pending map[int64]chan []byte
}

// call sends a request made of its id and body (the members after "id") and
// returns the response line.
func (c *rawClient) call(body string) ([]byte, error) {
	ch := make(chan []byte, 1)
	c.mu.Lock()
	c.next++
	id := c.next
	c.pending[id] = ch
	c.mu.Unlock()
	c.wmu.Lock()
	_, err := fmt.Fprintf(c.w, `{"jsonrpc":"2.0","id":%d,%s}`+"\n", id, body)
	c.wmu.Unlock()
	if err != nil {
		return nil, err
	}
	resp, ok := <-ch
	if !ok {
		return nil, fmt.Errorf("the server closed its output")
	}
	return resp, nil
}

func (c *rawClient) readLoop(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			c.mu.Lock()
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
		var msg struct {
			ID *int64 `json:"id"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil {
			continue // a notification
		}
		c.mu.Lock()
		ch := c.pending[*msg.ID]
		delete(c.pending, *msg.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- line
		}
	}
}
