package audit

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// BenchmarkAuditOverhead runs the same call (echo hi through a command tool)
// with and without the audit middleware (a real file, fsync every second),
// alternating in rounds so both see the same load, and reports the median
// relative cost: overhead-% (target ≤ 5).
func BenchmarkAuditOverhead(b *testing.B) {
	l, _ := openLog(b, Options{MaxSize: 64 << 20})
	bare := commandTool(b, "echo", "echo {w}", 10*time.Second, str("w"))
	audited := New(l, WithConfinement("best-effort"), WithTransport("bench")).Wrap(bare, tool.FormBuiltin)
	args := json.RawMessage(`{"w":"hi"}`)
	call := func(t tool.Tool) time.Duration {
		start := time.Now()
		if _, err := t.Call(context.Background(), args); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	call(bare)
	call(audited)
	const round = 4
	var ratios []float64
	var bareT, audT time.Duration
	n := 0
	for b.Loop() {
		var bt, at time.Duration
		for i := range round { // alternate which goes first
			if i%2 == 0 {
				bt += call(bare)
				at += call(audited)
			} else {
				at += call(audited)
				bt += call(bare)
			}
		}
		bareT += bt
		audT += at
		n += round
		ratios = append(ratios, (at-bt).Seconds()/bt.Seconds())
	}
	slices.Sort(ratios)
	b.ReportMetric(float64(bareT.Microseconds())/float64(n), "bare-us/call")
	b.ReportMetric(float64(audT.Microseconds())/float64(n), "audited-us/call")
	b.ReportMetric(ratios[len(ratios)/2]*100, "overhead-%")
}

// BenchmarkRecordWrite is the middleware's own cost without the command: a
// tool that runs nothing, audited.
func BenchmarkRecordWrite(b *testing.B) {
	l, _ := openLog(b, Options{MaxSize: 64 << 20})
	noop := New(l).Wrap(noopTool{}, tool.FormBuiltin)
	args := json.RawMessage(`{"pattern":"needle","path":"."}`)
	b.ReportAllocs()
	for b.Loop() {
		noop.Call(context.Background(), args)
	}
}

type noopTool struct{}

func (noopTool) Name() string                 { return "noop" }
func (noopTool) Description() string          { return "does nothing" }
func (noopTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (noopTool) Call(context.Context, json.RawMessage) (string, error) {
	return "exit: 0\noutput: ", nil
}
