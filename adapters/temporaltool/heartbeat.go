package temporaltool

import (
	"context"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// Progress is the details of a running tool activity's heartbeats: what the
// command has written so far (tool.Progress, with JSON names). A workflow
// or a client reads the last one from the activity's pending state
// (DescribeWorkflowExecution) or, on a retry, activity.GetHeartbeatDetails.
type Progress struct {
	// ElapsedMS is the time since the command started, in milliseconds.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Bytes is how many bytes of output the command has written so far.
	Bytes int64 `json:"bytes"`
	// Lines is how many newline characters that output held.
	Lines int64 `json:"lines"`
	// Tail is the last few lines of that output, "" when there is none.
	Tail string `json:"tail"`
}

// heartbeat records the heartbeats of one activity: on a timer, so that a
// cancellation is noticed even when the tool reports nothing, and on every
// progress report, carrying the latest Progress.
type heartbeat struct {
	ctx  context.Context
	mu   sync.Mutex
	last *Progress
	done chan struct{}
	wg   sync.WaitGroup
}

// startHeartbeat starts the timer of the heartbeats of the activity of ctx.
func startHeartbeat(ctx context.Context, interval time.Duration) *heartbeat {
	h := &heartbeat{ctx: ctx, done: make(chan struct{})}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-h.done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				h.send()
			}
		}
	}()
	return h
}

// progress is the tool.WithProgress function of the call: it keeps p and
// heartbeats with it.
func (h *heartbeat) progress(p tool.Progress) {
	h.mu.Lock()
	h.last = &Progress{ElapsedMS: p.Elapsed.Milliseconds(), Bytes: p.Bytes, Lines: p.Lines, Tail: p.Tail}
	h.mu.Unlock()
	h.send()
}

// send records one heartbeat with the latest Progress, if any.
func (h *heartbeat) send() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.last != nil {
		activity.RecordHeartbeat(h.ctx, *h.last)
		return
	}
	activity.RecordHeartbeat(h.ctx)
}

// stop ends the timer and waits for it.
func (h *heartbeat) stop() {
	close(h.done)
	h.wg.Wait()
}
