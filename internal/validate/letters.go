package validate

import (
	"regexp/syntax"
	"unicode"
)

// PatternAdmitsLetter reports whether some value that fully matches the RE2
// pattern p can hold an ASCII letter (A-Z, a-z). It reads the pattern's
// syntax tree and collects what each part can match: literal runes with
// their case folds under (?i) (the Kelvin sign K folds to k, the long s ſ
// to s), character classes (negated ones, \pL, \w and the like included)
// and '.' (any character). It errs towards true: a part that can never be
// reached still counts, and an invalid pattern admits everything.
//
// The code-position rule uses it: a sed script slot whose pattern admits
// no letter cannot spell a sed command (every command that runs a program
// or touches a file is a letter: e, r, R, w, W).
func PatternAdmitsLetter(p string) bool {
	if v, ok := admitsCache.load(p); ok {
		return v
	}
	re, err := syntax.Parse(p, syntax.Perl)
	admits := err != nil || admitsLetter(re)
	admitsCache.store(p, admits)
	return admits
}

// admitsCache holds PatternAdmitsLetter's answers: descriptors are
// validated again on every reload, with the same few patterns.
var admitsCache boundedCache[bool]

func admitsLetter(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if foldsToLetter(r, re.Flags&syntax.FoldCase != 0) {
				return true
			}
		}
		return false
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if rangeHasLetter(re.Rune[i], re.Rune[i+1], re.Flags&syntax.FoldCase != 0) {
				return true
			}
		}
		return false
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	}
	for _, sub := range re.Sub {
		if admitsLetter(sub) {
			return true
		}
	}
	return false
}

func isASCIILetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

// foldsToLetter reports whether r is an ASCII letter or, under case
// folding, one of the runes that fold to one.
func foldsToLetter(r rune, fold bool) bool {
	if isASCIILetter(r) {
		return true
	}
	if !fold {
		return false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if isASCIILetter(f) {
			return true
		}
	}
	return false
}

// rangeHasLetter reports whether the class range lo-hi holds an ASCII
// letter or, under folding, a rune folding to one (the parser folds
// classes already; this does not rely on it).
func rangeHasLetter(lo, hi rune, fold bool) bool {
	if lo <= 'z' && hi >= 'a' || lo <= 'Z' && hi >= 'A' {
		return true
	}
	if !fold {
		return false
	}
	for _, r := range foldingToASCII {
		if lo <= r && r <= hi {
			return true
		}
	}
	return false
}

// foldingToASCII are the non-ASCII runes whose case-fold orbit holds an
// ASCII letter (TestFoldingToASCII derives them from the Unicode tables).
var foldingToASCII = []rune{'\u017f', '\u212a'}
