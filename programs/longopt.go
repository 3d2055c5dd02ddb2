package programs

import (
	"slices"
	"strings"
)

// The one abbreviation rule, which the reader (Program.ReadLine) follows
// for templates and ExecTool command lines alike: GNU getopt_long's. A long option written
// exactly as one the program knows is that option; failing that, where the
// program takes abbreviations (Grammar.Abbrev), a prefix of exactly one
// option it knows is that option; a prefix of several is refused by the
// program as ambiguous, and a name it does not know as unrecognised. The
// confirm test checks the rule against the installed programs.

// ResolveLong returns the long option of known (names without "--") that
// written stands for: the one it is exactly, or, when abbrev, the only one
// it begins. ok is false when it names none or, abbreviated, several;
// name is then written.
func ResolveLong(written string, known []string, abbrev bool) (name string, ok bool) {
	if slices.Contains(known, written) {
		return written, true
	}
	if !abbrev || written == "" {
		return written, false
	}
	match := ""
	for _, k := range known {
		if strings.HasPrefix(k, written) {
			if match != "" && match != k {
				return written, false
			}
			match = k
		}
	}
	if match == "" {
		return written, false
	}
	return match, true
}

// MayStandFor reports whether written may be long option name to a program
// that knows the long options known: it is name, or, when abbrev, a prefix
// of name that does not resolve to another option (ResolveLong). An
// ambiguous prefix may stand for name: the reading that refuses more,
// since the program's own list may be shorter than known.
func MayStandFor(written, name string, known []string, abbrev bool) bool {
	if written == name {
		return true
	}
	if !abbrev || written == "" || !strings.HasPrefix(name, written) {
		return false
	}
	r, ok := ResolveLong(written, known, true)
	return !ok || r == name
}

// LongNames returns every long option p is known to have, sorted: its
// grammar's Long and ArgLong, its code options' and the long options of
// its rows (a stem with '*' excluded). The reader resolves a long option
// against them.
func (p *Program) LongNames() []string {
	prepareLong()
	return slices.Clone(p.long)
}

// longNames computes LongNames.
func (p *Program) longNames() []string {
	names := append(slices.Clone(p.Grammar.Long), p.Grammar.ArgLong...)
	for _, o := range p.Code {
		names = append(names, o.Long...)
	}
	for _, o := range p.Files {
		names = append(names, o.Long...)
	}
	for _, r := range p.Rows {
		for _, l := range r.Long {
			if !strings.HasSuffix(l, "*") {
				names = append(names, l)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
