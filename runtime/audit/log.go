package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// Defaults of Options.
const (
	DefaultSyncInterval = time.Second
	DefaultKeep         = 5
)

// Options configure Open.
type Options struct {
	// MaxSize rotates the file before a record would make it larger than
	// MaxSize bytes; 0 never rotates.
	MaxSize int64
	// Keep is how many rotated files are kept (FILE.1 … FILE.Keep); the
	// oldest beyond it is overwritten. Default DefaultKeep.
	Keep int
	// SyncInterval bounds how long a written record may wait for its fsync.
	// Default DefaultSyncInterval; negative fsyncs after every record.
	SyncInterval time.Duration
}

// Log is an append-only file of records (or a stream such as stderr). It is
// safe for concurrent use. The zero value is not usable: use Open or
// NewWriter.
type Log struct {
	path string // "" for a stream
	opts Options

	mu    sync.Mutex
	w     io.Writer // f, or the stream
	f     *os.File  // nil for a stream
	id    fileID    // f's device and inode, to tell whether path still names it
	size  int64
	seq   uint64
	last  string // digest of the last line written (the next line's prev)
	dirty bool
	err   error // sticky: the log is broken
	lost  error // path names no file that can be opened: calls wait for it (not sticky)
	buf   bytes.Buffer
	enc   *json.Encoder

	stop chan struct{}
	done chan struct{}
}

// Open opens (creating it 0600 if needed) path for appending records. It
// refuses a path whose last component is a symbolic link, and a file with
// more than one hard link.
func Open(path string, opts Options) (*Log, error) {
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if opts.SyncInterval == 0 {
		opts.SyncInterval = DefaultSyncInterval
	}
	f, size, err := openAppend(path, false)
	if err != nil {
		return nil, err
	}
	l := &Log{path: path, opts: opts, w: f, f: f, size: size}
	if err := l.adopt(f, size); err != nil {
		f.Close()
		return nil, err
	}
	l.init()
	if opts.SyncInterval > 0 {
		l.stop, l.done = make(chan struct{}), make(chan struct{})
		go l.syncLoop()
	}
	return l, nil
}

// NewWriter returns a log writing records to w (for instance os.Stderr),
// without fsync or rotation.
func NewWriter(w io.Writer) *Log {
	l := &Log{w: w}
	l.init()
	return l
}

func (l *Log) init() {
	l.enc = json.NewEncoder(&l.buf)
	l.enc.SetEscapeHTML(false)
}

// fileID identifies a file: its device and inode.
type fileID struct{ dev, ino uint64 }

// adopt makes f (size bytes) the open file: its identity, and the digest
// of its last line, which the next line's prev continues from (a log
// restarted on the same file keeps one chain). A last line without its
// newline (a write torn by a crash) is ended first, so the next record
// starts a line of its own; the torn line stays, and --verify shows it.
// Called with mu held, or before the log is shared.
func (l *Log) adopt(f *os.File, size int64) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	digest, complete, err := lastLine(f, size)
	if err != nil {
		return fmt.Errorf("audit: reading the last line of %s: %w", l.path, err)
	}
	if !complete {
		if _, err := f.Write([]byte("\n")); err != nil {
			return fmt.Errorf("audit: ending the torn last line of %s: %w", l.path, err)
		}
		size++
	}
	if digest != "" {
		l.last = digest
	}
	l.f, l.w, l.size, l.id = f, f, size, idOf(st)
	return nil
}

func openAppend(path string, excl bool) (*os.File, int64, error) {
	flags := os.O_RDWR | os.O_APPEND | os.O_CREATE | noFollowFlags // sys_unix.go, sys_other.go
	if excl {
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, 0, fmt.Errorf("audit: %s is a symbolic link; give the log file itself", path)
		}
		return nil, 0, fmt.Errorf("audit: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("audit: %w", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("audit: %s is not a regular file", path)
	}
	// A hard link is another name of some other file (a shell's rc file,
	// say): the log would append the model's arguments to it, as a
	// symbolic link would.
	if n, ok := linkCount(st); ok && n > 1 {
		f.Close()
		return nil, 0, fmt.Errorf("audit: %s has %d hard links, so it is also another file; give the log a file of its own", path, n)
	}
	return f, st.Size(), nil
}

