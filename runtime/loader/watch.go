package loader

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch keeps the loader current until ctx ends. It first rescans the
// directory (calling onChange when that changed anything since the last
// LoadAll), then reloads each file that is added, written, renamed or
// removed, and calls onChange with the new Snapshot:
//
//   - changes are debounced (WithDebounce, default 50 ms of quiet) and a
//     burst is applied at most 150 ms after it began, so a change shows
//     within about 200 ms;
//   - only the files that changed are read again;
//   - a file that is broken now (caught half-written, or saved with a
//     mistake) keeps its last good version in the Snapshot, and its 613 is
//     in Snapshot.Problems until it is fixed;
//   - editors that save by writing a temporary file and renaming it over
//     the descriptor work: the rename is a change of the descriptor.
//
// The loader's state changes atomically between two Snapshots; onChange is
// called from Watch's goroutine, one call at a time, and should return
// promptly. A change made by a LoadAll from another goroutine is handed on
// too. If events were lost (the kernel's queue overflowed) the whole
// directory is rescanned.
//
// Watch returns nil when ctx ends, having released its watch and stopped
// every goroutine it started. It returns an error when the watch cannot be
// set up or the directory itself is removed or renamed; the last Snapshot
// stays as it was.
func (l *Loader) Watch(ctx context.Context, onChange func(Snapshot)) error {
	notify := func() {
		if onChange != nil {
			onChange(l.Snapshot())
		}
	}
	armed := false
	defer func() {
		if armed {
			l.armed.leave()
		}
	}()
	return watchDir(ctx, l.set.real, l.set, l.cfg.debounce, notify, func() {
		armed = true
		l.armed.enter()
	})
}

// Watching returns a channel that is closed once a Watch of l is in place:
// its watch on the directory is set up and the directory rescanned, so
// every change made from then on is seen by that Watch (and handed to its
// onChange after the debounce). Taken while no Watch is in place, the
// channel is closed by the next Watch to arm; it stays closed until every
// Watch of l has returned, and the next call returns a new one.
func (l *Loader) Watching() <-chan struct{} { return l.armed.wait() }

// armedSignal is Watching's channel: closed while at least one Watch is
// armed.
type armedSignal struct {
	mu    sync.Mutex
	c     chan struct{}
	count int // Watches armed and not returned
}

func (a *armedSignal) wait() <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.c == nil {
		a.c = make(chan struct{})
	}
	return a.c
}

// enter marks one Watch armed.
func (a *armedSignal) enter() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.c == nil {
		a.c = make(chan struct{})
	}
	if a.count == 0 {
		close(a.c)
	}
	a.count++
}

// leave marks an armed Watch returned: when none is left, the next wait
// gets a new channel.
func (a *armedSignal) leave() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.count--
	if a.count == 0 {
		a.c = nil
	}
}

// watched is what the watcher drives: a fileSet of any kind.
type watched interface {
	accepts(name string) bool
	reload(names []string) bool
	scan() (bool, error)
	state() (version uint64, next <-chan struct{})
}

// watchDir watches dir (absolute, symlinks resolved) for set.
// armed is called once the watch is in place and the directory rescanned.
func watchDir(ctx context.Context, dir string, set watched, debounce time.Duration, notify, armed func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("loader: watch %s: %w", dir, err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		return fmt.Errorf("loader: watch %s: %w", dir, err)
	}
	// notified is the version onChange last saw; any change, made by this
	// watch or by a LoadAll elsewhere, is handed on.
	notified, _ := set.state()
	var next <-chan struct{}
	handOn := func() {
		var v uint64
		v, next = set.state()
		if v != notified {
			notified = v
			notify()
		}
	}
	// Catch up with whatever changed before the watch was in place.
	if _, err := set.scan(); err != nil {
		return err
	}
	handOn()
	armed()
	d := debouncer{quiet: debounce, max: max(maxDelay, debounce)}
	defer d.stop()
	pending := map[string]bool{}
	rescan := false
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Clean(ev.Name) == dir {
				if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
					return fmt.Errorf("loader: watched directory %s was removed or renamed; watching stopped", dir)
				}
				continue
			}
			name := filepath.Base(ev.Name)
			if !set.accepts(name) || ev.Op == fsnotify.Chmod {
				continue
			}
			pending[name] = true
			d.arm()
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				return fmt.Errorf("loader: watch %s: %w", dir, err)
			}
			rescan = true
			d.arm()
		case <-next:
			handOn()
		case <-d.c:
			d.fired()
			if rescan {
				if _, err := set.scan(); err != nil {
					return err
				}
			} else {
				names := make([]string, 0, len(pending))
				for name := range pending {
					names = append(names, name)
				}
				set.reload(names)
			}
			clear(pending)
			rescan = false
			handOn()
		}
	}
}

// debouncer fires once the events have been quiet for quiet, or max after
// the first event of a burst, whichever comes first.
type debouncer struct {
	quiet, max time.Duration
	timer      *time.Timer
	c          <-chan time.Time // nil when not armed
	first      time.Time
}

func (d *debouncer) arm() {
	now := time.Now()
	if d.c == nil {
		d.first = now
	}
	wait := min(d.quiet, d.max-now.Sub(d.first))
	if d.timer == nil {
		d.timer = time.NewTimer(wait)
	} else {
		d.timer.Reset(wait)
	}
	d.c = d.timer.C
}

func (d *debouncer) fired() { d.c = nil }

func (d *debouncer) stop() {
	if d.timer != nil {
		d.timer.Stop()
	}
}
