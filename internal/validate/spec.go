package validate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// identPattern is the form of tool and slot names, as messages state it;
// isIdent checks it (by hand: no regexp to compile at start-up).
const identPattern = `^[a-z][a-z0-9_]*$`

// isIdent reports whether s matches identPattern.
func isIdent(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// MaxNameLen bounds tool and slot names (the function-calling APIs of the
// main model providers accept at most 64 characters).
const MaxNameLen = 64

// Option configures Spec.
type Option func(*options)

type options struct {
	deny programs.DenyList
	// present reports whether the descriptor file gives a field (nil: no
	// file); an empty description it gives is "blank", not "missing".
	present func(field string) bool
	// runsCode: CheckBinary judges the binary as a runs_code tool's
	// (RunsCode).
	runsCode bool
	// argsUnread means the file's "arguments" could not be read, so the
	// template's slots cannot be matched with declarations.
	argsUnread bool
}

// WithDenyList replaces the default deny list. Pass
// DefaultDenyList().With(...) to extend it or .Without(...) to narrow it.
func WithDenyList(d programs.DenyList) Option { return func(o *options) { o.deny = d } }

// Spec checks s against the descriptor rules and returns its parsed template.
// Every problem found is reported: the error is an errors.Join of 613
// *tool.Error values, each with its Field set ("name", "command",
// "arguments.path.default", …) so a loader can point at the place in a file.
func Spec(s *tool.Spec, opts ...Option) (*Template, error) {
	if s == nil {
		return nil, tool.SpecErrorf("", "spec is nil")
	}
	o := options{deny: programs.DefaultDenyList()}
	for _, opt := range opts {
		opt(&o)
	}
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkName("name", "tool", s.Name))
	add(checkDescription(&o, "description", "", s.Description, "what the tool does"))
	add(invisibleError("description", "the description", s.Description))
	errs = append(errs, checkHints(s)...)
	t, err := ParseTemplate(s.Command)
	add(err)
	if t != nil {
		add(relativeBinary(t.Binary()))
		if entry, denied := denyFor(s.RunsCode, t.Binary(), o.deny).Match(t.Binary()); denied {
			add(deniedError(t.Binary(), entry, s.RunsCode))
		} else {
			add(checkRunsCode(s, t)) // runscode.go
		}
		if !o.argsUnread {
			add(checkSlotUse(s, t))
		}
	}
	seen := map[string]bool{}
	var places map[string]Place
	if t != nil {
		places = Places(s, t)
	}
	for _, a := range s.Args {
		if seen[a.Name] {
			add(tool.SpecErrorf("arguments."+a.Name, "slot %q is declared twice", a.Name))
		}
		seen[a.Name] = true
		errs = append(errs, checkArg(&o, a, t, places)...)
	}
	add(checkOutputLimit(s))
	add(checkRunFields(s)) // runlimits.go
	if t != nil && !o.argsUnread {
		errs = append(errs, checkWords(s, t)...)
		errs = append(errs, checkCodeSlots(s, t, o.deny)...)
		errs = append(errs, checkResponseFiles(s, t)...) // respfile.go
	}
	errs = append(errs, checkNetwork(s)...) // network.go
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return t, nil
}

// checkDescription requires a description with text: an empty one the
// author left out is "missing", one given as "" or white space only is
// "blank".
func checkDescription(o *options, field, prefix, desc, tell string) error {
	if strings.TrimSpace(desc) != "" {
		return nil
	}
	if desc == "" && (o.present == nil || !o.present(field)) {
		return tool.SpecErrorf(field, "%sdescription is missing: tell the model %s", prefix, tell)
	}
	return tool.SpecErrorf(field, "%sdescription is blank: tell the model %s", prefix, tell)
}

func checkName(field, what, name string) error {
	switch {
	case name == "":
		return tool.SpecErrorf(field, "%s name is missing", what)
	case len(name) > MaxNameLen:
		return tool.SpecErrorf(field, "%s name %q is longer than %d characters", what, name, MaxNameLen)
	case !isIdent(name):
		return tool.SpecErrorf(field, "%s name %q is not valid: want lower-case letters, digits and _, starting with a letter (%s)", what, name, identPattern)
	}
	return nil
}

// checkSlotUse requires every {slot} to be declared and every declared slot
// to be used.
func checkSlotUse(s *tool.Spec, t *Template) error {
	var errs []error
	used := map[string]bool{}
	for _, name := range t.Slots() {
		used[name] = true
		if _, ok := s.Arg(name); !ok {
			errs = append(errs, tool.SpecErrorf("command", "slot {%s} is used in the template but not declared in arguments", name))
		}
	}
	for _, a := range s.Args {
		if !used[a.Name] && a.Name != "" {
			errs = append(errs, tool.SpecErrorf("arguments."+a.Name, "slot %q is declared but not used in the template %q", a.Name, s.Command))
		}
	}
	return errors.Join(errs...)
}

