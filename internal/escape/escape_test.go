package escape

import (
	"strconv"
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

// TestDefaultIgnorable pins the property against the code points issue 22
// names and their visible neighbours.
func TestDefaultIgnorable(t *testing.T) {
	for _, r := range []rune{0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E, 0x180F,
		0x200B, 0x200F, 0x202A, 0x202E, 0x2060, 0x2064, 0x2065, 0x206F, 0x3164, 0xFE00, 0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0,
		0x1BCA0, 0x1BCA3, 0x1D173, 0x1D17A, 0xE0000, 0xE0001, 0xE0020, 0xE007F, 0xE0100, 0xE01EF, 0xE0FFF} {
		assert.True(t, DefaultIgnorable(r), "%U", r)
		assert.Equal(t, strconvQuote(r), Unprintable(string(r), ""), "%U is written escaped", r)
	}
	for _, r := range []rune{'a', ' ', '\t', 0x00A0, 0x0301, 0x0600, 0x0605, 0x06DD, 0x110BD, 0x1100, 0x3131, 0xFFA1,
		0x17B6, 0x180A, 0x1810, 0x2000, 0x3000, 0xFFF9, 0xFFFB, 0x13430, 0x1343F, 0xE1000, 0x1F600} {
		assert.False(t, DefaultIgnorable(r), "%U", r)
	}
}

func strconvQuote(r rune) string {
	q := strconv.QuoteRuneToASCII(r)
	return q[1 : len(q)-1]
}
