package tool

import (
	"errors"
	"sort"
	"strings"
)

// Pos is a 1-based line and byte column in a descriptor file.
type Pos struct {
	Line, Col int
}

// Positions records where each field of a decoded descriptor sits in its
// file, keyed by the dotted field path used in Error.Field ("name",
// "arguments.path", "arguments.path.type", "arguments.mode.enum.1").
type Positions struct {
	// File is the descriptor's file name as given to DecodeSpec.
	File     string
	at       map[string]Pos
	complete bool
}

// Complete reports whether DecodeSpec read the whole file: its problems, if
// any, concern single fields, and the Spec holds every other field, so it
// can be validated too. It is false after invalid JSON or an unreadable
// file, and for a nil Positions.
func (p *Positions) Complete() bool { return p != nil && p.complete }

// Has reports whether the file gives field itself (not only a parent).
func (p *Positions) Has(field string) bool {
	if p == nil {
		return false
	}
	_, ok := p.at[field]
	return ok
}

// Of returns the position of field, falling back to its closest recorded
// parent ("arguments.x.default" → "arguments.x" → "arguments").
func (p *Positions) Of(field string) (Pos, bool) {
	if p == nil {
		return Pos{}, false
	}
	for f := field; f != ""; {
		if pos, ok := p.at[f]; ok {
			return pos, true
		}
		i := strings.LastIndexByte(f, '.')
		if i < 0 {
			break
		}
		f = f[:i]
	}
	return Pos{}, false
}

// Locate sets File, Line and Col on every *Error in err (a single error or an
// errors.Join) whose File is empty, from its Field. A single error is
// returned as it is; several are returned as one errors.Join in file order
// (problems without a position first, then by line and column; the order
// they were found in among equals).
func (p *Positions) Locate(err error) error {
	if p == nil || err == nil {
		return err
	}
	errs := Flatten(err)
	for _, e := range errs {
		var te *Error
		if !errors.As(e, &te) || te.File != "" {
			continue
		}
		te.File = p.File
		if pos, ok := p.Of(te.Field); ok {
			te.Line, te.Col = pos.Line, pos.Col
		}
	}
	if len(errs) < 2 {
		return err
	}
	sort.SliceStable(errs, func(i, j int) bool { return posOf(errs[i]).before(posOf(errs[j])) })
	return errors.Join(errs...)
}

// posOf returns the position of err, zero when it has none.
func posOf(err error) Pos {
	var te *Error
	if errors.As(err, &te) {
		return Pos{Line: te.Line, Col: te.Col}
	}
	return Pos{}
}

func (p Pos) before(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Flatten returns the errors joined in err (errors.Join, nested), or err
// itself when it is a single error.
func Flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, Flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// lineIndex converts byte offsets of one file to positions.
type lineIndex []int // offsets of the '\n' bytes

func newLineIndex(data []byte) lineIndex {
	var idx lineIndex
	for i, c := range data {
		if c == '\n' {
			idx = append(idx, i)
		}
	}
	return idx
}

// pos returns the 1-based line and byte column of offset off.
func (idx lineIndex) pos(off int64) Pos {
	line := sort.SearchInts(idx, int(off)) // newlines before off
	start := 0
	if line > 0 {
		start = idx[line-1] + 1
	}
	return Pos{Line: line + 1, Col: int(off) - start + 1}
}
