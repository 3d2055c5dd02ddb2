package base

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// The value rules of string and text slots (validate.ValueAt), as the JSON
// Schema states them: a sentence of the description and a pattern. The
// patterns use only \xHH escapes, which RE2 (the MCP SDK's validator) and
// ECMA-262 (the APIs') read alike; what they cannot say (Unicode white
// space, invisible characters) the description says and the 614 enforces.
const (
	// controls are C0, DEL and C1.
	controls = `\x00-\x1f\x7f-\x9f`
	// operators are the quote and shell operator characters.
	operators = "'\"`;|&$<>"
)

// stateRules adds to p, the schema of slot a at place, the rules its value
// must follow; a slot with an enum or a pattern of its own states its
// values already.
func stateRules(p *jsonschema.Schema, a tool.Arg, place validate.Place) {
	if len(a.Enum) > 0 || a.Pattern != "" || a.Type != tool.String && a.Type != tool.Text {
		return
	}
	rule, pattern := valueRule(a.Type, place)
	p.Description = sentence(p.Description) + rule
	p.Pattern = pattern
}

// valueRule returns the sentence and the pattern for a value of type t at
// place.
func valueRule(t tool.ArgType, place validate.Place) (rule, pattern string) {
	body := "[^" + controls + "]"
	switch {
	case t == tool.Text && place.Data:
		rule = "Any printable text: spaces, quotes and operator characters are fine; no tabs, newlines or invisible characters"
	case t == tool.Text:
		body = "[^" + controls + escapeClass(operators) + "]"
		rule = "Text: spaces are fine, but no quotes or shell operator characters (' \" ` ; | & $ < >), tabs, newlines or invisible characters"
	default:
		body = "[^" + controls + " " + escapeClass(operators) + "]"
		rule = "One word: no spaces, quotes or shell operator characters (' \" ` ; | & $ < >)"
	}
	first := ""
	switch {
	case !place.StartsWord:
		rule += "."
	case t == tool.Text && place.Data && place.OptionValue:
		first = "@"
		rule += "; it may begin with '-' but not with '@'."
	case t == tool.Text && place.Data:
		first = "-@"
		rule += "; it may not begin with '-' or '@'."
	default:
		first = "-"
		rule += "; it may not begin with '-'."
	}
	if first == "" {
		return rule, "^" + body + "*$"
	}
	head := body[:len(body)-1] + first + "]"
	return rule, "^(?:" + head + body + "*)?$"
}

// escapeClass escapes the characters of s that a character class of both
// RE2 and ECMA-262 reads specially (none of the operators is; kept for
// safety against a future change of the set).
func escapeClass(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', ']', '[', '^', '-':
			out = append(out, '\\', c)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// sentence returns d ending a sentence, followed by a space, ready for one
// more; "" stays "".
func sentence(d string) string {
	d = strings.TrimRight(d, " ")
	switch {
	case d == "":
		return ""
	case strings.HasSuffix(d, ".") || strings.HasSuffix(d, "!") || strings.HasSuffix(d, "?"):
		return d + " "
	}
	return d + ". "
}
