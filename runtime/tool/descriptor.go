package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DescriptorExt is the file name suffix of declarative tools.
const DescriptorExt = ".tool.json"

// DecodeSpec decodes the contents of a *.tool.json file. It is strict: the
// file must be one JSON object in UTF-8 without a byte order mark, with no
// unknown field, no duplicate key, no value of the wrong JSON type and
// nothing after the object; name, description and command must be present.
// Slots keep the order they are written in.
//
// Any problem is a 613 *Error carrying file and, where the problem sits at a
// place in the file, its line and column. Every independent problem is
// reported (an errors.Join, in the order found): an unknown field, a
// duplicate key or a value of the wrong JSON type is reported and skipped,
// and decoding goes on. Only what makes the rest meaningless stops it:
// invalid JSON, an empty or non-UTF-8 file. Positions.Complete tells the two
// apart: when it is true the Spec holds every field the file gives right,
// so it can be validated as well (package validate checks the Spec's
// content, and the returned Positions locate its errors, Positions.Locate).
func DecodeSpec(file string, data []byte) (Spec, *Positions, error) {
	d := &specDecoder{
		file:  file,
		data:  data,
		lines: newLineIndex(data),
		pos:   &Positions{File: file, at: map[string]Pos{}},
	}
	if err := d.precheck(); err != nil {
		return Spec{}, d.pos, err
	}
	d.dec = json.NewDecoder(bytes.NewReader(data))
	d.dec.UseNumber()
	s, err := d.spec()
	if err != nil { // fatal: the problems found before it stand too
		return Spec{}, d.pos, errors.Join(append(d.problems, err)...)
	}
	d.pos.complete = true
	return s, d.pos, errors.Join(d.problems...)
}

type specDecoder struct {
	file     string
	data     []byte
	lines    lineIndex
	dec      *json.Decoder
	pos      *Positions
	problems []error // reported problems that do not stop decoding
	// suggested holds the fields an unknown field was taken for ("did you
	// mean"): their absence is not reported again.
	suggested map[string]bool
}

// report records a problem that does not stop decoding.
func (d *specDecoder) report(e *Error) { d.problems = append(d.problems, e) }

// skipValue reads and drops the next JSON value.
func (d *specDecoder) skipValue(field string) error {
	start := d.next()
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return d.syntaxErr(start, field, err)
	}
	return nil
}

// skipRest drops the rest of a value whose first token was tok: nothing for
// a scalar, up to the matching close for an object or array.
func (d *specDecoder) skipRest(field string, tok json.Token) error {
	if tok != json.Delim('{') && tok != json.Delim('[') {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, _, err := d.token(field)
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// errAt returns a 613 located at byte offset off (off < 0: no position).
func (d *specDecoder) errAt(off int64, field, format string, args ...any) *Error {
	e := SpecErrorf(field, format, args...)
	e.File = d.file
	if off >= 0 {
		p := d.lines.pos(off)
		e.Line, e.Col = p.Line, p.Col
	}
	return e
}

func (d *specDecoder) precheck() error {
	switch {
	case len(bytes.TrimSpace(d.data)) == 0:
		return d.errAt(-1, "", "file is empty: a descriptor is a JSON object with name, description and command")
	case bytes.HasPrefix(d.data, []byte("\xef\xbb\xbf")):
		return d.errAt(0, "", "file starts with a UTF-8 byte order mark; save it as UTF-8 without BOM")
	}
	if i := bytes.IndexByte(d.data, 0); i >= 0 {
		return d.errAt(int64(i), "", "file holds a NUL byte; a descriptor is UTF-8 text")
	}
	if !utf8.Valid(d.data) {
		off := 0
		for off < len(d.data) {
			r, size := utf8.DecodeRune(d.data[off:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			off += size
		}
		return d.errAt(int64(off), "", "file is not valid UTF-8")
	}
	return nil
}

// next returns the offset where the next token starts.
func (d *specDecoder) next() int64 {
	off := d.dec.InputOffset()
	for off < int64(len(d.data)) && strings.IndexByte(" \t\r\n,:", d.data[off]) >= 0 {
		off++
	}
	return off
}

// token reads the next token, turning a syntax error into a located 613.
func (d *specDecoder) token(field string) (json.Token, int64, error) {
	off := d.next()
	tok, err := d.dec.Token()
	if err != nil {
		return nil, off, d.syntaxErr(off, field, err)
	}
	return tok, off, nil
}

// syntaxErr turns a json.Decoder error met at off into a located 613.
//
// The offset in a *json.SyntaxError from a json.Decoder is not reliable in
// token mode: errors found between tokens point at the offending byte, but
// errors found inside a value count only the bytes the value scanner saw. The
// first syntax error of a document does not depend on how it is read, so the
// whole document is scanned again to find it; its Offset counts the bytes
// read up to and including the offending one.
func (d *specDecoder) syntaxErr(off int64, field string, err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return d.errAt(int64(len(d.data)), field, "unexpected end of file: the JSON is incomplete")
	}
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(d.data, new(json.RawMessage)), &se) {
		if se.Offset >= int64(len(d.data)) && strings.HasPrefix(se.Error(), "unexpected end") {
			return d.errAt(int64(len(d.data)), field, "unexpected end of file: the JSON is incomplete")
		}
		return d.errAt(max(se.Offset-1, 0), field, "invalid JSON: %s", se.Error())
	}
	if errors.As(err, &se) {
		return d.errAt(off, field, "invalid JSON: %s", se.Error())
	}
	return d.errAt(off, field, "invalid JSON: %v", err)
}

// kind names a token's JSON type for messages.
func kind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return "an object"
		}
		if t == '[' {
			return "an array"
		}
		return fmt.Sprintf("%q", string(t))
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}

