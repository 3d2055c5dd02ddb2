package validate

import (
	"regexp"
	"testing"
)

// isIdent is identPattern, by hand: the two agree on every input.
func TestIsIdentIsIdentPattern(t *testing.T) {
	re := regexp.MustCompile(identPattern)
	for _, s := range []string{"", "a", "z9_", "grep_text", "A", "_a", "9a", "a-b", "a b", "é", "aé", "a\x00", "a\n", "ab_", "a_Z"} {
		if got, want := isIdent(s), re.MatchString(s); got != want {
			t.Errorf("isIdent(%q) = %v, identPattern says %v", s, got, want)
		}
	}
}

func FuzzIsIdent(f *testing.F) {
	re := regexp.MustCompile(identPattern)
	f.Add("grep_text")
	f.Add("A_b")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isIdent(s), re.MatchString(s); got != want {
			t.Fatalf("isIdent(%q) = %v, identPattern says %v", s, got, want)
		}
	})
}
