//go:build unix

package kernel

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// progressLog records the reports of one Run and whether any came after
// Run returned.
type progressLog struct {
	mu       sync.Mutex
	reports  []Progress
	returned atomic.Bool
	late     atomic.Int64
	inFlight atomic.Int32
	overlap  atomic.Bool
}

func (l *progressLog) fn(p Progress) {
	if l.inFlight.Add(1) > 1 {
		l.overlap.Store(true)
	}
	defer l.inFlight.Add(-1)
	if l.returned.Load() {
		l.late.Add(1)
	}
	l.mu.Lock()
	l.reports = append(l.reports, p)
	l.mu.Unlock()
}

func (l *progressLog) snapshot() []Progress {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Progress(nil), l.reports...)
}

// checkAfterReturn fails when a report comes after Run returned, waiting a
// few intervals for one.
func (l *progressLog) checkAfterReturn(t *testing.T, every time.Duration) {
	t.Helper()
	n := len(l.snapshot())
	time.Sleep(4 * every)
	if l.late.Load() > 0 || len(l.snapshot()) != n {
		t.Errorf("%d reports after Run returned", len(l.snapshot())-n)
	}
	if l.overlap.Load() {
		t.Error("reports overlapped")
	}
}

func TestRunProgress(t *testing.T) {
	const every = 100 * time.Millisecond
	k := newKernel(t)
	var log progressLog
	ctx := WithProgress(context.Background(), every, log.fn)
	res, err := k.Run(ctx, []string{"sh", "-c", "i=1; while [ $i -le 8 ]; do echo line $i; i=$((i+1)); sleep 0.1; done"})
	log.returned.Store(true)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run: %v\n%s", err, res.Text())
	}
	reports := log.snapshot()
	if len(reports) < 3 {
		t.Fatalf("%d reports over a run of %v at an interval of %v, want at least 3", len(reports), res.Duration, every)
	}
	var last Progress
	for i, p := range reports {
		if p.Elapsed < every || p.Elapsed < last.Elapsed || p.Bytes < last.Bytes || p.Lines < last.Lines {
			t.Errorf("report %d %+v goes back from %+v, or came before the interval", i, p, last)
		}
		if p.Lines > 0 && !strings.HasPrefix(strings.Split(p.Tail, "\n")[len(strings.Split(p.Tail, "\n"))-1], "line ") {
			t.Errorf("report %d: tail %q does not end with a line of the output", i, p.Tail)
		}
		if int64(len(strings.Split(p.Tail, "\n"))) > min(max(p.Lines, 1), ProgressTailLines) {
			t.Errorf("report %d: tail %q has more lines than the output or the bound", i, p.Tail)
		}
		if int64(len("line 1\n"))*p.Lines != p.Bytes {
			t.Errorf("report %d: %d bytes in %d lines", i, p.Bytes, p.Lines)
		}
		last = p
	}
	if last.Lines < 3 {
		t.Errorf("the last report saw %d lines, want the output as it came", last.Lines)
	}
	log.checkAfterReturn(t, every)
}

// TestRunProgressQuickCommand: a command that ends before the interval is
// never reported.
func TestRunProgressQuickCommand(t *testing.T) {
	var log progressLog
	ctx := WithProgress(context.Background(), 500*time.Millisecond, log.fn)
	mustRunCtx(t, newKernel(t), ctx, "echo", "hi")
	log.returned.Store(true)
	log.checkAfterReturn(t, 100*time.Millisecond)
	if n := len(log.snapshot()); n != 0 {
		t.Errorf("%d reports of a command that took no time", n)
	}
	// A nil function removes an outer one.
	ctx = WithProgress(ctx, time.Millisecond, nil)
	mustRunCtx(t, newKernel(t), ctx, "sh", "-c", "sleep 0.2")
	if n := len(log.snapshot()); n != 0 {
		t.Errorf("%d reports under a nil function", n)
	}
}

// TestRunProgressCancelled: a long call that reports progress is ended
// promptly by its context, the whole group with it, and reports nothing
// after Run returns.
func TestRunProgressCancelled(t *testing.T) {
	const every, after = 50 * time.Millisecond, 400 * time.Millisecond
	k := newKernel(t)
	promptly(t, 100*time.Millisecond, func() time.Duration {
		var log progressLog
		ctx, cancel := context.WithCancel(WithProgress(context.Background(), every, log.fn))
		defer cancel()
		var cancelled atomic.Int64 // when the cancel really ran: a late timer is not the kernel's delay
		time.AfterFunc(after, func() { cancelled.Store(time.Now().UnixNano()); cancel() })
		m := sleepMarker()
		res, err := k.Run(ctx, []string{"sh", "-c", "sleep " + m + " & while :; do echo tick; sleep 0.02; done"})
		returned := time.Now()
		log.returned.Store(true)
		if !errors.Is(err, context.Canceled) || res.ExitCode != 137 {
			t.Errorf("Run = %d, %v; want 137 and a wrapped context.Canceled", res.ExitCode, err)
		}
		if n := len(log.snapshot()); n < 3 {
			t.Errorf("%d reports before the cancel, want several", n)
		}
		assertGone(t, m)
		log.checkAfterReturn(t, every)
		return returned.Sub(time.Unix(0, cancelled.Load()))
	})
}

