package loader_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// watcher runs Loader.Watch in the background and records the snapshots.
type watcher struct {
	t      *testing.T
	cancel context.CancelFunc
	done   chan error

	mu    sync.Mutex
	last  loader.Snapshot
	calls int
	seen  chan struct{} // receives after every onChange
}

func startWatch(t *testing.T, l *loader.Loader) *watcher {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{t: t, cancel: cancel, done: make(chan error, 1), seen: make(chan struct{}, 1)}
	w.last = l.Snapshot()
	go func() {
		w.done <- l.Watch(ctx, func(s loader.Snapshot) {
			w.mu.Lock()
			w.last, w.calls = s, w.calls+1
			w.mu.Unlock()
			select {
			case w.seen <- struct{}{}:
			default:
			}
		})
	}()
	t.Cleanup(func() { w.stop() })
	waitArmed(t, l.Watching())
	return w
}

// waitArmed waits until armed (a Loader.Watching channel) is closed.
func waitArmed(t *testing.T, armed <-chan struct{}) {
	t.Helper()
	select {
	case <-armed:
	case <-time.After(10 * time.Second):
		require.FailNow(t, "Watch was not armed within 10 s")
	}
}

// TestWatchingSignal: Watching is not ready before a Watch is armed, is
// once it is (a write made then is seen at once, with no time to settle),
// and is not again after the Watch returned until the next one arms.
func TestWatchingSignal(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.tool.json", desc("a", "A"))
	l := newLoader(t, dir)
	l.LoadAll()
	before := l.Watching()
	select {
	case <-before:
		require.FailNow(t, "Watching is ready with no Watch")
	default:
	}
	for round := range 3 {
		w := startWatch(t, l) // waits on Watching
		select {
		case <-before:
		default:
			require.FailNow(t, "the channel taken before the Watch was not closed when it armed")
		}
		write(t, dir, "a.tool.json", desc("a", fmt.Sprint("round ", round)))
		want := fmt.Sprintf("a=round %d@a.tool.json", round)
		w.await(want, is(want))
		require.NoError(t, w.stop())
		before = l.Watching()
		select {
		case <-before:
			require.FailNow(t, "Watching is ready after the Watch returned")
		default:
		}
	}
	// A Watch that cannot arm (the directory is gone) never makes it ready.
	require.NoError(t, os.RemoveAll(dir))
	require.Error(t, l.Watch(context.Background(), nil))
	select {
	case <-l.Watching():
		require.FailNow(t, "Watching is ready after a Watch that failed")
	default:
	}
}

func (w *watcher) stop() error {
	w.cancel()
	select {
	case err := <-w.done:
		w.done <- err // keep it for a second stop
		return err
	case <-time.After(5 * time.Second):
		require.FailNow(w.t, "Watch did not return after its context ended")
		return nil
	}
}

func (w *watcher) snapshot() loader.Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// await waits until the latest snapshot satisfies ok, returning how long it
// took.
func (w *watcher) await(what string, ok func(loader.Snapshot) bool) time.Duration {
	w.t.Helper()
	start := time.Now()
	deadline := time.After(5 * time.Second)
	for {
		if s := w.snapshot(); ok(s) {
			return time.Since(start)
		}
		select {
		case <-w.seen:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			require.FailNowf(w.t, "timed out", "waiting for %s; last snapshot:\n%s", what, render(w.snapshot().Tools, w.snapshot().Problems))
		}
	}
}

func describe(s loader.Snapshot) string {
	var parts []string
	for _, l := range s.Tools {
		parts = append(parts, fmt.Sprintf("%s=%s@%s", l.Tool.Name(), l.Tool.Description(), filepath.Base(l.File)))
	}
	for _, p := range s.Problems {
		if te, ok := p.(*tool.Error); ok {
			parts = append(parts, "problem@"+filepath.Base(te.File))
		} else {
			parts = append(parts, "problem@"+filepath.Base(strings.SplitN(p.Error(), ":", 2)[0]))
		}
	}
	return strings.Join(parts, " ")
}

func is(want string) func(loader.Snapshot) bool {
	return func(s loader.Snapshot) bool { return describe(s) == want }
}

