package validate

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// maxFlagSlots is how many boolean slots the code-position rule reads in
// every combination; with more, it reads each one set alone, all set and
// none set.
const maxFlagSlots = 6

// checkCodeSlots applies the code-position rule (checkCode) to every
// reading of t the boolean slots make — each set of them true, their words
// replaced by their flags, the others' words dropped — and refuses a text
// slot in any code position, whatever its enum or pattern: its value may
// hold spaces, and there the program runs the word or splits it into
// arguments.
func checkCodeSlots(s *tool.Spec, t *Template, deny programs.DenyList) []error {
	checked, texts := asStrings(s)
	var out []error
	seen := map[string]bool{}
	for _, r := range readings(t, s) {
		for _, err := range checkCode(checked, r.t, deny) {
			var e *tool.Error
			if !errors.As(err, &e) || seen[e.Msg] {
				continue
			}
			seen[e.Msg] = true
			out = append(out, reword(e, texts, r.on))
		}
	}
	return out
}

// reading is t as a call can shape it by its boolean slots: the ones in on
// set true (their words replaced by their flags), the others left out
// (their words dropped).
type reading struct {
	t  *Template
	on []tool.Arg
}

// readings lists the readings of t that the boolean slots of s make (see
// flagSets). None is empty: the binary is never a slot.
func readings(t *Template, s *tool.Spec) []reading {
	var bools []tool.Arg
	for _, name := range t.Slots() {
		if a, ok := s.Arg(name); ok && a.Type == tool.Boolean {
			bools = append(bools, a)
		}
	}
	var out []reading
	for _, on := range flagSets(bools) {
		tv := t
		var off []string
		for _, a := range bools {
			if containsArg(on, a.Name) {
				tv = substitute(tv, a.Name, a.Flag)
			} else {
				off = append(off, a.Name)
			}
		}
		if len(off) > 0 {
			tv = without(tv, off)
		}
		out = append(out, reading{tv, on})
	}
	return out
}

// asStrings returns s with its text slots made plain string slots without
// an enum or pattern, so that checkCode refuses them in every code
// position, and the names of those slots; s itself when it has none.
func asStrings(s *tool.Spec) (*tool.Spec, map[string]bool) {
	texts := map[string]bool{}
	for _, a := range s.Args {
		if a.Type == tool.Text {
			texts[a.Name] = true
		}
	}
	if len(texts) == 0 {
		return s, texts
	}
	c := *s
	c.Args = make([]tool.Arg, len(s.Args))
	for i, a := range s.Args {
		if texts[a.Name] {
			a.Type, a.Enum, a.Pattern = tool.String, nil, ""
		}
		c.Args[i] = a
	}
	return &c, texts
}

// reword returns e as it concerns the original Spec: a text slot's 613 says
// why a text slot may not stand there, and a 613 of a reading with boolean
// slots set says which.
func reword(e *tool.Error, texts map[string]bool, on []tool.Arg) *tool.Error {
	msg := e.Msg
	if name, ok := strings.CutPrefix(e.Field, "arguments."); ok && texts[name] {
		prefix := "slot " + strconv.Quote(name) + ": "
		msg = prefix + "it is a text slot, whose value may hold spaces, so it may not stand where the program runs its value " +
			"or splits it into words; make it a string slot (one word). The place: " + strings.TrimPrefix(msg, prefix)
	}
	if len(on) > 0 {
		msg += " (in the command with " + flagNote(on) + ")"
	}
	out := *e
	out.Msg = msg
	return &out
}

// flagSets lists the sets of boolean slots a reading sets true: every
// subset of up to maxFlagSlots slots, the empty set first; with more, none,
// each one alone and all together.
func flagSets(bools []tool.Arg) [][]tool.Arg {
	sets := [][]tool.Arg{nil}
	if len(bools) > maxFlagSlots {
		for _, a := range bools {
			sets = append(sets, []tool.Arg{a})
		}
		return append(sets, bools)
	}
	for mask := 1; mask < 1<<len(bools); mask++ {
		var set []tool.Arg
		for k, a := range bools {
			if mask&(1<<k) != 0 {
				set = append(set, a)
			}
		}
		sets = append(sets, set)
	}
	return sets
}

func containsArg(list []tool.Arg, name string) bool {
	for _, a := range list {
		if a.Name == name {
			return true
		}
	}
	return false
}

// RunsOf returns the programs t's program runs as t writes them out (see
// Template.Runs), in every reading the boolean slots of s make: a flag
// such as find's -exec may make the program run one only when it is set.
// Each was checked by Spec like the template's binary.
func RunsOf(t *Template, s *tool.Spec) []string {
	var out []string
	for _, r := range readings(t, s) {
		for _, p := range r.t.Runs() {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}
