package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// The benchmarks measure one trivial command ("true") at every layer, in the
// same run, so the MCP server's overhead can be read off as a difference:
//
//	BenchmarkRoundTrip/kernel     kernel.Run of the argv the tool assembles
//	BenchmarkRoundTrip/tool       Tool.Call (argument checks + kernel)
//	BenchmarkRoundTrip/mcp-memory tools/call through an in-memory session
//	BenchmarkRoundTrip/mcp-stdio  tools/call through Serve's line framing
//	BenchmarkRoundTrip/mcp-raw    the same, from a client that only writes
//	                              the request's bytes and reads the answer's
//	                              line: the server's own cost, without the
//	                              SDK client's decoding
//
// each sequential (one caller) and with 8 concurrent clients (8 sessions,
// or 8 goroutines for the kernel and the tool). Each reports calls/s.
//
// On a shared or loaded machine the layers, run one after the other, see
// different loads; BenchmarkServerOverhead interleaves the kernel and the
// server in small rounds instead, so both see the same conditions, and
// reports the overhead directly.

const benchClients = 8

type benchLayer struct {
	name string
	// setup returns one caller per client; each caller makes one call.
	setup func(b *testing.B, clients int) []func()
}

func benchLayers(k *kernel.Kernel, tl tool.Tool) []benchLayer {
	argv, err := tl.(tool.SpecTool).Argv(json.RawMessage(`{}`))
	if err != nil {
		panic(err)
	}
	callers := func(clients int, f func()) []func() {
		out := make([]func(), clients)
		for i := range out {
			out[i] = f
		}
		return out
	}
	return []benchLayer{
		{"kernel", func(b *testing.B, clients int) []func() {
			return callers(clients, func() {
				if res, err := k.Run(context.Background(), argv); err != nil || res.ExitCode != 0 {
					b.Fatal(res.Text(), err)
				}
			})
		}},
		{"tool", func(b *testing.B, clients int) []func() {
			return callers(clients, func() {
				if _, err := tl.Call(context.Background(), json.RawMessage(`{}`)); err != nil {
					b.Fatal(err)
				}
			})
		}},
		{"mcp-memory", func(b *testing.B, clients int) []func() {
			srv := newServer(b, registry(b, tl))
			out := make([]func(), clients)
			for i := range out {
				out[i] = sessionCaller(b, connect(b, srv, nil))
			}
			return out
		}},
		{"mcp-stdio", func(b *testing.B, clients int) []func() {
			srv := newServer(b, registry(b, tl))
			out := make([]func(), clients)
			for i := range out {
				out[i] = sessionCaller(b, serveStdioPipes(b, srv))
			}
			return out
		}},
		{"mcp-raw", func(b *testing.B, clients int) []func() {
			srv := newServer(b, registry(b, tl))
			out := make([]func(), clients)
			for i := range out {
				out[i] = rawCaller(b, srv)
			}
			return out
		}},
	}
}

// rawCaller serves one session over pipes and returns a function making one
// tools/call of "nothing" with pre-encoded bytes, reading the answer as a
// line: what is measured is the transport and the server.
func rawCaller(b *testing.B, srv *Server) func() {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	b.Cleanup(func() {
		inW.Close()
		outR.Close()
		<-done
	})
	br := bufio.NewReader(outR)
	roundTrip := func(req string) []byte {
		if _, err := io.WriteString(inW, req); err != nil {
			b.Fatal(err)
		}
		line, err := br.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nothing","arguments":{}}}` + "\n"
	return func() {
		if line := roundTrip(req); !bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"exit: 0`)) &&
			!bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":""`)) {
			b.Fatalf("answer: %s", line)
		}
	}
}

