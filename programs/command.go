package programs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The ExecTool's reading of a command line (defence 4, package
// runtime/exec): the words after the binary are read the way the program
// reads them (its Grammar) and every option, word and subcommand its rows
// refuse is refused, in every spelling the program accepts; then its Check
// looks at what rows cannot express.

// Defence 4: the arguments of a granted binary are read the way the binary
// reads them (its option grammar, from the flag table) and every option,
// word and subcommand the table refuses is refused, in every spelling the
// binary accepts: "--opt=value", "--opt value", unambiguous abbreviations of
// long options where the binary accepts them ("--in-pl" for sed's
// --in-place), short options combined ("-ni") or with an attached value
// ("-i.bak"), and after "--" only where the binary stops reading options.
//
// Where the grammar is not known for sure (an option the table does not
// list), the reading is the one that refuses more: an unknown short option
// is taken to have no value, so the letters after it are still checked, and
// a "--" right after an unknown option is not taken as the end of the
// options, as it may be that option's value.

// Refusal is the ExecTool's "no" to a command line: which word (0 is the
// binary) and why.
type Refusal struct {
	Word   int
	Reason string
}

func refuse(w int, format string, args ...any) *Refusal {
	return &Refusal{Word: w, Reason: fmt.Sprintf(format, args...)}
}

// word is one word of a command line, as the program receives it.
type word struct{ text string }

// ReadCommand reads words (the command line after quote removal; words[0] is the
// binary) as p reads them, for the ExecTool: name is the name p matched
// (the granted name, or that of the file it resolves to), path the
// resolved binary, workspace the workspace root, and outside says why a
// value names no place inside the workspace ("" when it does; nil: not
// checked), for the options whose value must stay inside. nil when the
// ExecTool refuses nothing of p.
func (p *Program) ReadCommand(words []string, name, path, workspace string, outside func(v string) string) *Command {
	r := p.rules()
	if r == nil {
		return nil
	}
	c := &Command{name: name, path: path, rules: r, ws: workspace, outside: outside}
	for _, w := range words {
		c.words = append(c.words, word{text: w})
	}
	c.read()
	return c
}

// Refusal applies p's rows (the leftmost refused word is reported), then
// its Check; nil when nothing is refused. A program refused whatever its
// arguments (Refuse) is refused at word 0.
func (c *Command) Refusal() *Refusal {
	if c.rules.Refuse != "" {
		return refuse(0, "%s is refused whatever its arguments: %s", c.name, c.rules.Refuse)
	}
	if r := c.checkRows(); r != nil {
		return r
	}
	if c.rules.Check != nil {
		return c.rules.Check(c)
	}
	return nil
}

// Entry returns the first name of the program c was read for.
func (c *Command) Entry() string { return c.rules.Names[0] }

// Reading is how one word (or a letter of a combined word) was read.
type Reading struct {
	Word int    // the word's index
	What string // "option -n with value \"5\"", "operand", "subcommand" …
}

// Readings returns how c read each word, in order.
func (c *Command) Readings() []Reading {
	var out []Reading
	for _, t := range c.tokens {
		what := t.kind.String()
		if t.kind == TokOption {
			what = "option " + t.name
			if t.hasValue {
				what += fmt.Sprintf(" with value %q", t.value)
			}
		}
		out = append(out, Reading{Word: t.word, What: what})
	}
	return out
}

// Attached returns, per word, the option values attached to their option
// in that word ("-i.bak", "--file=x").
func (c *Command) Attached() map[int][]string {
	out := map[int][]string{}
	for _, t := range c.tokens {
		if t.kind == TokOption && t.inWord {
			out[t.word] = append(out[t.word], t.value)
		}
	}
	return out
}

// Script reports whether word i is a program in the binary's own language
// that a Check read (a sed script, an awk program): not a path.
func (c *Command) Script(i int) bool { return c.scripts[i] }

// token is a Token of the reader as the ExecTool sees it: its line has no
// holes, so a value is its text.
type token struct {
	word     int     // index of the word it comes from
	kind     TokKind //
	name     string  // options: "-x", or "--long" with an abbreviation resolved when unambiguous
	long     bool    // a long option ("--long", or "-long" for GoFlag)
	written  string  // options: the name as written ("--in-pl")
	value    string  // options: the value, attached or the next word
	hasValue bool    // options: a value was given
	inWord   bool    // options: the value is part of the option's word
	sub      bool    // the token follows the subcommand
}