// Err returns the error that broke the log, or the one that keeps it from
// being written now (its path names no file that can be opened: see
// Write), or nil while records can be written. Like Write, it first checks
// that the path still names the open file, and reopens it when not, so a
// call asked about before it runs is refused rather than run unrecorded.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil && l.f != nil {
		l.checkPath()
	}
	if l.err != nil {
		return l.err
	}
	return l.lost
}

// Write numbers r (r.Seq), links it to the line before (r.Prev), encodes
// it and appends it as one line, rotating the file first when needed.
//
// Before each write it checks that the log's path still names the open
// file (the same device and inode). When the file was deleted, renamed
// (rotated by another program) or replaced, it opens the path again
// (creating the file), writes a line saying what happened (event
// "reopened"), and then the record: no record goes to a file nobody can
// find. When the path cannot be opened, the record is not written and
// Write and Err return why, until a later call can open it. Any other
// error breaks the log for good (see Err).
func (l *Log) Write(r *Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if l.f != nil {
		if err := l.checkPath(); err != nil {
			return err
		}
	}
	return l.write(r)
}

// checkPath reopens the log when its path no longer names the open file,
// and writes the line saying so. Called with mu held.
func (l *Log) checkPath() error {
	now, err := lstatID(l.path) // sys_unix.go, sys_other.go

	if err == nil && now == l.id && l.lost == nil {
		return nil
	}
	var what string
	switch {
	case err == nil && now == l.id:
		what = "back" // lost before, and the same file is there again
	case errors.Is(err, os.ErrNotExist):
		what = "renamed or moved away"
		if fst, ferr := l.f.Stat(); ferr == nil {
			if n, ok := linkCount(fst); ok && n == 0 {
				what = "deleted"
			}
		}
	case err != nil:
		l.lost = fmt.Errorf("audit: %s: %w; no call runs until the log can be written", l.path, err)
		return l.lost
	default:
		what = "replaced by another file"
	}
	if l.lost == nil || what != "back" {
		f, size, err := openAppend(l.path, false)
		if err != nil {
			l.lost = fmt.Errorf("audit: the log file %s was %s and cannot be opened again: %w; no call runs until it can", l.path, what, err)
			return l.lost
		}
		old := l.f
		if err := l.adopt(f, size); err != nil {
			f.Close()
			l.lost = err
			return err
		}
		if old != nil && old != f {
			old.Sync()
			old.Close()
		}
	}
	detail := fmt.Sprintf("%s was %s while the log was open; reopened at the path", l.path, what)
	if what == "back" {
		detail = fmt.Sprintf("%s could not be reached for a while; the same file is there again", l.path)
	}
	if l.lost != nil {
		detail += fmt.Sprintf(" (until then the calls were refused: %v)", l.lost)
	}
	if what == "deleted" {
		detail += "; the lines written before are gone with the deleted file (prev is the digest of the last)"
	}
	l.lost = nil
	return l.write(&Record{Time: time.Now().UTC().Format(time.RFC3339Nano), Event: EventReopened, Detail: detail})
}

// write numbers, links, encodes and appends r, rotating the file first
// when r would make it larger than MaxSize. Called with mu held.
func (l *Log) write(r *Record) error { return l.writeLine(r, true) }

// EventRotated is the event of the first line of a file a rotation
// started: the lines before it are in the rotated file (FILE.1), and its
// prev is the digest of that file's last line.
const EventRotated = "rotated"

// EventReopened is the event of a line written after the log's path was
// found to name another file, or none, and was opened again.
const EventReopened = "reopened"

