package validate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// Template is a parsed command template: words separated by ASCII spaces,
// each word a sequence of literal text and {slot} placeholders.
type Template struct {
	// Words are the template's words in order; Words[0] is the binary and is
	// always a single literal part.
	Words []Word
}

// Word is one argv element of a template.
type Word []Part

// Part is literal text (Slot empty) or a slot placeholder (Slot set).
type Part struct {
	Lit  string
	Slot string
}

// Binary returns the template's first word, the binary it runs.
func (t *Template) Binary() string { return t.Words[0][0].Lit }

// Slots returns the distinct slot names in order of first use.
func (t *Template) Slots() []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range t.Words {
		for _, p := range w {
			if p.Slot != "" && !seen[p.Slot] {
				seen[p.Slot] = true
				out = append(out, p.Slot)
			}
		}
	}
	return out
}

// StartsWord reports whether slot begins any word of t: a value in such a
// place may not begin with a dash (§5.1).
func (t *Template) StartsWord(slot string) bool {
	for _, w := range t.Words {
		if w[0].Slot == slot {
			return true
		}
	}
	return false
}

// ParseTemplate parses cmd. The error is a 613 *tool.Error on field
// "command": empty template, rejected character in the literal text, a brace
// that is not a well-formed {slot}, or a first word that is not a plain
// binary name or path. It parses only: Spec adds the rules on the binary
// (not a relative path, not denied).
func ParseTemplate(cmd string) (*Template, error) {
	if bad, ok := firstBadRune(cmd, true); ok {
		hint := ""
		if bad.r == '"' || bad.r == '\'' {
			hint = "; no shell reads the template, so a slot needs no quotes: its value is always exactly one argument"
		}
		return nil, tool.SpecErrorf("command", "template: %s%s", bad.message(), hint)
	}
	fields := strings.Split(cmd, " ")
	t := &Template{Words: make([]Word, 0, len(fields))}
	for _, f := range fields {
		if f == "" {
			continue
		}
		w, err := parseWord(f)
		if err != nil {
			return nil, err
		}
		t.Words = append(t.Words, w)
	}
	if len(t.Words) == 0 {
		return nil, tool.SpecErrorf("command", "template is empty")
	}
	if err := checkBinaryWord(t.Words[0]); err != nil {
		return nil, err
	}
	return t, nil
}

// parseWord splits one template word into literal and slot parts. Two slots
// may not touch, and a slot that begins a word may not be followed by a dash:
// either way an empty value would let what follows begin the argument, past
// the leading-dash rule. "{}" is literal text: it names no slot, and find
// -exec needs it (find . -name {name} -exec grep -l {pattern} {} +).
func parseWord(f string) (Word, error) {
	f0 := f
	var w Word
	for f != "" {
		open := strings.IndexAny(f, "{}")
		if open < 0 {
			w = addLit(w, f)
			break
		}
		if strings.HasPrefix(f[open:], "{}") {
			w = addLit(w, f[:open+2])
			f = f[open+2:]
			continue
		}
		if open > 0 {
			w = addLit(w, f[:open])
		}
		if f[open] == '}' {
			return nil, tool.SpecErrorf("command", "template word %q: '}' without a matching '{'", f0)
		}
		end := strings.IndexByte(f[open:], '}')
		if end < 0 {
			return nil, tool.SpecErrorf("command", "template word %q: '{' without a matching '}'", f0)
		}
		name := f[open+1 : open+end]
		if !isIdent(name) {
			return nil, tool.SpecErrorf("command", "template word %q: {%s} is not a slot name (want {name} with name matching %s)", f0, name, identPattern)
		}
		if len(w) > 0 && w[len(w)-1].Slot != "" {
			return nil, tool.SpecErrorf("command", "template word %q: slots {%s} and {%s} are adjacent; put literal text between them (the boundary between the two values would be lost, and an empty first value would let the second begin the word)", f0, w[len(w)-1].Slot, name)
		}
		w = append(w, Part{Slot: name})
		f = f[open+end+1:]
	}
	if len(w) > 1 && w[0].Slot != "" {
		if r, _ := utf8.DecodeRuneInString(w[1].Lit); dashLike(r) {
			return nil, tool.SpecErrorf("command", "template word %q: the text after {%s} begins with a dash, so an empty value would turn the word into an option; put the dash elsewhere or literal text before the slot", f0, w[0].Slot)
		}
	}
	return w, nil
}

// addLit appends literal text to w, to its last part when that is literal
// too (a word alternates literal text and slots).
func addLit(w Word, lit string) Word {
	if len(w) > 0 && w[len(w)-1].Slot == "" {
		w[len(w)-1].Lit += lit
		return w
	}
	return append(w, Part{Lit: lit})
}

// checkBinaryWord requires the first word to be one literal, a plain name or
// path made of [A-Za-z0-9._+/-] that does not begin with '-'. That it is not
// a relative path is Spec's rule (relativeBinary).
func checkBinaryWord(w Word) error {
	if len(w) != 1 || w[0].Slot != "" {
		return tool.SpecErrorf("command", "the first word of the template is the binary and may not hold a slot")
	}
	bin := w[0].Lit
	for _, r := range bin {
		if !binaryRune(r) {
			return tool.SpecErrorf("command", "binary %q: character %s is not allowed in a binary name (want letters, digits, . _ + - /)", bin, describeRune(r))
		}
	}
	if bin[0] == '-' {
		return tool.SpecErrorf("command", "binary %q may not begin with '-'", bin)
	}
	if strings.Trim(bin, "./") == "" {
		return tool.SpecErrorf("command", "binary %q is not a program name", bin)
	}
	return nil
}

func binaryRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		strings.ContainsRune("._+-/", r)
}

// String reassembles the template in its canonical form (single spaces).
func (t *Template) String() string {
	var b strings.Builder
	for i, w := range t.Words {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, p := range w {
			if p.Slot != "" {
				fmt.Fprintf(&b, "{%s}", p.Slot)
			} else {
				b.WriteString(p.Lit)
			}
		}
	}
	return b.String()
}

// relativeBinary refuses a binary written as a relative path ("./build.sh",
// "bin/x", "x/", "../../bin/sh"): it names a file of the workspace, which
// the repository (or a model that writes) controls. A binary is a bare name,
// looked up on the kernel's PATH, or an absolute path; where either resolves
// is CheckBinary's business.
func relativeBinary(bin string) error {
	if !strings.ContainsRune(bin, '/') || strings.HasPrefix(bin, "/") {
		return nil
	}
	return tool.SpecErrorf("command", "binary %q is a relative path, which names a file of the workspace (a repository's "+
		"own script or program is not a trusted binary); write a bare name found on PATH (git) or an absolute path "+
		"outside the workspace (/usr/bin/git)", bin)
}
