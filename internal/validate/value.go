package validate

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// Value checks v for slot a by the rules of DESIGN.md §5.1 that do not need
// the file system: characters, a leading dash where v starts a word, enum,
// pattern and the integer/number forms. Path confinement is Path's job. The
// error is a 614 *tool.Error naming the slot.
//
// A boolean slot's value is "true" or "false" (its JSON value as text); a
// text slot's may hold U+0020 spaces, and is otherwise checked as a
// string's.
func Value(a *tool.Arg, v string, startsWord bool) *tool.Error {
	return ValueAt(a, v, Place{StartsWord: startsWord})
}

// ValueAt is Value for a slot at place (Places): a text slot whose place
// is Data takes any printable character, quotes and shell operator
// characters included (no control, invisible or non-space white-space
// character, and no '@' beginning a word, which some programs read as a
// file of arguments), and a value the program reads as an option's whole
// value (OptionValue) may begin with a dash. Every other slot keeps the
// rules of Value.
func ValueAt(a *tool.Arg, v string, place Place) *tool.Error {
	dashOK := false
	switch {
	case a.Type == tool.Boolean:
		return booleanValueError(a, v)
	case a.Type == tool.Text && place.Data:
		if err := dataTextError(a, v, place.StartsWord); err != nil {
			return err
		}
		dashOK = place.OptionValue
	case a.Type == tool.Text:
		if err := textValueError(a, v); err != nil {
			return err
		}
	default:
		if bad, ok := firstBadRune(v, false); ok {
			return tool.ValueErrorf(a.Name, "%s", bad.message())
		}
	}
	if place.StartsWord && !dashOK && v != "" {
		if r, _ := utf8.DecodeRuneInString(v); dashLike(r) {
			return dashError(a, v, r)
		}
	}
	if len(a.Enum) > 0 && !contains(a.Enum, v) {
		return tool.ValueErrorf(a.Name, "value %q is not one of the allowed values: %s", v, quoteList(a.Enum))
	}
	switch a.Type {
	case tool.Integer:
		if !isDigits(v) {
			return tool.ValueErrorf(a.Name, "value %q is not a non-negative integer (want digits only, like 42)", v)
		}
	case tool.Number:
		if !isDecimal(v) {
			return tool.ValueErrorf(a.Name, "value %q is not a non-negative number (want digits with an optional fraction, like 3 or 2.5)", v)
		}
	case tool.Path:
		if v == "" {
			return tool.ValueErrorf(a.Name, "path is empty (use . for the workspace itself)")
		}
	}
	if a.Pattern != "" {
		re, err := compilePattern(a.Pattern)
		if err != nil {
			return tool.ValueErrorf(a.Name, "slot pattern does not compile: %v", err)
		}
		if !re.MatchString(v) {
			return tool.ValueErrorf(a.Name, "value %q does not match the required pattern %s", v, a.Pattern)
		}
	}
	return nil
}

func dashError(a *tool.Arg, v string, r rune) *tool.Error {
	what := "'-'"
	if r != '-' {
		what = describeRune(r) + ", a lookalike of '-',"
	}
	msg := fmt.Sprintf("value %q begins with %s and would be read as an option; "+
		"a value that starts an argument may not begin with a dash (the template fixes the options)", v, what)
	if a.Type == tool.Path {
		msg += fmt.Sprintf("; to name a file that begins with a dash, write %q", "./"+v)
	}
	return tool.ValueErrorf(a.Name, "%s", msg)
}

func contains(list []string, v string) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

func quoteList(list []string) string {
	var b strings.Builder
	for i, e := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"` + e + `"`)
	}
	return b.String()
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isDecimal(s string) bool {
	whole, frac, found := strings.Cut(s, ".")
	return isDigits(whole) && (!found || isDigits(frac))
}

// patterns caches compiled slot patterns, anchored to the whole value.
var patterns boundedCache[*regexp.Regexp]

// compilePattern compiles the RE2 expression p anchored to the whole value.
func compilePattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.load(p); ok {
		return re, nil
	}
	if _, err := regexp.Compile(p); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(`^(?:` + p + `)$`)
	if err != nil {
		// p compiles alone, so it ends inside an unterminated \Q…, which
		// swallowed the anchoring ")$" as literal text: close the quote.
		re, err = regexp.Compile(`^(?:` + p + `\E)$`)
		if err != nil {
			return nil, err
		}
	}
	patterns.store(p, re)
	return re, nil
}