// writeLine is write; mayRotate is false for the line a rotation writes
// first, so that a record larger than MaxSize cannot rotate for ever.
func (l *Log) writeLine(r *Record, mayRotate bool) error {
	l.seq++
	r.Seq = l.seq
	r.Prev = l.last
	if r.Prev == "" {
		r.Prev = genesis
	}
	r.FileStart = l.f != nil && l.size == 0 && r.Prev != genesis && r.Event != ""
	l.buf.Reset()
	if err := l.enc.Encode(r); err != nil {
		l.seq--
		return fmt.Errorf("audit: encoding a record: %w", err) // the record, not the log, is bad
	}
	line := l.buf.Bytes()
	if !utf8.Valid(line) { // the encoder makes strings valid; a rawJSON could slip through
		l.seq--
		return errors.New("audit: a record is not valid UTF-8; it was not written")
	}
	if mayRotate && l.f != nil && l.opts.MaxSize > 0 && l.size > 0 && l.size+int64(len(line)) > l.opts.MaxSize {
		l.seq--
		if err := l.rotate(); err != nil {
			return l.fail(err)
		}
		// The new file's first line says it continues the rotated one, so
		// that a file whose head was cut (it starts mid-chain without
		// such a line) fails --verify.
		rot := &Record{Time: time.Now().UTC().Format(time.RFC3339Nano), Event: EventRotated,
			Detail: fmt.Sprintf("%s reached %d bytes: the lines before this one are in %s.1", l.path, l.opts.MaxSize, l.path)}
		if err := l.writeLine(rot, false); err != nil {
			return err
		}
		return l.writeLine(r, false)
	}
	n, err := l.w.Write(line)
	l.size += int64(n)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return l.fail(fmt.Errorf("audit: writing %s: %w", l.name(), err))
	}
	l.last = lineDigest(line[:len(line)-1])
	if l.f != nil {
		if l.opts.SyncInterval < 0 {
			if err := l.f.Sync(); err != nil {
				return l.fail(fmt.Errorf("audit: fsync %s: %w", l.path, err))
			}
		} else {
			l.dirty = true
		}
	}
	return nil
}

func (l *Log) name() string {
	if l.path == "" {
		return "the audit stream"
	}
	return l.path
}

func (l *Log) fail(err error) error {
	l.err = err
	return err
}

// rotate syncs and closes the file, shifts FILE.i to FILE.i+1 (dropping the
// oldest), renames FILE to FILE.1 and opens a new FILE. Called with mu held.
func (l *Log) rotate() error {
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("audit: fsync %s before rotating: %w", l.path, err)
	}
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("audit: closing %s before rotating: %w", l.path, err)
	}
	l.f, l.w = nil, io.Discard
	for i := l.opts.Keep - 1; i >= 1; i-- {
		from := l.path + "." + strconv.Itoa(i)
		if err := os.Rename(from, l.path+"."+strconv.Itoa(i+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("audit: rotating: %w", err)
		}
	}
	if err := os.Rename(l.path, l.path+".1"); err != nil {
		return fmt.Errorf("audit: rotating: %w", err)
	}
	f, size, err := openAppend(l.path, true)
	if err != nil {
		return err
	}
	l.dirty = false
	return l.adopt(f, size)
}

func (l *Log) syncLoop() {
	defer close(l.done)
	t := time.NewTicker(l.opts.SyncInterval)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.Sync()
		}
	}
}

// Sync fsyncs what was written, if anything; a failure breaks the log. It
// does not hold the lock during the fsync, so records keep being written
// meanwhile.
func (l *Log) Sync() error {
	l.mu.Lock()
	if l.err != nil || l.f == nil || !l.dirty {
		err := l.err
		l.mu.Unlock()
		return err
	}
	l.dirty = false
	f := l.f
	l.mu.Unlock()
	err := f.Sync()
	if err == nil || errors.Is(err, os.ErrClosed) {
		return nil // closed by a rotation, which syncs before closing
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = fmt.Errorf("audit: fsync %s: %w", l.path, err)
	}
	return l.err
}

// Close syncs and closes the file (not a stream given to NewWriter). Later
// writes fail.
func (l *Log) Close() error {
	if l.stop != nil {
		close(l.stop)
		<-l.done
		l.stop = nil
	}
	err := l.Sync()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		if cerr := l.f.Close(); err == nil {
			err = cerr
		}
		l.f = nil
	}
	if l.err == nil {
		l.err = errors.New("audit: the log is closed")
	}
	return err
}
