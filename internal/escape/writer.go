package escape

import (
	"fmt"
	"io"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Writer writes to W what it is given, with every rune that could drive a
// terminal or hide written as an escape: the C0 controls but newline and tab
// (ESC, and with it every CSI, OSC — OSC 52 sets the clipboard — and DCS
// sequence; BEL; backspace; a carriage return that would let a line
// overwrite itself), DEL, the C1 controls (U+0080–U+009F: the 8-bit CSI
// U+009B and OSC U+009D among them), every other rune that is not graphic
// (format characters, the line and paragraph separators U+2028 and U+2029,
// private-use and unassigned code points), and the default-ignorable code points
// (DefaultIgnorable: bidi controls, zero-width characters, fillers). Such a
// rune is written as \uXXXX (a surrogate pair \uD8xx\uDCxx beyond U+FFFF),
// which inside a JSON string is the same character: JSON written through a
// Writer stays the same JSON (raw control characters can stand nowhere else
// in it). A byte that is not UTF-8 is written as \xNN.
//
// A rune split between two writes is held back until the next write or
// Flush. A Writer is safe for concurrent use; each write is escaped and
// passed on whole.
type Writer struct {
	W io.Writer

	mu      sync.Mutex
	pending []byte // the start of a rune split by the end of the last write
	buf     []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{W: w} }

// Write escapes p and writes it; it reports len(p) when the escaped text was
// written whole.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data := p
	if len(w.pending) > 0 {
		data = append(w.pending, p...)
		w.pending = nil
	}
	// Hold back an incomplete rune at the end (at most 3 bytes).
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-3; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	w.buf = appendEscaped(w.buf[:0], data[:cut])
	w.pending = append([]byte(nil), data[cut:]...)
	if _, err := w.W.Write(w.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what a write left incomplete (escaped byte by byte).
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	w.buf = appendEscaped(w.buf[:0], w.pending)
	w.pending = nil
	_, err := w.W.Write(w.buf)
	return err
}

// Terminal returns s as a Writer would write it.
func Terminal(s string) string {
	if clean(s) {
		return s
	}
	return string(appendEscaped(nil, []byte(s)))
}

func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// appendEscaped appends p to dst with the runes Writer escapes escaped.
func appendEscaped(dst, p []byte) []byte {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				dst = fmt.Appendf(dst, `\u%04x`, c)
			} else {
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = fmt.Appendf(dst, `\x%02x`, c)
		case !unicode.IsGraphic(r), DefaultIgnorable(r):
			if r > 0xFFFF {
				hi, lo := utf16.EncodeRune(r)
				dst = fmt.Appendf(dst, `\u%04x\u%04x`, hi, lo)
			} else {
				dst = fmt.Appendf(dst, `\u%04x`, r)
			}
		default:
			dst = append(dst, p[i:i+n]...)
		}
		i += n
	}
	return dst
}