// TestWatchLifecycle walks one file through what an editor and a user do:
// add, edit, break, fix, save by rename-over, vim-style save, rename, delete.
func TestWatchLifecycle(t *testing.T) {
	dir := t.TempDir()
	l := newLoader(t, dir)
	l.LoadAll()
	w := startWatch(t, l)

	write(t, dir, "a.tool.json", desc("alpha", "v1"))
	w.await("add", is("alpha=v1@a.tool.json"))

	write(t, dir, "a.tool.json", desc("alpha", "v2"))
	w.await("edit", is("alpha=v2@a.tool.json"))

	write(t, dir, "a.tool.json", `{"name": "alpha", "description": "v3", "command": "ls", `)
	w.await("break keeps the last good version", is("alpha=v2@a.tool.json problem@a.tool.json"))
	p := w.snapshot().Problems[0].Error()
	assert.Contains(t, p, "a.tool.json:1:")
	assert.Contains(t, p, "error 613: unexpected end of file")

	write(t, dir, "a.tool.json", desc("alpha", "v4"))
	w.await("fix", is("alpha=v4@a.tool.json"))

	// An editor's atomic save: write a temporary file, rename it over.
	write(t, dir, ".a.tool.json.tmp", desc("alpha", "v5"))
	require.NoError(t, os.Rename(filepath.Join(dir, ".a.tool.json.tmp"), filepath.Join(dir, "a.tool.json")))
	w.await("rename over", is("alpha=v5@a.tool.json"))

	// vim's save: move the original to a backup, write anew, drop the backup.
	require.NoError(t, os.Rename(filepath.Join(dir, "a.tool.json"), filepath.Join(dir, "a.tool.json~")))
	write(t, dir, "a.tool.json", desc("alpha", "v6"))
	require.NoError(t, os.Remove(filepath.Join(dir, "a.tool.json~")))
	w.await("vim save", is("alpha=v6@a.tool.json"))

	require.NoError(t, os.Rename(filepath.Join(dir, "a.tool.json"), filepath.Join(dir, "b.tool.json")))
	w.await("rename", is("alpha=v6@b.tool.json"))

	require.NoError(t, os.Remove(filepath.Join(dir, "b.tool.json")))
	w.await("delete", is(""))

	// A file that is broken from the start has no last good version.
	write(t, dir, "c.tool.json", `{"name": "gamma"`)
	w.await("broken new file", is("problem@c.tool.json"))
	write(t, dir, "c.tool.json", desc("gamma", "ok"))
	w.await("fixed new file", is("gamma=ok@c.tool.json"))

	assert.NoError(t, w.stop(), "Watch after its context ended")
}

// TestWatchHalfWritten writes a file in two parts with a pause longer than
// the debounce: the half is caught, reported and the last good version kept;
// the rest completes it.
func TestWatchHalfWritten(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "h.tool.json", desc("half", "old"))
	l := newLoader(t, dir)
	l.LoadAll()
	w := startWatch(t, l)

	full := desc("half", "new")
	f, err := os.OpenFile(filepath.Join(dir, "h.tool.json"), os.O_WRONLY|os.O_TRUNC, 0)
	require.NoError(t, err)
	defer f.Close()
	_, err = f.WriteString(full[:len(full)/2])
	require.NoError(t, err)
	w.await("half written", is("half=old@h.tool.json problem@h.tool.json"))
	_, err = f.WriteString(full[len(full)/2:])
	require.NoError(t, err)
	w.await("completed", is("half=new@h.tool.json"))
}

// TestWatchConflictOlderClaimWins: a file added later with a name already
// served does not take it over, even when it sorts first.
func TestWatchConflictOlderClaimWins(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "m.tool.json", desc("shared", "first"))
	l := newLoader(t, dir)
	l.LoadAll()
	w := startWatch(t, l)
	write(t, dir, "a.tool.json", desc("shared", "newcomer"))
	w.await("conflict", is("shared=first@m.tool.json problem@a.tool.json"))
	want := fmt.Sprintf(`%s:2:3: error 613: tool name "shared" is already defined by %s`,
		filepath.Join(dir, "a.tool.json"), filepath.Join(dir, "m.tool.json"))
	assert.Equal(t, want, w.snapshot().Problems[0].Error(), "conflict")
	require.NoError(t, os.Remove(filepath.Join(dir, "m.tool.json")))
	w.await("the newcomer takes over once the holder is gone", is("shared=newcomer@a.tool.json"))
}

// TestWatchCatchesUp: changes made between LoadAll and Watch are picked up
// when Watch starts.
func TestWatchCatchesUp(t *testing.T) {
	dir := t.TempDir()
	l := newLoader(t, dir)
	l.LoadAll()
	write(t, dir, "late.tool.json", desc("late", "Late"))
	w := startWatch(t, l)
	w.await("catch up", is("late=Late@late.tool.json"))
}

