package validate

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"

	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// operators are the ASCII characters no slot value or template may hold.
const operators = "'\"`;|&$<>"

// The classes of ASCII bytes (asciiClass).
const (
	asciiOK = iota
	asciiControl
	asciiSpace
	asciiOperator
)

// asciiClass classifies every ASCII byte once, so the common all-ASCII value
// is checked with one table lookup per byte.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = asciiControl
	}
	t[0x7f] = asciiControl
	t[' '] = asciiSpace
	for i := 0; i < len(operators); i++ {
		t[operators[i]] = asciiOperator
	}
	return t
}()

// The reasons a character is rejected, as the model reads them.
const (
	reasonControl  = "control characters are rejected"
	reasonSpace    = "a value is one word and may not contain white space; to pass text with spaces, write it to a file and pass the file's path"
	reasonOperator = "shell operator and quote characters (' \" ` ; | & $ < >) are rejected"
	reasonUSpace   = "Unicode white space is rejected; to pass text with spaces, write it to a file and pass the file's path"
	reasonFormat   = "invisible format characters (zero-width, bidi controls) are rejected"
	reasonIgnored  = "invisible characters (Unicode default-ignorable: combining grapheme joiner, Hangul fillers, variation selectors, tags) are rejected"
)

// badRune describes the first rejected character of a string.
type badRune struct {
	r       rune
	offset  int
	invalid byte // the offending byte when the string is not valid UTF-8
	reason  string
}

// message renders the rejection for a model: the character, its code point
// and name, where it is, and why.
func (b badRune) message() string {
	if b.reason == "" {
		return fmt.Sprintf("invalid UTF-8 (byte 0x%02X) at byte offset %d; a value must be valid UTF-8 text", b.invalid, b.offset)
	}
	return fmt.Sprintf("character %s at byte offset %d is not allowed: %s", describeRune(b.r), b.offset, b.reason)
}

// describeRune names r as U+XXXX NAME, quoting printable characters.
func describeRune(r rune) string {
	name := RuneName(r)
	if unicode.IsPrint(r) && !unicode.IsSpace(r) && !escape.DefaultIgnorable(r) {
		return fmt.Sprintf("%q (U+%04X %s)", r, r, name)
	}
	return fmt.Sprintf("U+%04X %s", r, name)
}

// controlNames are the names of the C0 and C1 control characters, which the
// Unicode character database lists only as aliases (NameAliases.txt).
var controlNames = [...]string{
	0x00: "NULL", 0x01: "START OF HEADING", 0x02: "START OF TEXT", 0x03: "END OF TEXT",
	0x04: "END OF TRANSMISSION", 0x05: "ENQUIRY", 0x06: "ACKNOWLEDGE", 0x07: "ALERT",
	0x08: "BACKSPACE", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED", 0x0B: "LINE TABULATION",
	0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x0E: "SHIFT OUT", 0x0F: "SHIFT IN",
	0x10: "DATA LINK ESCAPE", 0x11: "DEVICE CONTROL ONE", 0x12: "DEVICE CONTROL TWO",
	0x13: "DEVICE CONTROL THREE", 0x14: "DEVICE CONTROL FOUR", 0x15: "NEGATIVE ACKNOWLEDGE",
	0x16: "SYNCHRONOUS IDLE", 0x17: "END OF TRANSMISSION BLOCK", 0x18: "CANCEL",
	0x19: "END OF MEDIUM", 0x1A: "SUBSTITUTE", 0x1B: "ESCAPE", 0x1C: "INFORMATION SEPARATOR FOUR",
	0x1D: "INFORMATION SEPARATOR THREE", 0x1E: "INFORMATION SEPARATOR TWO",
	0x1F: "INFORMATION SEPARATOR ONE", 0x7F: "DELETE",
	0x80: "PADDING CHARACTER", 0x81: "HIGH OCTET PRESET", 0x82: "BREAK PERMITTED HERE",
	0x83: "NO BREAK HERE", 0x84: "INDEX", 0x85: "NEXT LINE", 0x86: "START OF SELECTED AREA",
	0x87: "END OF SELECTED AREA", 0x88: "CHARACTER TABULATION SET",
	0x89: "CHARACTER TABULATION WITH JUSTIFICATION", 0x8A: "LINE TABULATION SET",
	0x8B: "PARTIAL LINE FORWARD", 0x8C: "PARTIAL LINE BACKWARD", 0x8D: "REVERSE LINE FEED",
	0x8E: "SINGLE SHIFT TWO", 0x8F: "SINGLE SHIFT THREE", 0x90: "DEVICE CONTROL STRING",
	0x91: "PRIVATE USE ONE", 0x92: "PRIVATE USE TWO", 0x93: "SET TRANSMIT STATE",
	0x94: "CANCEL CHARACTER", 0x95: "MESSAGE WAITING", 0x96: "START OF GUARDED AREA",
	0x97: "END OF GUARDED AREA", 0x98: "START OF STRING", 0x99: "SINGLE GRAPHIC CHARACTER INTRODUCER",
	0x9A: "SINGLE CHARACTER INTRODUCER", 0x9B: "CONTROL SEQUENCE INTRODUCER",
	0x9C: "STRING TERMINATOR", 0x9D: "OPERATING SYSTEM COMMAND", 0x9E: "PRIVACY MESSAGE",
	0x9F: "APPLICATION PROGRAM COMMAND",
}

