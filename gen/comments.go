package gen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// The doc comments of the generated code are written for the reviewer of a
// pull request: the template, and for every slot its type, whether it is
// required, its default and each rule a value must pass. Descriptor text
// (descriptions, patterns, enum values) goes into comments only through
// commentText, so it can neither end the comment early nor hide characters.

// commentText makes s safe and visible inside a // comment: each line break
// (\n, \r\n, \r, U+2028, U+2029) starts a new line, and every other rune
// that is not printable (control, format and bidi characters included) is
// written as its escape (\u202e), so no generated comment can carry a
// directive, a line directive or Trojan Source text.
func commentText(s string) []string {
	s = lineBreaks.Replace(s)
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		var b strings.Builder
		for _, r := range line {
			switch {
			case r == '\t':
				b.WriteByte(' ')
			case r == ' ' || unicode.IsPrint(r):
				b.WriteRune(r)
			default:
				q := strconv.QuoteRuneToASCII(r)
				b.WriteString(q[1 : len(q)-1])
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return lines
}

// commentWidth is where the generated prose wraps (descriptor text is kept
// as its author wrote it).
const commentWidth = 76

// wrap breaks text into lines of at most commentWidth characters (a longer
// word stands alone), the first line prefixed with first and the others
// with rest.
func wrap(text, first, rest string) []string {
	var lines []string
	var line strings.Builder
	line.WriteString(first)
	empty := true
	for _, w := range strings.Fields(text) {
		if !empty && line.Len()+1+len(w) > commentWidth {
			lines = append(lines, line.String())
			line.Reset()
			line.WriteString(rest)
			empty = true
		}
		if !empty {
			line.WriteByte(' ')
		}
		line.WriteString(w)
		empty = false
	}
	return append(lines, line.String())
}

// lineBreaks turns every line break into \n. It is never modified.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n")

// toolDoc is the doc comment of a tool's type.
func toolDoc(t *genTool) []string {
	// The description continues the first paragraph: standing alone, a
	// one-line description would be taken by gofmt for a heading.
	lines := wrap(fmt.Sprintf("%s is the tool %s, generated from %s:", t.id.Type, t.spec.Name, t.file), "", "")
	lines = append(lines, commentText(t.spec.Description)...)
	lines = append(lines, "")
	lines = append(lines, "Template (no shell; a slot's value never splits a word):")
	lines = append(lines, "", "\t"+t.tmpl.String(), "")
	var p []string
	if t.spec.Writes {
		p = append(p, "It declares that it writes inside the workspace.")
	}
	if t.spec.RunsCode {
		p = append(p, "It declares that it runs the repository's own code (runs_code): it may execute what it builds, in a build cache of its workspace's own and a scratch directory.")
	}
	if t.spec.Network {
		p = append(p, "It declares that it needs network access.")
	}
	if len(t.spec.Hosts) > 0 {
		p = append(p, fmt.Sprintf("It reaches only these hosts, through toolgen's egress proxy: %s.", strings.Join(t.spec.Hosts, ", ")))
	}
	if t.spec.OutputLimit != 0 {
		p = append(p, fmt.Sprintf("The model sees at most %d bytes of its output.", t.spec.OutputLimit))
	}
	p = append(p, runDoc(t.spec)...) // duration.go
	if len(t.spec.Args) == 0 {
		p = append(p, "It takes no arguments.")
	} else {
		p = append(p, fmt.Sprintf("Its slots are the fields of %s, with their rules.", t.id.Args))
	}
	p = append(p, "Run takes the arguments typed and returns a kernel.Result (exit code, output, truncation, timeout); Call takes the model's JSON and returns the model's text; both go through the same checks (see base.Typed).")
	return append(lines, wrap(strings.Join(p, " "), "", "")...)
}

// argsDoc is the doc comment of a tool's argument struct.
func argsDoc(t *genTool) []string {
	if len(t.spec.Args) == 0 {
		return wrap(fmt.Sprintf("%s are the arguments of %s: none.", t.id.Args, t.spec.Name), "", "")
	}
	return wrap(fmt.Sprintf("%s are the arguments of %s, in declared order. Optional slots are pointers: "+
		"nil means \"not given\" (the default applies, or the word the slot stands in is dropped).", t.id.Args, t.spec.Name), "", "")
}

// fieldDoc is the doc comment of the field of slot i: what the slot is,
// its description, then its rules as a list.
func fieldDoc(t *genTool, i int) []string {
	a := t.spec.Args[i]
	head := fmt.Sprintf("%s is the slot {%s}, %s, ", t.fields[i], a.Name, typePhrase(a.Type))
	switch {
	case a.Required:
		head += "required."
	case a.HasDefault:
		head += "optional: nil means the default " + fixedValue(a.Type, a.Default) + "."
	case a.Type == tool.Boolean:
		head += "optional: nil means false."
	default:
		head += "optional: nil drops the word " + strings.Join(slotWords(t, a.Name), ", ") + "."
	}
	var lines []string
	for _, l := range commentText(head) {
		lines = append(lines, wrap(l, "", "")...)
	}
	lines = append(lines, commentText(a.Description)...)
	for _, r := range slotRules(t, a) {
		for j, l := range commentText(r) {
			if j == 0 {
				lines = append(lines, wrap(l, "  - ", "    ")...)
			} else {
				lines = append(lines, wrap(l, "    ", "    ")...)
			}
		}
	}
	return lines
}

func typePhrase(t tool.ArgType) string {
	switch t {
	case tool.Integer:
		return "an integer"
	case tool.Number:
		return "a number"
	case tool.Path:
		return "a path"
	case tool.Text:
		return "a text (plain spaces allowed)"
	case tool.Boolean:
		return "a boolean"
	}
	return "a string"
}

// slotRules lists what a value of slot a must be, in the order the
// validator checks it (DESIGN.md §5.1).
func slotRules(t *genTool, a tool.Arg) []string {
	var rules []string
	switch a.Type {
	case tool.Integer:
		rules = append(rules, "A non-negative integer; a negative value is rejected (614).")
	case tool.Number:
		rules = append(rules, "A non-negative decimal; a negative value, NaN, an infinity or a value "+
			"encoding/json writes with an exponent (below 1e-6, from 1e21) is rejected (614).")
	case tool.Boolean:
		rules = append(rules, fmt.Sprintf("True puts %s in the command; false drops its word.", a.Flag))
	case tool.Text:
		rules = append(rules, textRules(t, a)...)
	default:
		rules = append(rules, "One word: no white space, control or format character, nor any of "+
			"' \" ` ; | & $ < > (NFKC forms included).")
		if t.tmpl.StartsWord(a.Name) {
			rules = append(rules, "May not begin with '-' or a look-alike (it starts a word).")
		}
	}
	if a.Type == tool.Path {
		rules = append(rules, "Relative, and inside the workspace once cleaned and its symlinks resolved; "+
			"passed cleaned.")
	}
	if len(a.Enum) > 0 {
		vals := make([]string, len(a.Enum))
		for i, e := range a.Enum {
			vals[i] = fixedValue(a.Type, e)
		}
		rules = append(rules, "One of "+strings.Join(vals, ", ")+".")
	}
	if a.Pattern != "" {
		rules = append(rules, "Matches, as a whole, the RE2 pattern "+a.Pattern)
	}
	return rules
}

// fixedValue writes an enum value or default as the descriptor does.
func fixedValue(t tool.ArgType, v string) string {
	if t.Numeric() || t == tool.Boolean {
		return v
	}
	return strconv.Quote(v)
}

// slotWords returns the template words slot name stands in.
func slotWords(t *genTool, name string) []string {
	var out []string
	for _, w := range t.tmpl.Words {
		var b strings.Builder
		holds := false
		for _, p := range w {
			if p.Slot != "" {
				holds = holds || p.Slot == name
				b.WriteString("{" + p.Slot + "}")
			} else {
				b.WriteString(p.Lit)
			}
		}
		if holds {
			out = append(out, b.String())
		}
	}
	return out
}

// textRules lists what a value of text slot a must be where it stands
// (validate.Places): in a place the program reads as data, any printable
// character; elsewhere, plain spaces and nothing else a string refuses.
func textRules(t *genTool, a tool.Arg) []string {
	p := validate.Places(&t.spec, t.tmpl)[a.Name]
	if !p.Data {
		rules := []string{"Text: plain spaces (U+0020) allowed, but no other white space, control or " +
			"format character, nor any of ' \" ` ; | & $ < > (NFKC forms included)."}
		if p.StartsWord {
			rules = append(rules, "May not begin with '-' or a look-alike (it starts a word).")
		}
		return rules
	}
	rules := []string{"Text the program reads as data: any printable character, quotes and operators " +
		"included, but no control or format character and no white space other than U+0020."}
	switch {
	case p.OptionValue:
		rules = append(rules, "May begin with '-' (it is an option's whole value), but not with '@'.")
	case p.StartsWord:
		rules = append(rules, "May not begin with '-', a look-alike or '@' (it starts a word).")
	}
	return rules
}