// TestWatchBurst: many files written at once show up together, in few
// reloads.
func TestWatchBurst(t *testing.T) {
	dir := t.TempDir()
	l := newLoader(t, dir)
	l.LoadAll()
	w := startWatch(t, l)
	for i := range 100 {
		write(t, dir, fmt.Sprintf("b%03d.tool.json", i), desc(fmt.Sprintf("burst_%03d", i), "B"))
	}
	w.await("100 tools", func(s loader.Snapshot) bool { return len(s.Tools) == 100 && len(s.Problems) == 0 })
	w.mu.Lock()
	calls := w.calls
	w.mu.Unlock()
	assert.LessOrEqual(t, calls, 10, "100 files written at once took %d reloads", calls)
}

// TestWatchLatency measures how long a change takes to show. The issue asks
// for 200 ms; the median is held to it (single runs on a loaded machine may
// be slower, and are logged).
func TestWatchLatency(t *testing.T) {
	dir := t.TempDir()
	l := newLoader(t, dir)
	l.LoadAll()
	w := startWatch(t, l)
	var took []time.Duration
	for i := range 15 {
		d := fmt.Sprintf("v%d", i)
		write(t, dir, "lat.tool.json", desc("lat", d))
		took = append(took, w.await(d, is("lat="+d+"@lat.tool.json")))
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	median := took[len(took)/2]
	t.Logf("change → snapshot: min %v, median %v, max %v", took[0], median, took[len(took)-1])
	assert.LessOrEqual(t, median, 200*time.Millisecond, "median latency")
}

func TestWatchDirectoryRemoved(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "tools")
	l := newLoader(t, dir)
	write(t, dir, "a.tool.json", desc("a", "A"))
	l.LoadAll()
	w := startWatch(t, l)
	require.NoError(t, os.RemoveAll(dir))
	select {
	case err := <-w.done:
		w.done <- err
		assert.ErrorContains(t, err, "was removed or renamed")
	case <-time.After(5 * time.Second):
		require.FailNow(t, "Watch did not return when its directory was removed")
	}
	assert.Equal(t, "a=A@a.tool.json", describe(l.Snapshot()), "the last snapshot is kept")
}

// TestWatchNoLeak starts and stops Watch many times: no goroutine and no
// inotify file descriptor may be left behind.
func TestWatchNoLeak(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.tool.json", desc("a", "A"))
	l := newLoader(t, dir)
	l.LoadAll()
	settle := func() (int, int) {
		var g, fds int
		for range 100 {
			runtime.GC()
			g, fds = runtime.NumGoroutine(), openFDs(t)
			time.Sleep(5 * time.Millisecond)
			if g2, f2 := runtime.NumGoroutine(), openFDs(t); g2 == g && f2 == fds {
				break
			}
		}
		return g, fds
	}
	g0, fd0 := settle()
	for i := range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- l.Watch(ctx, nil) }()
		waitArmed(t, l.Watching())
		write(t, dir, "a.tool.json", desc("a", fmt.Sprint(i))) // leave work in flight
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(5 * time.Second):
			require.FailNow(t, "Watch did not return")
		}
	}
	g1, fd1 := settle()
	assert.LessOrEqual(t, g1, g0, "goroutines after 20 watches")
	assert.LessOrEqual(t, fd1, fd0, "open files after 20 watches")
}

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0 // not Linux: goroutines are still counted
	}
	return len(entries)
}

// TestWatchWithConcurrentReaders runs LoadAll and Snapshot from other
// goroutines while Watch reloads (go test -race checks the locking), and the
// final state is the directory's.
func TestWatchWithConcurrentReaders(t *testing.T) {
	dir := t.TempDir()
	l := newLoader(t, dir)
	l.LoadAll()
	w := startWatch(t, l)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				l.LoadAll()
			}
		}
	})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				for _, tl := range l.Snapshot().Tools {
					_ = tl.Tool.Name()
				}
			}
		}
	})
	for i := range 30 {
		write(t, dir, fmt.Sprintf("c%d.tool.json", i%5), desc(fmt.Sprintf("conc_%d", i%5), fmt.Sprint(i)))
		time.Sleep(2 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	w.await("final state", is("conc_0=25@c0.tool.json conc_1=26@c1.tool.json conc_2=27@c2.tool.json conc_3=28@c3.tool.json conc_4=29@c4.tool.json"))
}
