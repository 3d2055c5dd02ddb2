package loader

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/nanogpt/toolgen/internal/descdir"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// This file is the scan / validate / register skeleton, written for any kind
// of definition file. Tools (*.tool.json) are its one kind today; the seed
// reserves skills (skills/*.skill.json, another schema), which would be a
// second fileKind[Skill] over its own fileSet and the same watcher, without
// touching this file.

// fileKind is one kind of definition file.
type fileKind[T any] struct {
	// ext is the file name suffix, such as ".tool.json".
	ext string
	// noun names one definition in messages: "tool".
	noun string
	// parse turns one file's contents into a definition, or reports a 613
	// naming file (with line:col where known). A parsed value with skip set
	// is neither loaded nor a problem.
	parse func(file string, data []byte) (parsed[T], error)
}

// parsed is one definition read from a file.
type parsed[T any] struct {
	item T
	name string   // the definition's unique name
	at   tool.Pos // where the name sits in the file, for conflict messages
	key  string   // identifies the content (a digest): equal keys, equal item
	skip bool     // the file defines something already defined elsewhere, identically
}

// fileState is what the set knows about one file.
type fileState[T any] struct {
	file    string    // the file's path: the set's directory joined with its name
	good    bool      // last holds the last version of the file that loaded
	last    parsed[T] // the last good version, kept while the file is broken
	since   uint64    // when the file first held last.name: the older claim wins a conflict
	problem error     // the current version's problem; nil when it loaded
	size    int64     // the size of the file last holds, counted against maxTotal while good
	over    bool      // the current version was refused by maxTotal: it is tried again at every reload
}

// fileSet holds the definitions of one directory, file by file, and resolves
// name conflicts between files. It is safe for concurrent use.
type fileSet[T any] struct {
	kind    fileKind[T]
	dir     string          // the directory as given, for messages
	real    string          // the directory, absolute with symlinks resolved
	only    map[string]bool // when set, the file names to read; others are ignored
	maxSize int64
	// maxTotal bounds the bytes of the files loaded together (their sum):
	// past it a file is refused (maxSize bounds one file, not how many
	// there are; hard links make thousands of 1 MiB files cost no disk).
	maxTotal int64
	trusted  bool   // check ownership and permissions of each file
	refused  string // when set, every file is refused unread, with this reason (WithRefusal)
	// content, when set, is a rule on each file's bytes (WithContentCheck).
	content func(file, name string, data []byte) error

	update  sync.Mutex               // serialises scan and reload, so an older read never lands after a newer one
	mu      sync.Mutex               // guards what follows
	files   map[string]*fileState[T] // by base name
	seq     uint64
	cache   *cachedView[T] // the view until the next change; nil when stale
	order   []string       // the names of the last view, sorted
	version uint64         // counts the changes
	wake    chan struct{}  // closed at the next change
}

// changedLocked records a change (s.mu held): the view is stale, and every
// watcher waiting on the old wake channel is woken.
func (s *fileSet[T]) changedLocked() {
	s.cache = nil
	s.version++
	if s.wake != nil {
		close(s.wake)
	}
	s.wake = make(chan struct{})
}

// state returns the version of the set and a channel closed at its next
// change, whoever makes it (Watch's reloads, or LoadAll from elsewhere).
func (s *fileSet[T]) state() (uint64, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wake == nil {
		s.wake = make(chan struct{})
	}
	return s.version, s.wake
}

// accepts reports whether the base name is a file of the set's kind
// (descdir.Accepts: hidden files, such as editor lock, swap and backup
// files, are never read) and, under WithFiles, one of the files named.
func (s *fileSet[T]) accepts(name string) bool {
	return descdir.Accepts(name, s.kind.ext) && (s.only == nil || s.only[name])
}

// open opens the directory for one scan or reload: a directory replaced
// since the last one is read anew.
func (s *fileSet[T]) open() (*descdir.Dir, error) {
	d, err := descdir.Open(s.dir)
	if err != nil {
		return nil, fmt.Errorf("loader: %w", err)
	}
	return d, nil
}

// scan reads every file of the directory again, as reload does for one, and
// forgets the files that are gone. Files are read and parsed in parallel,
// then applied in name order. It reports whether anything changed.
func (s *fileSet[T]) scan() (bool, error) {
	s.update.Lock()
	defer s.update.Unlock()
	d, err := s.open()
	if err != nil {
		return false, err
	}
	defer d.Close()
	all, err := d.Names(s.kind.ext)
	if err != nil {
		return false, fmt.Errorf("loader: %w", err)
	}
	var names []string
	present := map[string]bool{}
	for _, name := range all { // sorted
		if s.accepts(name) {
			names = append(names, name)
			present[name] = true
		}
	}
	results := make([]result[T], len(names))
	over := s.overBudget(d, names, 0)
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Go(func() {
			for i := range work {
				results[i] = s.load(d, names[i])
			}
		})
	}
	for i := range names {
		if over[i] {
			results[i] = s.overResult(names[i])
			continue
		}
		work <- i
	}
	close(work)
	wg.Wait()
	s.budget(names, results, 0)

	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for name := range s.files {
		if !present[name] {
			delete(s.files, name)
			changed = true
		}
	}
	for i, name := range names {
		changed = s.apply(name, results[i]) || changed
	}
	if changed {
		s.changedLocked()
	}
	return changed, nil
}