// TestRunProgressTimeout: the kernel's timeout ends a reporting call as it
// ends any other, and the reports stop with it.
func TestRunProgressTimeout(t *testing.T) {
	const every = 50 * time.Millisecond
	k := newKernel(t, WithTimeout(300*time.Millisecond)).WithSeparateStderr(true)
	var log progressLog
	ctx := WithProgress(context.Background(), every, log.fn)
	res, err := k.Run(ctx, []string{"sh", "-c", "while :; do echo out; echo err >&2; sleep 0.02; done"})
	log.returned.Store(true)
	if err != nil || !res.TimedOut {
		t.Fatalf("Run = %v, TimedOut %v", err, res.TimedOut)
	}
	reports := log.snapshot()
	if len(reports) == 0 || !strings.Contains(reports[len(reports)-1].Tail, "err") || !strings.Contains(reports[len(reports)-1].Tail, "out") {
		t.Errorf("reports %+v: want them to count stdout and stderr both", reports)
	}
	log.checkAfterReturn(t, every)
}

// TestTailLines attacks Progress.Tail with what a command may print.
func TestTailLines(t *testing.T) {
	long := strings.Repeat("x", 600)
	for _, c := range []struct {
		name string
		raw  string
		cut  bool
		want string
	}{
		{"empty", "", false, ""},
		{"one line", "hello\n", false, "hello"},
		{"no newline yet", "partial", false, "partial"},
		{"last five", "1\n2\n3\n4\n5\n6\n7\n", false, "3\n4\n5\n6\n7"},
		{"carriage returns", "10%\r20%\r30%", false, "10%\n20%\n30%"},
		{"crlf", "a\r\nb\r\n", false, "a\nb"},
		{"invalid utf-8", "ok \xff\xfe bad\n", false, "ok \uFFFD bad"},
		{"cut mid-line", "tail-of-a-line\nwhole\n", true, "whole"},
		{"cut one line", "only-a-tail", true, "only-a-tail"},
		{"cut mid-rune", "\x82\x83é\n", true, "é"},
		{"long line", long, false, long[:ProgressTailBytes]},
		{"long last line", "a\n" + long + "\n", false, long[:ProgressTailBytes]},
		{"long rune line", strings.Repeat("é", 300), false, strings.Repeat("é", ProgressTailBytes/2)},
		{"blank lines", "\n\n\n", false, ""},
	} {
		got := tailLines([]byte(c.raw), c.cut)
		if got != c.want {
			t.Errorf("%s: tailLines(%q) = %q, want %q", c.name, c.raw, got, c.want)
		}
		if !utf8.ValidString(got) || len(got) > ProgressTailBytes || strings.Count(got, "\n") >= ProgressTailLines {
			t.Errorf("%s: tail %q breaks a bound", c.name, got)
		}
	}
}

// TestMeterRing: the meter keeps the last bytes however they come.
func TestMeterRing(t *testing.T) {
	var m meter
	var all strings.Builder
	for i := range 300 {
		chunk := strings.Repeat(string(rune('a'+i%26)), i%7) + "\n"
		m.add([]byte(chunk))
		all.WriteString(chunk)
	}
	big := strings.Repeat("z", 2*progressRing) + "\nend\n"
	m.add([]byte(big))
	all.WriteString(big)
	p := m.snapshot(time.Now())
	if p.Bytes != int64(all.Len()) || p.Lines != int64(strings.Count(all.String(), "\n")) {
		t.Errorf("counted %d bytes, %d lines; want %d, %d", p.Bytes, p.Lines, all.Len(), strings.Count(all.String(), "\n"))
	}
	if want := tailLines([]byte(all.String()[all.Len()-progressRing:]), true); p.Tail != want {
		t.Errorf("tail %q, want %q", p.Tail, want)
	}
}

func mustRunCtx(t *testing.T, k *Kernel, ctx context.Context, argv ...string) Result {
	t.Helper()
	res, err := k.Run(ctx, argv)
	if err != nil {
		t.Fatalf("Run(%q): %v\n%s", argv, err, res.Text())
	}
	return res
}