// Command is an ExecTool command line read with one program's grammar, for
// the ExecTool's defence 4 (Program.Read).
type Command struct {
	words  []word
	name   string // the binary name the rules matched
	path   string // the resolved binary
	rules  *execRules
	tokens []token
	sub    string // the subcommand, "" when none
	subAt  int    // index of the subcommand word, 0 when none
	ws     string // workspace root
	// outside says why a value names no place inside the workspace ("" when
	// it does), for the Confine rows; nil: not checked.
	outside func(v string) string
	// scripts are the words a Check read as a program in the binary's own
	// language (sed scripts, awk programs); defence 5 does not read them as
	// paths ("/foo/p" is an address, not a file).
	scripts map[int]bool
}

// script marks word i as a program checked by a Check.
func (c *Command) script(i int) {
	if c.scripts == nil {
		c.scripts = map[int]bool{}
	}
	c.scripts[i] = true
}

// arg returns the text of word i.
func (c *Command) arg(i int) string { return c.words[i].text }

// read tokenises the command with its program's grammar (Program.Read).
func (c *Command) read() {
	texts := make([]string, len(c.words))
	for i, w := range c.words {
		texts[i] = w.text
	}
	line := c.rules.prog.ReadLine(LiteralArgs(texts), nil)
	c.sub, c.subAt = line.Sub, line.SubAt
	for _, t := range line.Tokens {
		c.tokens = append(c.tokens, token{word: t.Word, kind: t.Kind, name: t.Name, long: t.Long, written: t.Written,
			value: t.Value.Text(), hasValue: t.HasValue, inWord: t.InWord, sub: t.Sub})
	}
}

// checkRows applies the rows of the rules to the tokens.
// The leftmost refused token is reported.
func (c *Command) checkRows() *Refusal {
	rows := c.rules.Rows
	for ri := range rows {
		if row := &rows[ri]; row.wholeSub() && c.sub != "" && row.inSub(c.sub, true) {
			return refuse(c.subAt, "%s: subcommand %q is refused: %s", c.name, c.sub, row.Why)
		}
	}
	for ti := range c.tokens {
		t := &c.tokens[ti]
		for ri := range rows {
			row := &rows[ri]
			if row.wholeSub() || !row.appliesTo(c, t) {
				continue
			}
			if r := c.checkToken(row, t); r != nil {
				return r
			}
		}
	}
	return nil
}

// appliesTo reports whether row governs token t: rows for the top level see
// the tokens before the subcommand, the others those after it.
func (row *execRow) appliesTo(c *Command, t *token) bool {
	if !c.rules.prog.Grammar.Subcommands {
		return true
	}
	if !t.sub {
		return row.Sub == ""
	}
	return row.inSub(c.sub, false)
}

// inSub reports whether the row is about subcommand sub; "*" counts unless
// exact is set.
func (row *execRow) inSub(sub string, exact bool) bool {
	if row.Sub == "*" {
		return !exact
	}
	for _, s := range row.subs {
		if s == sub {
			return true
		}
	}
	return false
}

// checkToken applies one row to one token.
func (c *Command) checkToken(row *execRow, t *token) *Refusal {
	w := c.words[t.word]
	for _, pat := range row.Words {
		if matchWord(pat, w.text) {
			return refuse(t.word, "%s: %s is refused: %s", c.name, describeWord(w), row.Why)
		}
	}
	if t.kind != TokOption {
		return nil
	}
	if c.matchOption(row.Short, row.Long, t) {
		return refuse(t.word, "%s: option %s%s is refused: %s", c.name, t.written, where(t, w), row.Why)
	}
	if len(row.Confine) > 0 && c.matchConfine(row.Confine, t) && t.hasValue && c.outside != nil {
		if msg := c.outside(t.value); msg != "" {
			return refuse(t.word, "%s: option %s%s must name a place inside the workspace: %s; %s",
				c.name, t.written, where(t, w), msg, row.Why)
		}
	}
	return nil
}

// where says which word an option was found in, when it is not the whole word.
func where(t *token, w word) string {
	if t.written == w.text {
		return ""
	}
	return fmt.Sprintf(" (in %q)", w.text)
}

func describeWord(w word) string { return fmt.Sprintf("the word %q", w.text) }

