// Package escape writes text that comes from elsewhere — a repository's
// file names and descriptions, a log someone handed over — so that printing
// it to a terminal or a CI log can neither drive the terminal (escape
// sequences, bidi controls) nor start a line of its own (a forged GitHub
// Actions "::" command, say).
package escape

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unprintable returns s with every rune that is not printable, or that is
// printable but drawn as nothing (DefaultIgnorable: U+034F, U+3164 …),
// written as its Go escape (\n, \x1b, \u202e, \u3164) and every byte that is not UTF-8 as \xNN,
// except the runes of keep, written as they are (a tab where it separates
// nothing). s comes back as it is when nothing needs escaping.
func Unprintable(s, keep string) string {
	clean := true
	for _, r := range s {
		if !shown(r, keep) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case shown(r, keep):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// shown reports whether r is written as it is.
func shown(r rune, keep string) bool {
	return r != utf8.RuneError && (unicode.IsPrint(r) && !DefaultIgnorable(r) || strings.ContainsRune(keep, r))
}

// DefaultIgnorable reports whether r is a Unicode default-ignorable code
// point (DerivedCoreProperties' Default_Ignorable_Code_Point): a character a
// renderer draws as nothing — the format characters (category Cf: zero-width
// spaces and joiners, bidi controls, U+FEFF, the tags U+E0001 and
// U+E0020–U+E007F, the musical formatting U+1D173–U+1D17A), the variation
// selectors (U+180B–U+180D, U+180F, U+FE00–U+FE0F, U+E0100–U+E01EF), the
// combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160,
// U+3164 and U+FFA0, U+17B4 and U+17B5, and the unassigned rest of
// U+E0000–U+E0FFF. As in the property's derivation, white space and the
// visible format characters are left out: the interlinear annotation
// characters U+FFF9–U+FFFB, the Egyptian hieroglyph format controls
// U+13430–U+1343F and the prepended concatenation marks (U+0600–U+0605 …).
func DefaultIgnorable(r rune) bool {
	switch {
	case r < 0x00AD:
		return false
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Variation_Selector, r):
		return true
	case r >= 0xE0000 && r <= 0xE0FFF:
		return true
	case !unicode.Is(unicode.Cf, r), unicode.Is(unicode.White_Space, r):
		return false
	case r >= 0xFFF9 && r <= 0xFFFB, r >= 0x13430 && r <= 0x1343F:
		return false
	}
	return !unicode.Is(unicode.Prepended_Concatenation_Mark, r)
}