// object reads a JSON object, calling field for each key with the offset of
// the key. Duplicate keys are refused, pointing at the second one.
func (d *specDecoder) object(field, what string, each func(key string, off int64) error) error {
	tok, off, err := d.token(field)
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		e := d.errAt(off, field, "%s must be a JSON object, found %s", what, kind(tok))
		if field == "" {
			return e // not a descriptor at all: nothing else to say
		}
		d.report(e)
		return d.skipRest(field, tok)
	}
	seen := map[string]bool{}
	for d.dec.More() {
		tok, off, err := d.token(field)
		if err != nil {
			return err
		}
		key := tok.(string) // json.Decoder guarantees a string key here
		if seen[key] {
			d.report(d.errAt(off, join(field, key), "duplicate key %q in %s", key, what))
			if err := d.skipValue(join(field, key)); err != nil {
				return err
			}
			continue
		}
		seen[key] = true
		if err := each(key, off); err != nil {
			return err
		}
	}
	_, _, err = d.token(field) // the closing '}'
	return err
}

// array reads a JSON array, calling each for every element.
func (d *specDecoder) array(field, what string, each func(i int) error) error {
	tok, off, err := d.token(field)
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		d.report(d.errAt(off, field, "%s must be a JSON array, found %s", what, kind(tok)))
		return d.skipRest(field, tok)
	}
	for i := 0; d.dec.More(); i++ {
		if err := each(i); err != nil {
			return err
		}
	}
	_, _, err = d.token(field)
	return err
}

// str reads a JSON string.
func (d *specDecoder) str(field string) (string, error) {
	tok, off, err := d.token(field)
	if err != nil {
		return "", err
	}
	d.mark(field, off)
	s, ok := tok.(string)
	if !ok {
		d.report(d.errAt(off, field, "%s must be a string, found %s", label(field), kind(tok)))
		return "", d.skipRest(field, tok)
	}
	return s, nil
}

// boolean reads a JSON boolean.
func (d *specDecoder) boolean(field string) (bool, error) {
	tok, off, err := d.token(field)
	if err != nil {
		return false, err
	}
	d.mark(field, off)
	b, ok := tok.(bool)
	if !ok {
		d.report(d.errAt(off, field, "%s must be true or false, found %s", label(field), kind(tok)))
		return false, d.skipRest(field, tok)
	}
	return b, nil
}

// scalar reads a JSON string or number as text, reporting which it was.
func (d *specDecoder) scalar(field string) (text string, isNumber bool, err error) {
	tok, off, err := d.token(field)
	if err != nil {
		return "", false, err
	}
	d.mark(field, off)
	switch v := tok.(type) {
	case string:
		return v, false, nil
	case json.Number:
		return v.String(), true, nil
	}
	d.report(d.errAt(off, field, "%s must be a string or a number, found %s", label(field), kind(tok)))
	return "", false, d.skipRest(field, tok)
}

// mark records where field sits.
func (d *specDecoder) mark(field string, off int64) {
	if _, ok := d.pos.at[field]; !ok {
		d.pos.at[field] = d.lines.pos(off)
	}
}

// label names a field for messages: `slot "path": type` for
// "arguments.path.type", the dotted path otherwise.
func label(field string) string {
	if rest, ok := strings.CutPrefix(field, "arguments."); ok {
		if slot, sub, ok := strings.Cut(rest, "."); ok {
			return fmt.Sprintf("slot %q: %s", slot, sub)
		}
	}
	return field
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func itoa(i int) string { return strconv.Itoa(i) }
