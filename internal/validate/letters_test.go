package validate

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
)

var letterPatterns = map[string]bool{
	// no letter
	`^[0-9]+(,[0-9]+)?$`: false, `\d+`: false, `(?i)\d`: false, `(?i)[0-9_-]+`: false, `[\x00-\x40]`: false,
	`[\d\s,.]+`: false, `\W`: false, `\b`: false, `^$`: false, `[[:digit:][:punct:]]`: false, `\x{FF21}`: false,
	`(?i)\x{FF21}`: false, `\x{17F}`: false, `[^\x00-\x{10FFFF}]`: false, `\p{Nd}+`: false, `[@\[\x60{]`: false,
	`\Q1,2\E`: false, `0|1|(2)*`: false,
	// letters, by every route
	`a`: true, `[a]`: true, `(?i)[0-9k]`: true, `(?i)\x{212A}`: true, `(?i)\x{17F}`: true, `(?i)[\x{212A}]`: true,
	`\pL`: true, `\p{Latin}`: true, `.`: true, `(?s).`: true, `[^0-9]`: true, `\w`: true, `\S`: true,
	`\D`: true, `[[:alpha:]]`: true, `[[:^digit:]]`: true, `[\x00-\x41]`: true, `[\x5b-\x61]`: true,
	`\Qe`: true, `1|e`: true, `x{0}`: true, `\x41`: true, `\101`: true, `[^\d\s]`: true, `\P{Nd}`: true,
	`(`: true, // invalid: admits everything
}

func TestPatternAdmitsLetter(t *testing.T) {
	for p, want := range letterPatterns {
		assert.Equal(t, want, PatternAdmitsLetter(p), "PatternAdmitsLetter(%q)", p)
	}
}

// TestFoldingToASCII derives foldingToASCII from the Unicode tables: the
// non-ASCII runes whose case-fold orbit holds an ASCII letter.
func TestFoldingToASCII(t *testing.T) {
	var got []rune
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if foldsToLetter(r, true) {
			got = append(got, r)
		}
	}
	assert.Equal(t, got, foldingToASCII)
}

// FuzzPatternAdmitsLetter checks the claim "no value holds a letter"
// against the regexp engine: when PatternAdmitsLetter(p) is false, no
// string holding an ASCII letter may fully match p — neither s from the
// fuzzer nor s with a letter added before, after or in its middle.
func FuzzPatternAdmitsLetter(f *testing.F) {
	for p := range letterPatterns {
		f.Add(p, "12,3")
	}
	f.Add(`(?i)[\x{212A}0-9]+`, "1\u212a")
	f.Add(`[^a-z]`, "A")
	f.Fuzz(func(t *testing.T, p, s string) {
		re, err := compilePattern(p)
		if err != nil || PatternAdmitsLetter(p) {
			return
		}
		check := func(v string) {
			if re.MatchString(v) && strings.ContainsFunc(v, isASCIILetter) {
				t.Fatalf("PatternAdmitsLetter(%q) = false, but %q matches it", p, v)
			}
		}
		check(s)
		mid := len(s) / 2
		for c := 'A'; c <= 'z'; c++ {
			if !isASCIILetter(c) {
				continue
			}
			l := string(c)
			for _, v := range []string{l, s + l, l + s, s[:mid] + l + s[mid:], l + l} {
				check(v)
			}
		}
	})
}
