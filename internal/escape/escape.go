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

// Unprintable returns s with every rune that is not printable written as its
// Go escape (\n, \x1b, \u202e) and every byte that is not UTF-8 as \xNN,
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
	return r != utf8.RuneError && (unicode.IsPrint(r) || strings.ContainsRune(keep, r))
}