// checkArg checks one slot's declaration; t may be nil when the template did
// not parse.
func checkArg(o *options, a tool.Arg, t *Template, places map[string]Place) []error {
	field := "arguments." + a.Name
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkName(field, "slot", a.Name))
	add(checkDescription(o, field+".description", fmt.Sprintf("slot %q: ", a.Name), a.Description, "what to put in it"))
	add(invisibleError(field+".description", fmt.Sprintf("slot %q: the description", a.Name), a.Description))
	add(invisibleError(field+".pattern", fmt.Sprintf("slot %q: the pattern", a.Name), a.Pattern))
	if a.Required && a.HasDefault {
		add(tool.SpecErrorf(field+".default", "slot %q: a required slot cannot have a default", a.Name))
	}
	if !a.Type.Valid() {
		if a.Type == "" {
			add(tool.SpecErrorf(field+".type", "slot %q: type is missing (want %s)", a.Name, typeList()))
		} else {
			add(tool.SpecErrorf(field+".type", "slot %q: unknown type %q (want %s)", a.Name, a.Type, typeList()))
		}
		return errs // enum and default cannot be checked without a type
	}
	if typed := checkTyped(a); len(typed) > 0 {
		return append(errs, typed...) // a boolean's enum, pattern and flag: nothing more to check
	}
	if len(a.Pattern) > MaxPatternLen {
		add(tool.SpecErrorf(field+".pattern", "slot %q: pattern is %d bytes long, more than %d: list the allowed values in an enum instead",
			a.Name, len(a.Pattern), MaxPatternLen))
		return errs
	}
	if a.Pattern != "" {
		if _, err := compilePattern(a.Pattern); err != nil {
			add(tool.SpecErrorf(field+".pattern", "slot %q: pattern is not a valid RE2 expression: %v", a.Name, err))
			return errs // enum and default cannot be checked without the pattern
		}
	}
	if t != nil && (a.Type == tool.String || a.Type == tool.Text || a.Type == tool.Path) && len(a.Enum) == 0 {
		if w, ok := slotNamesOption(t, a.Name); ok {
			add(tool.SpecErrorf(field, "slot %q: template word %q puts the slot right after its dashes, so the value would name the option "+
				"(find . -{x} with x=delete runs find . -delete); options belong in the template: write the option out, "+
				"give the slot an enum of the allowed option names, or make it an integer", a.Name, w))
		}
	}
	place := Place{StartsWord: true}
	if t != nil {
		place = places[a.Name]
	}
	for i, v := range a.Enum {
		if err := checkFixedValue(a, v, place, true); err != nil {
			add(tool.SpecErrorf(fmt.Sprintf("%s.enum.%d", field, i), "slot %q: enum value %q is not a valid value: %s", a.Name, v, err.Msg))
		}
	}
	if a.HasDefault {
		if err := checkFixedValue(a, a.Default, place, false); err != nil {
			add(tool.SpecErrorf(field+".default", "slot %q: default %q is not a valid value: %s", a.Name, a.Default, err.Msg))
		}
	}
	return errs
}

// checkFixedValue checks a value fixed by the author (enum or default) by the
// same rules as a model's value; a path default must stay inside the
// workspace lexically (symlinks can only be checked at call time). An enum
// value (inEnum) is in the enum by definition: the enum rule is checked for
// a default only, which also keeps a long enum from costing its square.
func checkFixedValue(a tool.Arg, v string, place Place, inEnum bool) *tool.Error {
	if inEnum {
		a.Enum = nil
	} else {
		a.Enum = enumFor(a, v)
	}
	if err := ValueAt(&a, v, place); err != nil {
		return err
	}
	if a.Type == tool.Path {
		if _, err := cleanPath(a.Name, v); err != nil {
			return err
		}
	}
	return nil
}

// enumFor lets a default that is one of the enum values be checked against
// the other rules only; any other default must be in the enum.
func enumFor(a tool.Arg, v string) []string {
	for _, e := range a.Enum {
		if e == v {
			return nil
		}
	}
	return a.Enum
}

// slotNamesOption reports whether slot stands right after the leading
// dashes of a word of t ("-{x}", "--{x}=v"), so that its value names the
// option, and returns that word.
func slotNamesOption(t *Template, slot string) (string, bool) {
	for _, w := range t.Words[1:] {
		if len(w) > 1 && w[0].Slot == "" && w[1].Slot == slot && strings.Trim(w[0].Lit, "-") == "" {
			return (&Template{Words: []Word{w}}).String(), true
		}
	}
	return "", false
}