// reload reads the named files again: the work is that of these files, not
// of the directory. It reports whether anything changed.
func (s *fileSet[T]) reload(names []string) bool {
	s.update.Lock()
	defer s.update.Unlock()
	names = s.withOver(names)
	results := make([]result[T], len(names))
	d, err := s.open()
	if err != nil {
		// The directory itself is gone (every file with it) or unreadable.
		for i, name := range names {
			results[i] = result[T]{gone: true}
			if !errors.Is(err, fs.ErrNotExist) {
				results[i] = result[T]{err: fileErr(filepath.Join(s.dir, name), "cannot be read: %v", err)}
			}
		}
	} else {
		defer d.Close()
		others := s.totalBut(names)
		over := s.overBudget(d, names, others)
		for i, name := range names {
			if over[i] {
				results[i] = s.overResult(name)
			} else {
				results[i] = s.load(d, name)
			}
		}
		s.budget(names, results, others)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for i, name := range names {
		changed = s.apply(name, results[i]) || changed
	}
	if changed {
		s.changedLocked()
	}
	return changed
}

// result is the outcome of reading and parsing one file.
type result[T any] struct {
	p    parsed[T]
	err  error
	gone bool  // the file does not exist
	size int64 // the bytes read
	over bool  // refused by maxTotal
}

// withOver returns names, sorted, with the files refused by maxTotal added:
// a change elsewhere may have made room for them.
func (s *fileSet[T]) withOver(names []string) []string {
	s.mu.Lock()
	for name, st := range s.files {
		if st.over {
			names = append(names, name)
		}
	}
	s.mu.Unlock()
	slices.Sort(names)
	return slices.Compact(names)
}

// totalBut returns the bytes of the loaded files (those whose last version
// is good) other than names.
func (s *fileSet[T]) totalBut(names []string) int64 {
	skip := map[string]bool{}
	for _, n := range names {
		skip[n] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var total int64
	for name, st := range s.files {
		if st.good && !skip[name] {
			total += st.size
		}
	}
	return total
}

// overBudget tells, from the files' sizes on disk and before any is read,
// which of names (sorted) would take the bytes loaded past maxTotal, given
// others already loaded: those are not read at all, so that a directory of
// thousands of large files never sits in memory at once.
func (s *fileSet[T]) overBudget(d *descdir.Dir, names []string, others int64) []bool {
	over := make([]bool, len(names))
	if s.maxTotal <= 0 || s.refused != "" {
		return over
	}
	total := others
	for i, name := range names {
		size, ok := d.Size(name)
		if !ok || size > s.maxSize {
			continue // readFile tells what is wrong with it
		}
		if total+size > s.maxTotal {
			over[i] = true
			continue
		}
		total += size
	}
	return over
}

// budget refuses, in name order, each loaded result that takes the bytes
// loaded (others plus the results before it) past maxTotal: a file that
// grew after overBudget looked at it.
func (s *fileSet[T]) budget(names []string, results []result[T], others int64) {
	if s.maxTotal <= 0 {
		return
	}
	total := others
	for i := range results {
		r := &results[i]
		if r.err != nil || r.gone || r.p.skip {
			continue
		}
		if total+r.size > s.maxTotal {
			*r = s.overResult(names[i])
			continue
		}
		total += r.size
	}
}

// overResult is the 613 of a file refused by the total size limit.
func (s *fileSet[T]) overResult(name string) result[T] {
	file := filepath.Join(s.dir, name)
	return result[T]{over: true, err: fileErr(file, "not loaded: with it, the descriptors of %s would take more than %s in all; "+
		"a tools directory holds small JSON files (fewer or smaller descriptors load)", s.dir, descdir.Human(s.maxTotal))}
}

// load reads and parses one file of d; it touches no state.
func (s *fileSet[T]) load(d *descdir.Dir, name string) result[T] {
	if s.refused != "" {
		return s.refuse(d, name)
	}
	data, err := readFile(d, s.real, name, s.maxSize, s.trusted)
	if errors.Is(err, descdir.ErrGone) {
		return result[T]{gone: true}
	}
	if err != nil {
		return result[T]{err: err}
	}
	if s.content != nil {
		if err := s.content(filepath.Join(s.dir, name), name, data); err != nil {
			return result[T]{err: err, size: int64(len(data))}
		}
	}
	p, err := s.kind.parse(filepath.Join(s.dir, name), data)
	return result[T]{p: p, err: err, size: int64(len(data))}
}

// refuse is load under WithRefusal: the file is not read, only seen.
func (s *fileSet[T]) refuse(d *descdir.Dir, name string) result[T] {
	file := filepath.Join(s.dir, name)
	if !d.Exists(name) {
		return result[T]{gone: true}
	}
	return result[T]{err: &tool.Error{Code: tool.CodeSpec, File: file, Msg: s.refused}}
}

// apply records a file's new result (s.mu held) and reports whether that
// changed anything. A broken file keeps its last good version.
func (s *fileSet[T]) apply(name string, r result[T]) bool {
	old, existed := s.files[name]
	if r.gone {
		delete(s.files, name)
		return existed
	}
	st := &fileState[T]{file: filepath.Join(s.dir, name)}
	if existed {
		*st = *old
	}
	st.problem, st.over = r.err, r.over
	if r.err == nil {
		if !st.good || st.last.name != r.p.name {
			s.seq++
			st.since = s.seq
		}
		st.good, st.last, st.size = !r.p.skip, r.p, r.size
	}
	s.files[name] = st
	return !existed || !sameState(old, st)
}

func sameState[T any](a, b *fileState[T]) bool {
	return a.good == b.good && a.last.key == b.last.key && a.last.name == b.last.name &&
		a.last.skip == b.last.skip && errText(a.problem) == errText(b.problem)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// loadedItem is one definition in a view, with the file it comes from.
type loadedItem[T any] struct {
	item T
	name string
	file string
	key  string
}

// cachedView is the outcome of view until the next change.
type cachedView[T any] struct {
	items    []loadedItem[T]
	problems []error
}

// view returns the definitions that load, sorted by name, and the problems,
// sorted by file: each broken file's 613 (its last good version, if any,
// still loads), and a 613 for each file whose name another file claimed
// first, naming both. It reads nothing: after a change it costs a pass over
// the set in memory, and nothing until the next change. The slices are
// shared by every caller until then and must not be modified.
func (s *fileSet[T]) view() ([]loadedItem[T], []error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache != nil {
		return s.cache.items, s.cache.problems
	}
	owner := make(map[string]*fileState[T], len(s.files))
	var losers []*fileState[T]
	var problems []fileProblem
	for _, st := range s.files {
		if st.problem != nil {
			problems = append(problems, fileProblem{st.file, 0, st.problem})
		}
		if !st.good {
			continue
		}
		prev, taken := owner[st.last.name]
		switch {
		case !taken:
			owner[st.last.name] = st
		case older(st, prev):
			owner[st.last.name] = st
			losers = append(losers, prev)
		default:
			losers = append(losers, st)
		}
	}
	for _, st := range losers {
		problems = append(problems, fileProblem{st.file, 1, s.conflict(st, owner[st.last.name].file)})
	}
	// The names of the last view are in order already: an edit or a removal
	// keeps that order, and only a new name calls for sorting.
	winners := make([]*fileState[T], 0, len(owner))
	for _, name := range s.order {
		if st, ok := owner[name]; ok {
			winners = append(winners, st)
		}
	}
	if len(winners) < len(owner) {
		winners = winners[:0]
		for _, st := range owner {
			winners = append(winners, st)
		}
		slices.SortFunc(winners, func(a, b *fileState[T]) int { return strings.Compare(a.last.name, b.last.name) })
	}
	items := make([]loadedItem[T], len(winners))
	s.order = s.order[:0]
	for i, st := range winners {
		items[i] = loadedItem[T]{item: st.last.item, name: st.last.name, file: st.file, key: st.last.key}
		s.order = append(s.order, st.last.name)
	}
	slices.SortFunc(problems, func(a, b fileProblem) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		return a.order - b.order
	})
	errs := make([]error, len(problems))
	for i, p := range problems {
		errs[i] = p.err
	}
	s.cache = &cachedView[T]{items: items, problems: errs}
	return items, errs
}

// older reports whether a holds its name from before b: the older claim
// wins a conflict (the file name breaks a tie within one scan).
func older[T any](a, b *fileState[T]) bool {
	if a.since != b.since {
		return a.since < b.since
	}
	return a.file < b.file
}

type fileProblem struct {
	file  string
	order int // a file's own problem before its conflict
	err   error
}

func (s *fileSet[T]) conflict(st *fileState[T], first string) error {
	p := st.last
	return &tool.Error{Code: tool.CodeSpec, File: st.file, Line: p.at.Line, Col: p.at.Col, Field: "name",
		Msg: fmt.Sprintf("%s name %q is already defined by %s", s.kind.noun, p.name, first)}
}
