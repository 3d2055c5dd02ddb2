package audit

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// digestPrefix starts every line digest.
const digestPrefix = "sha256:"

// genesis is the prev of a log's first line: the digest of no line.
var genesis = digestPrefix + strings.Repeat("0", 64)

// IsDigest reports whether s is a line digest as Verify prints a head:
// "sha256:" and 64 lower-case hex digits.
func IsDigest(s string) bool {
	hexPart, ok := strings.CutPrefix(s, digestPrefix)
	if !ok || len(hexPart) != 64 {
		return false
	}
	for _, c := range hexPart {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// lineDigest is the digest a line's successor carries in its prev field:
// of the line's bytes, its newline excluded.
func lineDigest(line []byte) string {
	sum := sha256.Sum256(line)
	return digestPrefix + hex.EncodeToString(sum[:])
}

// lastLine returns the digest of the last line of f (size bytes), read
// backwards in blocks, and whether the file ends with a newline (false: it
// ends inside a line, a write torn by a crash). An empty file has digest
// "".
func lastLine(f *os.File, size int64) (digest string, complete bool, err error) {
	if size == 0 {
		return "", true, nil
	}
	const block = 64 << 10
	var one [1]byte
	if _, err := f.ReadAt(one[:], size-1); err != nil {
		return "", false, err
	}
	complete = one[0] == '\n'
	end := size
	if complete {
		end--
	}
	// Find the start of the last line.
	start := int64(0)
	buf := make([]byte, block)
	for pos := end; pos > 0; {
		n := int64(block)
		if pos < n {
			n = pos
		}
		if _, err := f.ReadAt(buf[:n], pos-n); err != nil && !errors.Is(err, io.EOF) {
			return "", false, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			start = pos - n + int64(i) + 1
			break
		}
		pos -= n
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, start, end-start)); err != nil {
		return "", false, err
	}
	return digestPrefix + hex.EncodeToString(h.Sum(nil)), complete, nil
}

// Named is one file of a log given to Verify: its name, for messages, and
// its content.
type Named struct {
	Name string
	R    io.Reader
}

// Verification is what Verify found.
type Verification struct {
	// Lines is the number of non-blank lines read; Chained of them carry a
	// prev link, Unchained (the first ones, written before toolgen chained
	// its lines) do not and cannot be verified.
	Lines, Chained, Unchained int
	// Continues is set when the first line links to a line not given and
	// is the line a rotation (or a reopening) starts a file with: the log's
	// earlier files were not given, and the join cannot be checked. A first
	// line that links to a line not given and is no such line is a Break
	// (lines cut from the head).
	Continues bool
	// Head is the digest of the last line: record it elsewhere, and a later
	// Verify whose chain passes through a line with that digest shows that
	// nothing up to it changed since.
	Head string
	// Break, when not nil, is the first line that does not follow the one
	// before it; Verify stops there.
	Break *Break
	// Through, for VerifyThrough, is the line of the chain whose digest is
	// the head given; nil when no line has it.
	Through *Break
}

// Break locates where the chain is broken, and says how.
type Break struct {
	File string
	Line int
	// Reason names what happened as far as the line's seq and prev tell:
	// an edited line, lines removed, a line inserted or moved, a line that
	// is not a record.
	Reason string
}

func (b *Break) Error() string { return fmt.Sprintf("%s:%d: %s", b.File, b.Line, b.Reason) }

// Verify reads the files of one log, oldest first (FILE.2 FILE.1 FILE),
// and checks its hash chain: every line's prev must be the digest of the
// line before it, so that an edited, removed, inserted or reordered line
// breaks the chain at the first place it touches. The chain has no key:
// whoever can write the file can rewrite every line after an edit, so keep
// Head (or ship the log) somewhere the writer cannot reach to make that
// show too. An error is one of reading.
func Verify(files []Named, maxLine int) (*Verification, error) { return verify(files, maxLine, "") }

// VerifyThrough is Verify, and also looks for the line whose digest is
// head, a Head an earlier Verify printed and the user kept where the
// log's writer cannot reach: Through names that line when the chain passes
// through it. A log cut at its tail (its last lines removed, up to and past
// that head) verifies as a whole, since nothing links forward, and only
// this shows it: Through stays nil.
func VerifyThrough(files []Named, maxLine int, head string) (*Verification, error) {
	return verify(files, maxLine, head)
}

func verify(files []Named, maxLine int, head string) (*Verification, error) {
	if maxLine <= 0 {
		maxLine = maxLineBytes
	}
	v := &Verification{}
	it := &chainLines{files: files, max: maxLine}
	var prev *chainLine // the line before
	for {
		e, err := it.next()
		if err != nil {
			return v, err
		}
		if e == nil {
			break
		}
		v.Lines++
		if e.bad != "" {
			v.Break = &Break{File: e.file, Line: e.n, Reason: e.bad}
			return v, nil
		}
		switch {
		case e.prev == "" && v.Chained == 0:
			v.Unchained++ // written before lines were chained
		case e.prev == "":
			v.Break = &Break{File: e.file, Line: e.n, Reason: "the line carries no prev link, and the lines before it do: inserted, or edited (its link removed)"}
			return v, nil
		case prev == nil && e.prev != genesis && !e.fileStart:
			v.Break = &Break{File: e.file, Line: e.n, Reason: "the log starts mid-chain: its first line links to a line not given, and it is " +
				"not the line a rotation or a reopening starts a file with (file_start), so lines were cut from its head (or give the log's earlier " +
				"files first, oldest first)"}
			return v, nil
		case prev == nil:
			v.Chained++
			v.Continues = e.prev != genesis
		case e.prev != prev.digest:
			next, err := it.next()
			if err != nil {
				return v, err
			}
			v.Break = broken(prev, e, next)
			return v, nil
		default:
			v.Chained++
		}
		if head != "" && e.digest == head && v.Through == nil {
			v.Through = &Break{File: e.file, Line: e.n, Reason: "the line whose digest is the head given"}
		}
		prev = e
	}
	if prev != nil {
		v.Head = prev.digest
	}
	return v, nil
}

// broken says where and how the chain breaks between prev and e (whose
// prev link does not match), from the line after e (nil at the end) and
// the seq numbers: e inserted or moved (next follows prev), prev edited
// (e follows it in seq), lines removed (seq jumps).
func broken(prev, e, next *chainLine) *Break {
	at := func(l *chainLine, format string, args ...any) *Break {
		return &Break{File: l.file, Line: l.n, Reason: fmt.Sprintf(format, args...)}
	}
	before := fmt.Sprintf("%s:%d", prev.file, prev.n)
	switch {
	case next != nil && next.bad == "" && next.prev == prev.digest:
		return at(e, "the line was inserted or moved here: the line after it follows the line before it (%s)", before)
	case e.seq == prev.seq+1:
		return at(prev, "the line was edited: its digest is not the prev the next line (%s:%d) recorded (or that line's prev was edited)", e.file, e.n)
	case e.seq > prev.seq+1:
		return at(e, "%d line(s) removed before this line: its prev is not the digest of the line before it (%s), and its seq %d follows %d",
			e.seq-prev.seq-1, before, e.seq, prev.seq)
	case e.seq == 1:
		return at(e, "its prev is not the digest of the line before it (%s): that line was edited, or lines after it removed, or this one (seq 1: a server's first line) inserted", before)
	}
	return at(e, "the line was inserted or moved: its prev is not the digest of the line before it (%s), and its seq %d comes after %d", before, e.seq, prev.seq)
}

// chainLine is one non-blank line of a log, as Verify reads it.
type chainLine struct {
	file string
	n    int // line number in file
	seq  uint64
	prev string
	// fileStart: the line says it is the first of a file that continues
	// the chain of another (Record.FileStart, on an event line).
	fileStart bool
	digest    string
	bad       string // why the line is not a record, or ""
}

// chainLines reads the non-blank lines of files in turn.
type chainLines struct {
	files []Named
	max   int
	i     int
	lr    *lineReader
	n     int
}

// next returns the next non-blank line, or nil after the last.
func (c *chainLines) next() (*chainLine, error) {
	for c.i < len(c.files) {
		f := c.files[c.i]
		if c.lr == nil {
			c.lr, c.n = &lineReader{r: bufio.NewReaderSize(f.R, 64<<10), max: c.max}, 0
		}
		line, tooLong, err := c.lr.next()
		c.n++
		if err == io.EOF {
			c.i, c.lr = c.i+1, nil
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("audit: reading %s: %w", f.Name, err)
		}
		if !tooLong && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e := &chainLine{file: f.Name, n: c.n}
		var head struct {
			Seq       uint64 `json:"seq"`
			Prev      string `json:"prev"`
			Event     string `json:"event"`
			FileStart bool   `json:"file_start"`
		}
		switch {
		case tooLong:
			e.bad = fmt.Sprintf("a line longer than %d bytes: not a record", c.max)
		case !utf8.Valid(line):
			e.bad = "the line is not valid UTF-8: not a line the log writes (edited, or a write torn by a crash)"
		default:
			if err := json.Unmarshal(line, &head); err != nil {
				e.bad = fmt.Sprintf("the line is not a record (%v): edited, or a write torn by a crash", err)
			}
			e.seq, e.prev, e.digest = head.Seq, head.Prev, lineDigest(line)
			e.fileStart = head.FileStart && head.Event != ""
		}
		return e, nil
	}
	return nil, nil
}
