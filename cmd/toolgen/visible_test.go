package main

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzVisible: whatever a problem's line holds (file names and symlink
// targets come from the repository), what is printed is valid UTF-8 of
// printable runes, spaces and tabs only, and a line that was so already is
// printed unchanged.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"tools/a.tool.json:1:2: error 613: x", "a\n::add-mask::b", "\x1b]0;t\a", "c\u202e\xff", "é\tü", "\ufffd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := visible(s)
		if !utf8.ValidString(v) {
			t.Fatalf("visible(%q) = %q: not UTF-8", s, v)
		}
		clean := utf8.ValidString(s)
		for _, r := range s {
			if r == utf8.RuneError || r != ' ' && r != '\t' && !unicode.IsPrint(r) {
				clean = false
			}
		}
		if clean && v != s {
			t.Fatalf("visible(%q) = %q: a clean line changed", s, v)
		}
		for _, r := range v {
			if r != ' ' && r != '\t' && !unicode.IsPrint(r) {
				t.Fatalf("visible(%q) = %q holds %U", s, v, r)
			}
		}
	})
}
