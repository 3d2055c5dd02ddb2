package kernel

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Progress is what a running command has produced so far, as Run reports
// it to a WithProgress function.
type Progress struct {
	// Elapsed is the time since the command started.
	Elapsed time.Duration
	// Bytes is how many bytes of output (stdout and stderr) the command has
	// written so far, all of them, kept or not.
	Bytes int64
	// Lines is how many newline characters that output held.
	Lines int64
	// Tail is the last lines of the output so far: at most ProgressTailLines
	// lines and ProgressTailBytes bytes, valid UTF-8 (each run of invalid
	// bytes becomes U+FFFD), a carriage return read as a line break, no
	// trailing line break; "" when there is none yet.
	Tail string
}

// The bounds of Progress.Tail.
const (
	ProgressTailLines = 5
	ProgressTailBytes = 400
)

// progressRing is how many of the last output bytes a meter keeps to make
// Progress.Tail from.
const progressRing = 512

// DefaultProgressInterval is the interval WithProgress uses when given
// none.
const DefaultProgressInterval = time.Second

type progressKey struct{}

// progressSpec is what WithProgress puts in a context.
type progressSpec struct {
	every time.Duration
	fn    func(Progress)
}

// WithProgress returns a context under which Run and RunAlso report the
// command's Progress to fn while it runs: first once it has run for every
// (DefaultProgressInterval when every <= 0), then about every interval.
// fn is called on a goroutine of Run's, never concurrently with itself for
// one Run, never before the command started and never after Run returned;
// it must not block for long (Run waits for a call in progress before it
// returns). A nil fn removes the reporting.
func WithProgress(ctx context.Context, every time.Duration, fn func(Progress)) context.Context {
	if every <= 0 {
		every = DefaultProgressInterval
	}
	if fn == nil {
		return context.WithValue(ctx, progressKey{}, (*progressSpec)(nil))
	}
	return context.WithValue(ctx, progressKey{}, &progressSpec{every: every, fn: fn})
}

// progressOf returns what WithProgress put in ctx, nil for nothing.
func progressOf(ctx context.Context) *progressSpec {
	p, _ := ctx.Value(progressKey{}).(*progressSpec)
	return p
}

// meter counts a command's output and keeps its last bytes, for Progress.
// Safe for concurrent use: stdout's and stderr's drains both write to it.
type meter struct {
	mu    sync.Mutex
	bytes int64
	lines int64
	ring  [progressRing]byte
	next  int // where the next byte goes in ring
}

// add counts p and keeps its end.
func (m *meter) add(p []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.bytes += int64(len(p))
	m.lines += int64(countNewlines(p))
	if len(p) > progressRing {
		p = p[len(p)-progressRing:]
	}
	for len(p) > 0 {
		n := copy(m.ring[m.next%progressRing:], p)
		m.next += n
		p = p[n:]
	}
}

func countNewlines(p []byte) int { return bytes.Count(p, []byte{'\n'}) }

// snapshot returns the Progress so far, elapsed since start.
func (m *meter) snapshot(start time.Time) Progress {
	m.mu.Lock()
	kept := min(m.bytes, progressRing)
	raw := make([]byte, 0, kept)
	from := m.next - int(kept)
	for i := from; i < m.next; i++ {
		raw = append(raw, m.ring[i%progressRing])
	}
	p := Progress{Elapsed: time.Since(start), Bytes: m.bytes, Lines: m.lines}
	m.mu.Unlock()
	p.Tail = tailLines(raw, p.Bytes > kept)
	return p
}

// tailLines makes Progress.Tail from the last bytes of the output; cut
// reports that bytes before them were dropped, so that their first line may
// be partial.
func tailLines(raw []byte, cut bool) string {
	for i := 0; cut && i < utf8.UTFMax-1 && len(raw) > 0 && !utf8.RuneStart(raw[0]); i++ {
		raw = raw[1:]
	}
	s := strings.ToValidUTF8(string(raw), replacement)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if i := strings.IndexByte(s, '\n'); cut && i >= 0 && i < len(s)-1 {
		s = s[i+1:] // the first line began before what is kept
	}
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > ProgressTailLines {
		s = strings.Join(lines[len(lines)-ProgressTailLines:], "\n")
	}
	if len(s) > ProgressTailBytes {
		t, _ := validSuffix([]byte(s), ProgressTailBytes)
		s = t
	}
	return s
}

// metered is an output writer that also feeds a meter (m nil: none).
type metered struct {
	w io.Writer
	m *meter
}

func (mw metered) Write(p []byte) (int, error) {
	if mw.m != nil {
		mw.m.add(p)
	}
	return mw.w.Write(p)
}

// reporter calls a WithProgress function about every interval from its own
// goroutine until stopped.
type reporter struct {
	stop chan struct{}
	done chan struct{}
}

// startReporter starts reporting m's Progress to spec's function; with no
// spec it reports nothing (a nil reporter, whose methods do nothing).
func startReporter(spec *progressSpec, m *meter, start time.Time) *reporter {
	if spec == nil {
		return nil
	}
	r := &reporter{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		t := time.NewTicker(spec.every)
		defer t.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-t.C:
			}
			select { // a stop that came with the tick wins
			case <-r.stop:
				return
			default:
			}
			spec.fn(m.snapshot(start))
		}
	}()
	return r
}

// halt asks the reporter to report no more; a report under way finishes.
func (r *reporter) halt() {
	if r != nil {
		close(r.stop)
	}
}

// wait returns once the reporter's goroutine has ended: no report is under
// way and none will be made.
func (r *reporter) wait() {
	if r != nil {
		<-r.done
	}
}