// matchWord matches a row's word pattern: exact, or a prefix with a
// trailing '*'.
func matchWord(pat, w string) bool {
	if stem, ok := strings.CutSuffix(pat, "*"); ok {
		return strings.HasPrefix(w, stem)
	}
	return pat == w
}

// matchOption reports whether option token t is one of the short letters or
// long names (without dashes; a trailing '*' is a stem).
func (c *Command) matchOption(short string, long []string, t *token) bool {
	switch c.rules.prog.Grammar.Style {
	case GoFlag:
		name := t.name[1:]
		for _, l := range long {
			if matchWord(l, name) {
				return true
			}
		}
		return len(name) == 1 && strings.Contains(short, name)
	case Getopt: // read below
	}
	if !t.long {
		r, _ := utf8.DecodeRuneInString(t.name[1:])
		return hasRune(short, r)
	}
	written := strings.TrimPrefix(t.written, "--")
	resolved := strings.TrimPrefix(t.name, "--")
	for _, l := range long {
		if c.matchLong(l, written, resolved, c.rules.abbrevAt(t.sub)) {
			return true
		}
	}
	return false
}

// abbrevAt reports whether long options may be abbreviated before the
// subcommand (sub false) or after it: a program with subcommands takes
// abbreviations after it only (git's top level takes none).
func (r *execRules) abbrevAt(sub bool) bool {
	g := &r.prog.Grammar
	return g.Abbrev && (sub || !g.Subcommands)
}

// matchLong matches one refused long option l against an option written as
// written and resolved as resolved; abbrev says whether long options may
// be abbreviated where it stands.
func (c *Command) matchLong(l, written, resolved string, abbrev bool) bool {
	stem, isStem := strings.CutSuffix(l, "*")
	switch {
	case isStem && (strings.HasPrefix(written, stem) || strings.HasPrefix(resolved, stem)):
		return true
	case !isStem && (written == l || resolved == l):
		return true
	case !abbrev || written == "":
		return false
	}
	// An abbreviation: refused when it may stand for l (MayStandFor).
	if resolved != written {
		return false // resolved unambiguously to another option
	}
	return MayStandFor(written, stem, c.rules.known, true)
}

// matchConfine reports whether t is one of the confined options, given as
// "-C" or "--git-dir".
func (c *Command) matchConfine(confine []string, t *token) bool {
	var short string
	var long []string
	for _, o := range confine {
		if l, ok := strings.CutPrefix(o, "--"); ok {
			long = append(long, l)
		} else {
			short += strings.TrimPrefix(o, "-")
		}
	}
	return c.matchOption(short, long, t)
}

// operands returns the operand tokens, in order.
func (c *Command) operands() []token {
	var out []token
	for _, t := range c.tokens {
		if t.kind == TokOperand {
			out = append(out, t)
		}
	}
	return out
}

// options returns the option tokens that match the short letters or long
// names, in order.
func (c *Command) options(short string, long ...string) []token {
	var out []token
	for i := range c.tokens {
		t := &c.tokens[i]
		if t.kind == TokOption && c.matchOption(short, long, t) {
			out = append(out, *t)
		}
	}
	return out
}

// refuseRecursionFollowing refuses a recursive run (an option in rShort or
// rLong) that is not also given one of the options that keep symlinks as
// links (keepShort, keepLong, spelled keep in the message): walking a
// directory of the workspace, the program would follow a symlink out of it.
func refuseRecursionFollowing(c *Command, bin, rShort string, rLong []string, keepShort string, keepLong []string, keep string) *Refusal {
	rec := c.options(rShort, rLong...)
	if len(rec) == 0 || len(c.options(keepShort, keepLong...)) > 0 {
		return nil
	}
	return refuse(rec[0].word, "%s: option %s is refused without %s: it follows symlinks while walking directories, "+
		"and a symlink can lead out of the workspace; add %s to compare or store links as links", bin, rec[0].written, keep, keep)
}

// subOperands returns the operands after the subcommand.
func (c *Command) subOperands() []token {
	var out []token
	for _, t := range c.operands() {
		if t.sub {
			out = append(out, t)
		}
	}
	return out
}

// subOptions returns the options after the subcommand that match.
func (c *Command) subOptions(short string, long ...string) []token {
	var out []token
	for _, t := range c.options(short, long...) {
		if t.sub {
			out = append(out, t)
		}
	}
	return out
}
