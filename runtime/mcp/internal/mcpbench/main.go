// Command mcpbench measures toolgen serve against the physical floor, in one
// run: a bare os/exec of "echo hi", then tools/call of a tool running
// "echo hi" through "toolgen serve" over stdio and over Streamable HTTP
// (loopback), each with --confine off and with the default confinement. For
// each it prints the sequential median (one call at a time), the calls/s
// with 8 calls in flight, and the server's RSS (current and peak) after
// 1,000 calls. Run it from the module root:
//
//	go run ./runtime/mcp/internal/mcpbench            # builds toolgen first
//	go run ./runtime/mcp/internal/mcpbench -bin ./toolgen -seq 300 -par 800
//
// The machine is shared and noisy: compare the rows of one run, not runs.
package main

import (
	"bufio"
	"context"
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
	bin := flag.String("bin", "", "toolgen binary to measure (default: go build ./cmd/toolgen into a temporary directory)")
	seq := flag.Int("seq", 200, "sequential calls timed for the median")
	par := flag.Int("par", 800, "calls timed with 8 in flight")
	total := flag.Int("total", 1000, "calls made before the RSS is read")
	modes := flag.String("confine", "off,best-effort", "comma-separated --confine modes to measure")
	withAudit = flag.Bool("audit", true, "also measure stdio with --audit FILE")
	flag.Parse()
	if err := run(*bin, *seq, *par, *total, strings.Split(*modes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

const inFlight = 8

var withAudit *bool

// result is one row of the table.
type result struct {
	name       string
	median     time.Duration
	callsPerS  float64
	rss, peak  int64 // KiB; 0 for the floor
	callsTotal int
}

func run(bin string, seq, par, total int, modes []string) error {
	dir, err := os.MkdirTemp("", "mcpbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		bin = filepath.Join(dir, "toolgen")
		fmt.Fprintln(os.Stderr, "building toolgen ...")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/toolgen").CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/toolgen (run from the module root): %v\n%s", err, out)
		}
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

	var rows []result
	floor := measure("floor: os/exec echo hi", seq, par, total, func() func() error {
		return func() error {
			out, err := exec.Command("echo", "hi").Output()
			if err == nil && string(out) != "hi\n" {
				err = fmt.Errorf("output %q", out)
			}
			return err
		}
	}, nil)
	rows = append(rows, floor)
	for _, mode := range modes {
		mode = strings.TrimSpace(mode)
		args := []string{"serve", "--tools", tools, "--workspace", ws, "--confine", mode, "--no-builtins"}
		for _, transport := range []string{"stdio", "http"} {
			r, err := benchServer(bin, transport, args, seq, par, total)
			if err != nil {
				return fmt.Errorf("%s --confine %s: %w", transport, mode, err)
			}
			r.name = fmt.Sprintf("toolgen serve %s --confine %s", transport, mode)
			rows = append(rows, r)
		}
		if *withAudit {
			log := filepath.Join(dir, "audit-"+mode+".jsonl")
			r, err := benchServer(bin, "stdio", append(slices.Clone(args), "--audit", log), seq, par, total)
			if err != nil {
				return fmt.Errorf("stdio --confine %s --audit: %w", mode, err)
			}
			r.name = fmt.Sprintf("toolgen serve stdio --confine %s --audit", mode)
			rows = append(rows, r)
		}
	}
	fmt.Printf("%-50s %12s %10s %14s %10s %12s\n", "", "seq median", "Δ floor", "calls/s @8", "% floor", "RSS/peak MiB")
	for _, r := range rows {
		rss := "-"
		if r.rss > 0 {
			rss = fmt.Sprintf("%.1f/%.1f", float64(r.rss)/1024, float64(r.peak)/1024)
		}
		fmt.Printf("%-50s %10.3fms %+8.3fms %14.0f %9.0f%% %12s\n", r.name, ms(r.median), ms(r.median-floor.median),
			r.callsPerS, 100*r.callsPerS/floor.callsPerS, rss)
	}
	fmt.Printf("(%d sequential calls for the median, %d calls with %d in flight, RSS after %d calls per server)\n", seq, par, inFlight, total)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// measure times callers: seq sequential calls (median), then par calls with
// inFlight callers, then more calls up to total; rss, if not nil, is read at
// the end. newCaller returns one caller (one client).
func measure(name string, seq, par, total int, newCaller func() func() error, rss func() (int64, int64)) result {
	callers := make([]func() error, inFlight)
	for i := range callers {
		callers[i] = newCaller()
	}
	must := func(err error) {
		if err != nil {
			fmt.Fprintf(os.Stderr, "mcpbench: %s: %v\n", name, err)
			os.Exit(1)
		}
	}
	for range 20 { // warm up
		must(callers[0]())
	}
	times := make([]time.Duration, seq)
	for i := range times {
		start := time.Now()
		must(callers[0]())
		times[i] = time.Since(start)
	}
	slices.Sort(times)
	var left atomic.Int64
	left.Store(int64(par))
	var wg sync.WaitGroup
	start := time.Now()
	for _, c := range callers {
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				must(c())
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	for done := 20 + seq + par; done < total; done++ {
		must(callers[done%inFlight]())
	}
	r := result{name: name, median: times[len(times)/2], callsPerS: float64(par) / elapsed.Seconds(), callsTotal: total}
	if rss != nil {
		r.rss, r.peak = rss()
	}
	return r
}

// benchServer starts one toolgen serve and measures it through one session.
func benchServer(bin, transport string, args []string, seq, par, total int) (result, error) {
	var pid int
	var cleanup []func()
	defer func() {
		for _, f := range slices.Backward(cleanup) {
			f()
		}
	}()
	call := func(cs *sdk.ClientSession) func() error {
		params := &sdk.CallToolParams{Name: "echo_hi", Arguments: map[string]any{}}
		return func() error {
			res, err := cs.CallTool(context.Background(), params)
			if err != nil {
				return err
			}
			if text := res.Content[0].(*sdk.TextContent).Text; res.IsError || !strings.HasPrefix(text, "exit: 0\noutput: hi\n") {
				return fmt.Errorf("result %q", text)
			}
			return nil
		}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "mcpbench", Version: "1"}, nil)
	var cs *sdk.ClientSession
	switch transport {
	case "stdio":
		cmd := exec.Command(bin, args...)
		var err error
		if cs, err = client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil); err != nil {
			return result{}, err
		}
		pid = cmd.Process.Pid
	case "http":
		cmd := exec.Command(bin, append(slices.Clone(args), "--http", "127.0.0.1:0")...)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			return result{}, err
		}
		if err := cmd.Start(); err != nil {
			return result{}, err
		}
		pid = cmd.Process.Pid
		cleanup = append(cleanup, func() {
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		})
		endpoint, err := listening(stderr)
		if err != nil {
			return result{}, err
		}
		hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
		if cs, err = client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc,
			DisableStandaloneSSE: true}, nil); err != nil {
			return result{}, err
		}
	}
	cleanup = append(cleanup, func() { cs.Close() })
	// One session; the 8 callers share it (8 calls in flight on it).
	r := measure("", seq, par, total, func() func() error { return call(cs) }, func() (int64, int64) { return rssOf(pid) })
	return r, nil
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

// rssOf returns VmRSS and VmHWM of pid, in KiB.
func rssOf(pid int) (rss, peak int64) {
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
