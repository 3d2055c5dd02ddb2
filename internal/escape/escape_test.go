package escape

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestUnprintable(t *testing.T) {
	for _, c := range []struct{ in, keep, want string }{
		{"tools/a.tool.json:1:2: error 613: x", "", "tools/a.tool.json:1:2: error 613: x"},
		{"a\n::add-mask::b", "", `a\n::add-mask::b`},
		{"\x1b]0;t\a", "", `\x1b]0;t\a`},
		{"c\u202e\xff", "", `c\u202e\xff`},
		{"é\tü", "", `é\tü`},
		{"é\tü", "\t", "é\tü"},
		{"\ufffd", "", `\ufffd`},
	} {
		assert.Equal(t, c.want, Unprintable(c.in, c.keep), "%q keep %q", c.in, c.keep)
	}
}

// FuzzUnprintable: whatever a line holds (file names and symlink targets
// come from the repository, a log from anyone), what is printed is valid
// UTF-8 of printable runes and the kept ones only, and a line that was so
// already is printed unchanged.
func FuzzUnprintable(f *testing.F) {
	for _, s := range []string{"tools/a.tool.json:1:2: error 613: x", "a\n::add-mask::b", "\x1b]0;t\a", "c\u202e\xff", "é\tü", "\ufffd"} {
		f.Add(s, "\t")
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, s, keep string) {
		v := Unprintable(s, keep)
		if !utf8.ValidString(v) {
			t.Fatalf("Unprintable(%q, %q) = %q: not UTF-8", s, keep, v)
		}
		clean := utf8.ValidString(s)
		for _, r := range s {
			if r == utf8.RuneError || !unicode.IsPrint(r) && !strings.ContainsRune(keep, r) {
				clean = false
			}
		}
		if clean && v != s {
			t.Fatalf("Unprintable(%q, %q) = %q: a clean line changed", s, keep, v)
		}
		for _, r := range v {
			if !unicode.IsPrint(r) && !strings.ContainsRune(keep, r) {
				t.Fatalf("Unprintable(%q, %q) = %q holds %U", s, keep, v, r)
			}
		}
	})
}
