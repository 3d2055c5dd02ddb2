package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// maxCodeVariants bounds how many readings of a template the rule makes
// (enum values in option names, and sed scripts from enum values).
const maxCodeVariants = 256

// checkCode applies the code-position rule to t, whose slots s declares.
func checkCode(s *tool.Spec, t *Template, deny programs.DenyList) []error {
	var errs []*tool.Error
	seen := map[string]bool{}
	fields := map[string]bool{}
	// A reading's 613 is kept when it is new; one from another reading (an
	// enum value, a dropped word) only when its slot has none yet.
	add := func(err *tool.Error, note string) {
		if err == nil || seen[err.Error()] || note != "" && fields[err.Field] {
			return
		}
		seen[err.Error()] = true
		fields[err.Field] = true
		errs = append(errs, err)
	}
	info := slotInfoOf(s)
	variants := 0
	for _, drop := range dropSets(s, t) {
		tv, note := t, ""
		if len(drop) > 0 {
			tv = without(t, drop)
			for _, d := range drop {
				note = joinNote(note, fmt.Sprintf("{%s} unset (its word dropped)", d))
			}
		}
		variants = checkCodeVariant(s, tv, info, deny, add, variants, note)
	}
	var out []error
	for _, err := range errs {
		out = append(out, err)
	}
	return out
}

// runError is the 613 for a program that find -exec (or the like) runs:
// the deny list and the relative-path rule hold for it as for the
// template's binary (find . -exec sh -c {x} + would run the model's shell
// code), or nil.
func runError(r codeRun, deny programs.DenyList) *tool.Error {
	if entry, denied := deny.Match(r.program); denied {
		return tool.SpecErrorf("command", "%s's %s runs %q, which is on the deny list (entry %q)", r.prog, r.opt, r.program, entry)
	}
	if err := relativeBinary(r.program); err != nil {
		return tool.SpecErrorf("command", "%s's %s runs %q: %s", r.prog, r.opt, r.program, err.(*tool.Error).Msg)
	}
	return nil
}

// dropSets lists the sets of optional slots without a default whose words
// a call may drop (an unset optional slot drops its word, and the next word
// moves into its place: sed -l {n} {s} {f} without n makes {f} the script):
// every subset of up to six such slots, the empty set first; with more,
// each one alone and all together.
func dropSets(s *tool.Spec, t *Template) [][]string {
	var opt []string
	if codeEntry(t.Binary()) != nil {
		for _, name := range t.Slots() {
			if a, ok := s.Arg(name); ok && !a.Required && !a.HasDefault {
				opt = append(opt, name)
			}
		}
	}
	sets := [][]string{nil}
	if len(opt) > 6 {
		for _, o := range opt {
			sets = append(sets, []string{o})
		}
		return append(sets, opt)
	}
	for mask := 1; mask < 1<<len(opt); mask++ {
		var set []string
		for k, o := range opt {
			if mask&(1<<k) != 0 {
				set = append(set, o)
			}
		}
		sets = append(sets, set)
	}
	return sets
}

// without returns t without the words that hold one of slots.
func without(t *Template, slots []string) *Template {
	out := &Template{}
	for _, w := range t.Words {
		if !slices.ContainsFunc(slotsOf(w), func(s string) bool { return slices.Contains(slots, s) }) {
			out.Words = append(out.Words, w)
		}
	}
	return out
}

func checkCodeVariant(s *tool.Spec, t *Template, info func(string) slotInfo, deny programs.DenyList, add func(*tool.Error, string), variants int, note string) int {
	scan := scanTemplate(t, info)
	if scan.expand != "" {
		a, _ := s.Arg(scan.expand)
		for _, v := range a.Enum {
			variants++
			if variants > maxCodeVariants {
				add(tool.SpecErrorf("arguments."+a.Name, "slot %q: its enum values name options of %s, and there are too many readings "+
					"of the template to check them all (more than %d); write the options out in the template", a.Name, BinaryName(t.Binary()), maxCodeVariants), "")
				return variants
			}
			n := variantNote(note, a.Name, v)
			variants = checkCodeVariant(s, substitute(t, a.Name, v), info, deny, add, variants, n)
		}
		return variants
	}
	for _, r := range scan.runs {
		add(runError(r, deny), "")
	}
	for _, site := range scan.sites {
		if err := siteError(s, site, note); err != nil {
			add(err, note)
		}
	}
	for _, site := range scan.sed {
		for _, err := range sedSiteErrors(s, site, info, note) {
			add(err, note)
		}
	}
	return variants
}

