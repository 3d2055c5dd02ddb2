package validate

import (
	"slices"
	"strings"

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

// dataWords reads t's words with its program's grammar and returns the
// indexes of the words the program reads as data, and of those that are
// an option's whole separate value.
func dataWords(t *Template) (data, value map[int]bool) {
	data, value = map[int]bool{}, map[int]bool{}
	p := programs.Lookup(t.Binary())
	if p == nil || p.Grammar.WordsOnly || p.Grammar.Style != programs.Getopt {
		return data, value
	}
	r := wordReader{g: p.Grammar, words: t.Words, data: data, value: value}
	r.read()
	return data, value
}

// wordReader walks a template's words as a getopt_long program reads them.
type wordReader struct {
	g           programs.Grammar
	words       []Word
	data, value map[int]bool
	argShort    string   // option letters that take a value, at this level
	noArgShort  string   // option letters known to take none
	argLong     []string // long options that take a value
	long        []string // long options known to take none
	sub         bool     // a subcommand is still to come
	patternOpt  bool     // an option giving the pattern was seen
	operands    []int
}

// read marks the data words of r.words, up to the first word whose reading
// is not certain.
func (r *wordReader) read() {
	g := r.g
	r.argShort, r.noArgShort, r.argLong, r.long = g.ArgShort, g.NoArgShort, g.ArgLong, g.Long
	r.sub = g.Subcommands
	if g.OldStyle && len(r.words) > 1 && !isOptionWord(r.words[1]) {
		return // tar xf: letters without a dash
	}
	for i := 1; i < len(r.words); i++ {
		w := r.words[i]
		switch {
		case len(w) == 1 && w[0].Slot == "" && w[0].Lit == "--":
			if r.sub {
				return
			}
			for j := i + 1; j < len(r.words); j++ {
				r.data[j] = true
			}
			r.finish()
			return
		case isOptionWord(w):
			next, ok := r.option(i)
			if !ok {
				return
			}
			i = next
		case r.sub:
			if len(w) != 1 || w[0].Slot != "" {
				return // the subcommand is a slot's
			}
			sa := g.SubArgs[w[0].Lit]
			r.argShort, r.noArgShort, r.argLong, r.long, r.sub = sa.Short, "", sa.Long, nil, false
		default:
			r.operands = append(r.operands, i)
		}
	}
	r.finish()
}

// finish, once every word was read for sure, marks the first operand as
// the pattern when the grammar says so and no option gave one.
func (r *wordReader) finish() {
	if len(r.g.Pattern) > 0 && !r.patternOpt && len(r.operands) > 0 && !r.g.Subcommands {
		r.data[r.operands[0]] = true
	}
}

// option reads the option word i and returns the index of the last word
// it takes, or false when the reading is not certain from here on.
func (r *wordReader) option(i int) (int, bool) {
	w := r.words[i]
	lead := w[0].Lit
	if strings.HasPrefix(lead, "--") {
		return r.longOption(i)
	}
	for j := 1; j < len(lead); j++ {
		c := lead[j]
		rest := lead[j+1:]
		switch {
		case strings.IndexByte(r.argShort, c) >= 0:
			r.pattern("-" + string(c))
			if rest != "" || len(w) > 1 { // the value is attached: every slot of the word is in it
				r.data[i] = true
				return i, true
			}
			if i+1 < len(r.words) {
				r.data[i+1], r.value[i+1] = true, true
			}
			return i + 1, true
		case strings.IndexByte(r.noArgShort, c) >= 0:
		default:
			return i, false
		}
	}
	return i, len(w) == 1 // a slot after no-value letters would name more options
}

// longOption reads "--name", "--name=value" or "--name value"; only an
// exact name the grammar lists is certain.
func (r *wordReader) longOption(i int) (int, bool) {
	w := r.words[i]
	name, _, attached := strings.Cut(w[0].Lit[2:], "=")
	if !attached && len(w) > 1 {
		return i, false // a slot in the option's name
	}
	switch {
	case slices.Contains(r.argLong, name):
		r.pattern("--" + name)
		if attached {
			r.data[i] = true
			return i, true
		}
		if i+1 < len(r.words) {
			r.data[i+1], r.value[i+1] = true, true
		}
		return i + 1, true
	case slices.Contains(r.long, name) && !attached:
		return i, true
	}
	return i, false
}

// pattern notes that opt gives the program its pattern, when it does.
func (r *wordReader) pattern(opt string) {
	if slices.Contains(r.g.Pattern, opt) {
		r.patternOpt = true
	}
}