// RuneName returns the Unicode name of r. Control characters get their
// alias ("NULL", "LINE FEED", "NEXT LINE"), ideographs their derived name
// ("CJK UNIFIED IDEOGRAPH-65E5"); other characters without a name get a
// label in angle brackets ("<Private Use>", "<unassigned>").
func RuneName(r rune) string {
	if r >= 0 && int(r) < len(controlNames) && controlNames[r] != "" {
		return controlNames[r]
	}
	n := runenames.Name(r)
	switch {
	case n == "":
		return "<unassigned>"
	case len(n) > len("<CJK Ideograph") && n[:len("<CJK Ideograph")] == "<CJK Ideograph":
		return fmt.Sprintf("CJK UNIFIED IDEOGRAPH-%04X", r)
	}
	return n
}

// firstBadRune returns the first character of s that no value or template may
// hold: invalid UTF-8, controls, Unicode white space (when spaceOK is false:
// templates separate words with ASCII spaces), format characters, the ASCII
// operators and anything whose NFKC form holds one of those.
func firstBadRune(s string, spaceOK bool) (badRune, bool) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if class := asciiClass[c]; class != asciiOK && (class != asciiSpace || !spaceOK) {
				return badRune{r: rune(c), offset: i, reason: asciiReason(class)}, true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return badRune{r: r, offset: i, invalid: c}, true
		}
		if reason := unicodeReason(r, s[i:i+size]); reason != "" {
			return badRune{r: r, offset: i, reason: reason}, true
		}
		i += size
	}
	return badRune{}, false
}

func asciiReason(class uint8) string {
	switch class {
	case asciiControl:
		return reasonControl
	case asciiSpace:
		return reasonSpace
	case asciiOperator:
		return reasonOperator
	}
	return ""
}

// unicodeReason says why the non-ASCII character r (encoded as enc) is
// rejected, or returns "".
func unicodeReason(r rune, enc string) string {
	if reason := plainReason(r); reason != "" {
		return reason
	}
	// A lookalike: the NFKC form holds a rejected character. The
	// decomposition is a table lookup without allocation; only when it holds
	// a rejected character is the (allocating) composed form computed, since
	// composition may absorb it again ('<' U+0338 is U+226E, which is
	// allowed).
	d := norm.NFKC.PropertiesString(enc).Decomposition()
	if len(d) == 0 || !holdsRejected(string(d)) {
		return ""
	}
	if folded := norm.NFKC.String(enc); folded != enc && holdsRejected(folded) {
		return fmt.Sprintf("it is a lookalike of %q (NFKC) and is rejected like it", folded)
	}
	return ""
}

// plainReason is unicodeReason without the NFKC rule.
func plainReason(r rune) string {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return reasonControl
	case unicode.Is(unicode.White_Space, r):
		return reasonUSpace
	case unicode.Is(unicode.Cf, r):
		return reasonFormat
	case escape.DefaultIgnorable(r):
		return reasonIgnored
	}
	return ""
}

// FirstInvisible returns the byte offset and the first default-ignorable
// code point of s (escape.DefaultIgnorable), or -1 when s has none.
func FirstInvisible(s string) (int, rune) {
	for i, r := range s {
		if r >= 0xAD && escape.DefaultIgnorable(r) {
			return i, r
		}
	}
	return -1, 0
}

// invisibleError is the 613 for descriptor text (a description, a pattern)
// holding an invisible code point, or nil.
func invisibleError(field, what, s string) error {
	i, r := FirstInvisible(s)
	if i < 0 {
		return nil
	}
	return tool.SpecErrorf(field, "%s holds the invisible character U+%04X %s at byte offset %d: a reviewer cannot see it, "+
		"so the text read is not the text served; remove it (or write it as an escape where the syntax has one)",
		what, r, RuneName(r), i)
}

// holdsRejected reports whether s holds a character rejected by the rules
// other than NFKC: ASCII control, space or operator, C1 control, Unicode
// white space or format character.
func holdsRejected(s string) bool {
	for _, r := range s {
		if r < utf8.RuneSelf {
			if asciiClass[r] != asciiOK {
				return true
			}
		} else if plainReason(r) != "" {
			return true
		}
	}
	return false
}

// dashLike reports whether r is '-' or one of its lookalikes, which may not
// begin a value that starts a word (option injection): every dash
// punctuation character (Unicode category Pd: U+2010–U+2015, U+2E3A, U+FE58,
// U+FE63, U+FF0D …) except the wave dashes U+301C and U+3030, which look like
// a tilde; the minus signs U+2212, U+02D7, U+207B, U+208B and U+2796; and
// U+2043 HYPHEN BULLET.
func dashLike(r rune) bool {
	switch r {
	case '-', 0x2212, 0x02D7, 0x207B, 0x208B, 0x2796, 0x2043:
		return true
	case 0x301C, 0x3030:
		return false
	}
	return r >= utf8.RuneSelf && unicode.Is(unicode.Pd, r)
}