// variantNote says which enum values a reading of the template took.
func variantNote(note, slot, v string) string {
	return joinNote(note, fmt.Sprintf("{%s} as %q", slot, v))
}

func joinNote(note, more string) string {
	if note != "" {
		return note + " and " + more
	}
	return more
}

// substitute returns t with every {slot} replaced by the literal v.
func substitute(t *Template, slot, v string) *Template {
	out := &Template{Words: make([]Word, len(t.Words))}
	for i, w := range t.Words {
		var nw Word
		for _, p := range w {
			if p.Slot == slot {
				p = Part{Lit: v}
			}
			if p.Slot == "" && len(nw) > 0 && nw[len(nw)-1].Slot == "" {
				nw[len(nw)-1].Lit += p.Lit
				continue
			}
			nw = append(nw, p)
		}
		out.Words[i] = nw
	}
	return out
}

// codeOptions lists p's code options as a person writes them, for messages.
func codeOptions(p *programs.Program) string {
	var names []string
	for _, o := range p.Code {
		for _, c := range o.Short {
			names = append(names, "-"+string(c))
		}
		names = append(names, o.Words...)
		for _, l := range o.Long {
			names = append(names, "--"+l)
		}
	}
	return strings.Join(names, ", ")
}

// siteError is the 613 for a slot in a code position, or nil when its
// declaration makes it safe.
func siteError(s *tool.Spec, site codeSite, note string) *tool.Error {
	a, ok := s.Arg(site.slot)
	if !ok {
		return nil // undeclared: checkSlotUse says so
	}
	field := "arguments." + a.Name
	if note != "" {
		note = "with " + note + ", "
	}
	opt := site.opt
	if site.full != "" {
		opt += " (" + site.full + ")"
	}
	enum := len(a.Enum) > 0
	switch {
	case site.sub:
		return tool.SpecErrorf(field, "slot %q: %sit is %s's subcommand, and %s; the model must not choose it: write the subcommand out in the "+
			"template, or give the slot an enum of the allowed subcommands", a.Name, note, site.prog, subWhy(codeEntry(site.prog)))
	case site.names && site.afterDashes:
		return nil // slotNamesOption's 613 says it
	case site.names:
		return tool.SpecErrorf(field, "slot %q: %sit stands among the option letters or in the option name of %q, so its value would "+
			"choose options of %s, and some of them take code (%s); the model must not choose options: write them out in the "+
			"template, or give the slot an enum of the allowed values", a.Name, note, opt, site.prog, codeOptions(codeEntry(site.prog)))
	case site.kind == programs.CodeScriptFile:
		fix := "write what the file would hold out in the template instead"
		if p := codeEntry(site.prog); p != nil && p.Script != nil {
			fix = "write the script out in the template instead (" + p.Script.Inline + ")"
		}
		return tool.SpecErrorf(field, "slot %q: %sit is the value of %s's %s, which %s; the file would be the workspace's, which the "+
			"repository writes, so an enum does not help: %s", a.Name, note, site.prog, opt, site.why, fix)
	case enum:
		return nil // the author's allowlist
	case site.what != "":
		place := "the program of"
		if site.cmdArg {
			place = "in the arguments of"
		}
		return tool.SpecErrorf(field, "slot %q: %sit is %s %s, which %s; the model must not choose code: write the command "+
			"out in the template, or give the slot an enum of the allowed values", a.Name, note, place, site.what, site.why)
	case site.cmd:
		return tool.SpecErrorf(field, "slot %q: %sit is the program %s's %s runs, which %s; the model must not choose code: "+
			"write the program out in the template, or give the slot an enum of the allowed programs", a.Name, note, site.prog, opt, site.why)
	}
	return tool.SpecErrorf(field, "slot %q: %sit is the value of %s's %s, which %s; the model must not choose it: "+
		"write the value out in the template, or give the slot an enum of the allowed values", a.Name, note, site.prog, opt, site.why)
}

