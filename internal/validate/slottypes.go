package validate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// The rules of the boolean and text slot types and of the output limit
// (DESIGN.md §8, turn 3). A boolean slot is a whole template word that
// becomes its Flag, a fixed option literal, when true and is dropped
// otherwise; a text slot is a string that may hold U+0020 spaces and so may
// not stand where the program runs or splits the word.

// typeList names the slot types for messages: "string, text, integer,
// number, path or boolean".
func typeList() string {
	types := tool.ArgTypes()
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// checkTyped checks what depends on a slot's type beyond the value rules:
// a flag only and always on a boolean slot, no enum or pattern on one, a
// boolean default of true or false.
func checkTyped(a tool.Arg) []error {
	field := "arguments." + a.Name
	var errs []error
	if a.Type != tool.Boolean {
		if a.Flag != "" {
			errs = append(errs, tool.SpecErrorf(field+".flag", "slot %q: only a boolean slot has a flag (this one is of type %s)", a.Name, a.Type))
		}
		return errs
	}
	if len(a.Enum) > 0 {
		errs = append(errs, tool.SpecErrorf(field+".enum", "slot %q: a boolean slot has no enum: its values are true and false", a.Name))
	}
	if a.Pattern != "" {
		errs = append(errs, tool.SpecErrorf(field+".pattern", "slot %q: a boolean slot has no pattern: its values are true and false", a.Name))
	}
	if err := checkFlag(a); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// checkFlag requires a boolean slot's flag to be one option literal that
// could stand in the template: it begins with '-', is not "-" or "--", and
// holds nothing the template's text may not (no space, operator, control
// or format character) and no brace.
func checkFlag(a tool.Arg) error {
	field := "arguments." + a.Name + ".flag"
	f := a.Flag
	if f == "" {
		return tool.SpecErrorf(field, "slot %q: a boolean slot needs a \"flag\": the option its word becomes when the value is true, such as \"-i\"", a.Name)
	}
	if bad, ok := firstBadRune(f, false); ok {
		if bad.r == ' ' {
			return tool.SpecErrorf(field, "slot %q: flag %q holds a space: a flag is one option, one word of the command; "+
				"for two options, declare two boolean slots", a.Name, f)
		}
		return tool.SpecErrorf(field, "slot %q: flag %q: %s", a.Name, f, bad.message())
	}
	if f[0] != '-' || f == "-" || f == "--" {
		return tool.SpecErrorf(field, "slot %q: flag %q is not an option: want one option literal that begins with '-', such as \"-i\" or \"--ignore-case\"", a.Name, f)
	}
	if strings.ContainsAny(f, "{}") {
		return tool.SpecErrorf(field, "slot %q: flag %q holds a brace: a flag is fixed option text, with no {slot}", a.Name, f)
	}
	return nil
}

// checkOutputLimit requires the Spec's output limit to be unset (0) or
// between 1 and tool.MaxOutputLimit. (A file that gives 0 is refused by the
// decoder.)
func checkOutputLimit(s *tool.Spec) error {
	if s.OutputLimit < 0 || s.OutputLimit > tool.MaxOutputLimit {
		return tool.SpecErrorf("output_limit", "output_limit %d is out of range: want a number of bytes from 1 to %d (1 MiB); leave it out for the default (%d, or the run's --output-limit)",
			s.OutputLimit, tool.MaxOutputLimit, defaultOutputLimit)
	}
	return nil
}

// defaultOutputLimit is kernel.DefaultOutputLimit, for messages (the
// validator does not import the kernel).
const defaultOutputLimit = 2048

// checkWords applies the rules about where slots stand that depend on their
// declarations: a boolean slot is a whole word, and an optional slot
// without a default shares its word only with text that belongs to its
// value, since leaving it out drops the whole word.
func checkWords(s *tool.Spec, t *Template) []error {
	var errs []error
	for _, w := range t.Words[1:] {
		word := (&Template{Words: []Word{w}}).String()
		for _, p := range w {
			a, ok := s.Arg(p.Slot)
			if p.Slot == "" || !ok {
				continue
			}
			field := "arguments." + a.Name
			if a.Type == tool.Boolean {
				if len(w) > 1 {
					errs = append(errs, tool.SpecErrorf(field, "slot %q: template word %q: a boolean slot is a whole word, {%s} alone, "+
						"which becomes its flag (%q) when true and is dropped otherwise; write the other text as its own word", a.Name, word, a.Name, a.Flag))
				}
				continue
			}
			if len(w) > 1 && !a.Required && !a.HasDefault {
				if err := gluedOptional(s, a, w, word); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	return errs
}

// gluedOptional is the 613 for an optional slot a without a default whose
// word w holds fixed text or a value that leaving it out would drop too, or
// nil. Text belongs to the slot's value when the word is not an option
// (prefix{x}.txt) or when it is the option that takes the value: "--name="
// or a single letter ("-n{x}"), or the bare dashes ("-{x}", which
// checkArg judges).
func gluedOptional(s *tool.Spec, a tool.Arg, w Word, word string) error {
	field := "arguments." + a.Name
	for _, p := range w {
		if o, ok := s.Arg(p.Slot); ok && o.Name != a.Name && (o.Required || o.HasDefault) {
			return tool.SpecErrorf(field, "slot %q: template word %q: the slot is optional without a default, so when it is left out "+
				"the whole word is dropped, and with it the value of {%s}; put {%s} in a word of its own, or give {%s} a default",
				a.Name, word, o.Name, o.Name, a.Name)
		}
	}
	lead := w[0].Lit
	if w[0].Slot != "" || !strings.HasPrefix(lead, "-") || optionTakingValue(lead) {
		return nil
	}
	return tool.SpecErrorf(field, "slot %q: template word %q: the slot is optional without a default, so when it is left out the "+
		"whole word is dropped, and with it %q, which is an option of its own; write %q as a word of its own, make the slot a "+
		"boolean (its word becomes a fixed \"flag\" when true), give it a default, or make it required", a.Name, word, lead, lead)
}

// optionTakingValue reports whether lead, the literal text that begins an
// option word before its first slot, is an option whose value the slot is:
// "--name=", a single letter "-n", or the bare dashes "-" and "--".
func optionTakingValue(lead string) bool {
	switch {
	case lead == "-" || lead == "--":
		return true
	case strings.HasPrefix(lead, "--"):
		return strings.HasSuffix(lead, "=") && !strings.Contains(lead[:len(lead)-1], "=")
	}
	r, size := utf8.DecodeRuneInString(lead[1:])
	return size > 0 && 1+size == len(lead) && r != '-'
}

// textValueError is the 614 for a text value's first rejected character,
// or nil: a text value is a string value in which U+0020 is allowed.
func textValueError(a *tool.Arg, v string) *tool.Error {
	bad, ok := firstBadRune(v, true)
	if !ok {
		return nil
	}
	if bad.reason == reasonUSpace {
		bad.reason = reasonTextSpace
	}
	return tool.ValueErrorf(a.Name, "%s", bad.message())
}

// dataTextError is the 614 for a text value in a data place (Place.Data),
// or nil: it may hold any printable character but no control character,
// no white space other than U+0020, no invisible (format or
// default-ignorable) character, and, when it begins a word, no leading
// '@' (a response file to programs that read one).
func dataTextError(a *tool.Arg, v string, startsWord bool) *tool.Error {
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return tool.ValueErrorf(a.Name, "%s", badRune{r: rune(c), offset: i, reason: reasonControl}.message())
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		if r == utf8.RuneError && size == 1 {
			return tool.ValueErrorf(a.Name, "%s", badRune{r: r, offset: i, invalid: c}.message())
		}
		if reason := plainReason(r); reason != "" {
			if reason == reasonUSpace {
				reason = reasonTextSpace
			}
			return tool.ValueErrorf(a.Name, "%s", badRune{r: r, offset: i, reason: reason}.message())
		}
		i += size
	}
	if startsWord && strings.HasPrefix(v, "@") {
		return tool.ValueErrorf(a.Name, "value %q begins with '@', which some programs read as a file of more arguments; "+
			"a value that starts an argument may not begin with '@' (write the text without it, or escape it the way the program's pattern syntax allows)", v)
	}
	return nil
}

// booleanValueError is the 614 for a boolean slot's text that is not "true"
// or "false" (the decoder gives those for JSON true and false), or nil.
func booleanValueError(a *tool.Arg, v string) *tool.Error {
	if v == "true" || v == "false" {
		return nil
	}
	return tool.ValueErrorf(a.Name, "value %q is not a boolean: want true or false", v)
}

// flagNote says which boolean slots a reading of the template set.
func flagNote(on []tool.Arg) string {
	var parts []string
	for _, a := range on {
		parts = append(parts, fmt.Sprintf("{%s} true (%s)", a.Name, a.Flag))
	}
	return strings.Join(parts, " and ")
}