// sessionCaller returns a function making one tools/call of "nothing".
func sessionCaller(b *testing.B, cs *sdk.ClientSession) func() {
	params := &sdk.CallToolParams{Name: "nothing", Arguments: map[string]any{}}
	return func() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// serveStdioPipes connects an SDK client to srv.Serve over pipes, as
// "toolgen serve" is driven over its stdin and stdout.
func serveStdioPipes(b *testing.B, srv *Server) *sdk.ClientSession {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		<-done
	})
	return cs
}

func BenchmarkRoundTrip(b *testing.B) {
	k := newKernel(b)
	tl := commandTool(b, k, "nothing", "true")
	layers := benchLayers(k, tl)
	// The protocol alone: a tool that runs nothing.
	noop := &funcTool{name: "nothing", call: func(context.Context, json.RawMessage) (string, error) { return "", nil }}
	for _, l := range benchLayers(k, tl)[2:] {
		layers = append(layers, benchLayer{l.name + "-noop", func(b *testing.B, clients int) []func() {
			srv := newServer(b, registry(b, noop))
			out := make([]func(), clients)
			for i := range out {
				switch l.name {
				case "mcp-memory":
					out[i] = sessionCaller(b, connect(b, srv, nil))
				case "mcp-stdio":
					out[i] = sessionCaller(b, serveStdioPipes(b, srv))
				default:
					out[i] = rawCaller(b, srv)
				}
			}
			return out
		}})
	}
	for _, layer := range layers {
		b.Run(layer.name+"/sequential", func(b *testing.B) {
			f := layer.setup(b, 1)[0]
			f() // warm up
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
		})
		b.Run(layer.name+"/8-clients", func(b *testing.B) {
			fs := layer.setup(b, benchClients)
			var left atomic.Int64
			left.Store(int64(b.N))
			b.ResetTimer()
			var wg sync.WaitGroup
			for _, f := range fs {
				wg.Go(func() {
					for left.Add(-1) >= 0 {
						f()
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
		})
	}
}

// BenchmarkServerOverhead alternates rounds of kernel.Run and of the other
// layers (Tool.Call; tools/call in memory, through Serve's stdio framing with
// the SDK client, and from a raw client) of the same trivial argv, sequentially and with 8 concurrent
// clients. It reports each side's calls/s over the whole run, and what the
// server adds per call as the median over the rounds (robust to the bursts
// of a shared machine): overhead-us (wall time per call, server minus
// kernel) and overhead-% (relative to the kernel).
func BenchmarkServerOverhead(b *testing.B) {
	k := newKernel(b)
	tl := commandTool(b, k, "nothing", "true")
	layers := benchLayers(k, tl)
	kernelLayer := layers[0]
	for _, server := range layers[1:] {
		for _, clients := range []int{1, benchClients} {
			name := server.name + "/sequential"
			if clients > 1 {
				name = server.name + "/8-clients"
			}
			b.Run(name, func(b *testing.B) {
				kernelCalls := kernelLayer.setup(b, clients)
				serverCalls := server.setup(b, clients)
				serverCalls[0]() // warm up
				const round = 8  // calls per client per round
				var kernelTime, serverTime time.Duration
				var diffs, ratios []float64
				calls := 0
				for b.Loop() {
					kt := timeRound(kernelCalls, round)
					st := timeRound(serverCalls, round)
					kernelTime += kt
					serverTime += st
					calls += round * clients
					diffs = append(diffs, (st-kt).Seconds()/float64(round*clients))
					ratios = append(ratios, (st-kt).Seconds()/kt.Seconds())
				}
				b.ReportMetric(float64(calls)/kernelTime.Seconds(), "kernel-calls/s")
				b.ReportMetric(float64(calls)/serverTime.Seconds(), "server-calls/s")
				b.ReportMetric(median(diffs)*1e6, "overhead-us")
				b.ReportMetric(median(ratios)*100, "overhead-%")
			})
		}
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// timeRound runs n calls on each caller concurrently and returns the wall
// time.
func timeRound(callers []func(), n int) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for _, f := range callers {
		wg.Go(func() {
			for range n {
				f()
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}