// sedSiteErrors applies the rule to one script of a template (a sed
// script), judged by its program's Script.
func sedSiteErrors(s *tool.Spec, site sedSite, info func(string) slotInfo, note string) []*tool.Error {
	where := site.prog + "'s script"
	if site.via != "" {
		where += " (the value of " + site.via + ")"
	} else {
		where += " (its first operand, as no -e or -f is given)"
	}
	if note != "" {
		note = "with " + note + ", "
	}
	var free, letterFree, enums []tool.Arg
	for _, name := range slotsOf(site.word) {
		a, ok := s.Arg(name)
		switch in := info(name); {
		case !ok:
		case in.enum:
			enums = append(enums, a)
		case in.letterFree:
			letterFree = append(letterFree, a)
		default:
			free = append(free, a)
		}
	}
	var errs []*tool.Error
	if len(free) > 0 {
		for _, a := range free {
			errs = append(errs, tool.SpecErrorf("arguments."+a.Name, "slot %q: %sit is (part of) %s, and %s; the model must not choose code: "+
				"write the script out in the template, give the slot an enum of the allowed scripts, or a pattern that admits no "+
				"letter (^[0-9]+(,[0-9]+)?$ for a line range)", a.Name, note, where, site.script.Why))
		}
		return errs
	}
	if len(letterFree) > 0 {
		text := ""
		for _, p := range site.word {
			text += p.Lit
		}
		for _, a := range enums {
			text += strings.Join(a.Enum, "")
		}
		if i := strings.IndexAny(text, site.script.Danger); i >= 0 {
			for _, a := range letterFree {
				errs = append(errs, tool.SpecErrorf("arguments."+a.Name, "slot %q: %sits values hold no letter, but %s holds %q around it, "+
					"which punctuation in the value could turn into a command that runs a program or touches a file (s/x/y/e, w FILE); "+
					"give the slot an enum of the allowed values", a.Name, note, where, text[i:i+1]))
			}
		}
		return errs
	}
	combos := 1
	for _, a := range enums {
		combos *= len(a.Enum)
		if combos > maxCodeVariants {
			for _, a := range enums {
				errs = append(errs, tool.SpecErrorf("arguments."+a.Name, "slot %q: %sit is (part of) %s, and its enum values with "+
					"the other slots' make more than %d scripts to check; write the script out in the template", a.Name, note, where, maxCodeVariants))
			}
			return errs
		}
	}
	idx := make([]int, len(enums))
	for {
		var script strings.Builder
		for _, p := range site.word {
			if p.Slot == "" {
				script.WriteString(p.Lit)
				continue
			}
			for k, a := range enums {
				if a.Name == p.Slot {
					script.WriteString(a.Enum[idx[k]])
				}
			}
		}
		if reason := site.script.Judge(script.String()); reason != "" {
			if len(enums) == 0 {
				return []*tool.Error{tool.SpecErrorf("command", "%s%s %q is refused: %s; a script in the template must be "+
					"safe too, since the files it reads are the workspace's", note, where, script.String(), reason)}
			}
			var with []string
			for k, a := range enums {
				with = append(with, fmt.Sprintf("{%s} as %q", a.Name, a.Enum[idx[k]]))
			}
			return []*tool.Error{tool.SpecErrorf("arguments."+enums[0].Name, "slot %q: %sit is (part of) %s, and with %s the script "+
				"is %q, which is refused: %s; remove that value from the enum", enums[0].Name, note, where,
				strings.Join(with, " and "), script.String(), reason)}
		}
		k := 0
		for ; k < len(enums); k++ {
			if idx[k]++; idx[k] < len(enums[k].Enum) {
				break
			}
			idx[k] = 0
		}
		if k == len(enums) {
			return nil
		}
	}
}
