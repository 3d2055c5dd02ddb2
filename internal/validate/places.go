package validate

import (
	"slices"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Place is where a slot stands in a template, as the template's program
// reads it: it decides which characters the slot's value may hold
// (DESIGN.md §5.1, ValueAt).
type Place struct {
	// StartsWord: the slot begins a word of the template, so its value may
	// not begin with a dash unless OptionValue says the program reads that
	// word as an option's value.
	StartsWord bool
	// Data: in every reading of the template, the program reads every word
	// the slot stands in as data, never as an option or code: the value of
	// an option its grammar says takes one, a word after "--", or the
	// operand its grammar says is the pattern (grep's first operand when no
	// -e or -f is given). A text value there may hold any printable
	// character, quotes and shell operator characters included.
	Data bool
	// OptionValue: in every reading, every word the slot begins is the
	// whole separate value of the option before it ("-e {phrase}"), which
	// the program takes whatever it begins with, a dash included.
	OptionValue bool
}

// maxPlaceReadings bounds the boolean and droppable optional slots whose
// every combination Places reads; with more, no slot is read as data.
const maxPlaceReadings = 6

// Places returns the Place of every slot of t, whose slots s declares. A
// slot is Data (and OptionValue) only when every reading of t agrees: each
// set of boolean slots true (their flags in their words) and each set of
// optional slots without a default left out (their words dropped). Where
// the program's grammar is not known for sure — an option it does not
// list, a slot in an option's name, a program toolgen does not know — the
// words from there on are not data.
func Places(s *tool.Spec, t *Template) map[string]Place {
	out := map[string]Place{}
	for _, name := range t.Slots() {
		out[name] = Place{StartsWord: t.StartsWord(name)}
	}
	vs, ok := placeReadings(s, t)
	if !ok {
		return out
	}
	data := map[string]bool{}
	value := map[string]bool{}
	for _, name := range t.Slots() {
		data[name], value[name] = true, true
	}
	for _, tv := range vs {
		d, v := dataWords(tv)
		for i, w := range tv.Words[1:] {
			for k, part := range w {
				if part.Slot == "" {
					continue
				}
				data[part.Slot] = data[part.Slot] && d[i+1]
				if k == 0 {
					value[part.Slot] = value[part.Slot] && v[i+1]
				}
			}
		}
	}
	for name, p := range out {
		p.Data = data[name]
		p.OptionValue = p.Data && p.StartsWord && value[name]
		out[name] = p
	}
	return out
}

// placeReadings lists the readings of t that Places compares (the whole
// template first), or false when there are too many to read them all.
func placeReadings(s *tool.Spec, t *Template) ([]*Template, bool) {
	var bools, opt []tool.Arg
	for _, name := range t.Slots() {
		a, ok := s.Arg(name)
		switch {
		case !ok:
		case a.Type == tool.Boolean:
			bools = append(bools, a)
		case !a.Required && !a.HasDefault:
			opt = append(opt, a)
		}
	}
	if len(bools)+len(opt) > maxPlaceReadings {
		return nil, false
	}
	all := append(slices.Clone(bools), opt...)
	var out []*Template
	for mask := 0; mask < 1<<len(all); mask++ {
		tv := t
		var drop []string
		for k, a := range all {
			on := mask&(1<<k) != 0
			switch {
			case a.Type == tool.Boolean && on:
				tv = substitute(tv, a.Name, a.Flag)
			case a.Type == tool.Boolean, on: // a boolean false, or an optional slot left out
				drop = append(drop, a.Name)
			}
		}
		if len(drop) > 0 {
			tv = without(tv, drop)
		}
		out = append(out, tv)
	}
	return out, true
}

// dataWords reads t's words with its program's grammar (the one reader,
// programs.Program.ReadLine) and returns the indexes of the words the
// program reads as data, and of those that are an option's whole separate
// value. The reading stops at the first word it is not certain of: an
// option the grammar does not list for sure, a slot where option letters
// or a name are, a slot choosing the subcommand, a command an option runs.
func dataWords(t *Template) (data, value map[int]bool) {
	data, value = map[int]bool{}, map[int]bool{}
	p := programs.Lookup(t.Binary())
	if p == nil || p.Grammar.WordsOnly || p.Grammar.Style != programs.Getopt {
		return data, value
	}
	if p.Grammar.OldStyle && len(t.Words) > 1 && !isOptionWord(t.Words[1]) {
		return data, value // tar xf: letters without a dash
	}
	line := p.ReadLine(argsOf(t.Words), nil)
	subDone := !p.Grammar.Subcommands
	patternOpt := false
	var operands []int
	for _, tok := range line.Tokens {
		switch tok.Kind {
		case programs.TokEnd:
			if !subDone {
				return data, value
			}
			for j := tok.Word + 1; j < len(t.Words); j++ {
				data[j] = true
			}
			finishData(p, data, patternOpt, operands)
			return data, value
		case programs.TokSub:
			if len(tok.Holes) > 0 {
				return data, value // the subcommand is a slot's
			}
			subDone = true
		case programs.TokOperand:
			operands = append(operands, tok.Word)
		case programs.TokOption:
			if !tok.Listed || tok.Code != nil && tok.Code.Kind == programs.CodeCommand {
				return data, value
			}
			patternOpt = patternOpt || slices.Contains(p.Grammar.Pattern, tok.Name)
			switch {
			case tok.HasValue && tok.InWord: // every slot of the word is in the value
				data[tok.Word] = true
			case tok.HasValue:
				data[tok.Word+1], value[tok.Word+1] = true, true
			}
		case programs.TokValue:
		default: // a slot where option letters or a name are; a command's words
			return data, value
		}
	}
	finishData(p, data, patternOpt, operands)
	return data, value
}

// finishData, once every word was read for sure, marks the first operand
// as the pattern when p's grammar says so and no option gave one.
func finishData(p *programs.Program, data map[int]bool, patternOpt bool, operands []int) {
	if len(p.Grammar.Pattern) > 0 && !patternOpt && len(operands) > 0 && !p.Grammar.Subcommands {
		data[operands[0]] = true
	}
}
