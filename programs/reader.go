package programs

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The one reader of a command line. Both consumers read a program's
// arguments through Program.ReadLine: the ExecTool (ReadCommand, a line whose
// words are all known) and the template check of package
// internal/validate (a line with holes, the slots, whose text a call
// chooses). Where a program's grammar is not known for sure, the reading
// is the one that finds more options, which refuses more:
//
//   - an option letter the grammar does not list takes no value, so the
//     letters after it and the next word are still read as options;
//   - a "--" right after an option that may take it as its value does not
//     end the options;
//   - a long option is resolved by the one abbreviation rule (ResolveLong),
//     and is a code option wherever it may stand for one (MayStandFor);
//   - a hole where an option's letters or name are (sed -n{x}) may spell
//     any option: the reader says so (TokNames) and reads no further in
//     that word; a hole whose values are a known list there stops the
//     reading (Line.Expand), and the caller reads the line once per value.

// Arg is one word of a command line as the reader sees it: literal text
// and holes whose text a call chooses (a template's slots). A command line
// a call gives is all literal (LiteralArgs).
type Arg []Piece

// Piece is literal text (Hole "") or the hole named Hole.
type Piece struct{ Lit, Hole string }

// LiteralArgs returns words as Args without holes.
func LiteralArgs(words []string) []Arg {
	out := make([]Arg, len(words))
	for i, w := range words {
		out[i] = Arg{{Lit: w}}
	}
	return out
}

// literal returns a's text and whether a has no hole.
func (a Arg) literal() (string, bool) {
	var b strings.Builder
	for _, p := range a {
		if p.Hole != "" {
			return "", false
		}
		b.WriteString(p.Lit)
	}
	return b.String(), true
}

// Text returns a's text, a hole written {name}.
func (a Arg) Text() string {
	var b strings.Builder
	for _, p := range a {
		if p.Hole != "" {
			b.WriteString("{" + p.Hole + "}")
		} else {
			b.WriteString(p.Lit)
		}
	}
	return b.String()
}

// Holes returns the names of a's holes, in order.
func (a Arg) Holes() []string {
	var out []string
	for _, p := range a {
		if p.Hole != "" {
			out = append(out, p.Hole)
		}
	}
	return out
}

// withLead returns a with its first piece's literal text replaced by lit,
// dropped when empty (and more pieces follow).
func (a Arg) withLead(lit string) Arg {
	if lit == "" && len(a) > 1 {
		return slices.Clone(a[1:])
	}
	return append(Arg{{Lit: lit}}, a[1:]...)
}

// HoleKind is what the reader may assume of a hole's text, as bits.
type HoleKind uint8

const (
	// HoleNoLetter: no value holds an ASCII letter, so the hole spells no
	// option's letters or name.
	HoleNoLetter HoleKind = 1 << iota
	// HoleChoice: the values are a known list; where the hole would choose
	// options or the subcommand the reading stops (Line.Expand).
	HoleChoice
)

// TokKind is what a token of a Line is.
type TokKind int

const (
	TokOption  TokKind = iota // an option: -x, --long, -exec
	TokValue                  // the separate value of the option before it
	TokOperand                // an operand
	TokSub                    // the subcommand
	TokEnd                    // "--", ending the options
	TokCommand                // a word of the command a CodeCommand option runs, after its program
	TokNames                  // holes that may spell option letters or names (sed -n{x})
)

func (k TokKind) String() string {
	return [...]string{"option", "option value", "operand", "subcommand", "end of options", "command word", "option names"}[k]
}

// Token is one option, value, operand or subcommand of a Line.
type Token struct {
	Word int // the index of the word it comes from (0 is the program)
	Kind TokKind
	// Options: Name is "-x", "--long" (an abbreviation resolved when it is
	// unambiguous) or a whole option word ("-exec"); Written is the name
	// as written ("--in-pl"); Long says it is a long option (or a Go
	// flag's name longer than one letter).
	Name, Written string
	Long          bool
	// Listed: the grammar lists the option for sure where it stands — a
	// letter that takes a value or is known to take none, or a long name
	// written out in full that the grammar lists — so the words after it
	// are read as the program reads them.
	Listed bool
	// Value is the option's value, attached (InWord) or the next word;
	// HasValue says one was given.
	Value            Arg
	HasValue, InWord bool
	// Code is the program's code option this option is (or, abbreviated,
	// may stand for: Full names it), where it stands.
	Code *CodeOption
	Full string
	// CmdEnd, for a CodeCommand option, is the index of the word that ends
	// its command (";", "{} +"), or the number of words.
	CmdEnd int
	// Sub: the token follows the subcommand.
	Sub bool
	// TokNames and a TokSub chosen by holes: Holes are the holes that may
	// spell option letters, names or the subcommand; Upto is how many
	// pieces of the word the option spans (0: Written names it); Later,
	// when not 0, is the index of the word that may be the option's value,
	// and Rest says every word from there may be (tar's old style).
	Holes []string
	Upto  int
	Later int
	Rest  bool
	// Moot: the holes stand where option letters or a name are, but can
	// spell no code option there (no letters in their values, or no code
	// option of that form where they stand); the reading went on as if
	// they were not there, which is not certain.
	Moot bool
}

// Line is a command line read with one program's grammar.
type Line struct {
	Tokens []Token
	// Sub is the subcommand, "?" when a hole chooses it, "" when none;
	// SubAt is its word's index.
	Sub   string
	SubAt int
	// Expand is a hole of HoleChoice where it would choose options or the
	// subcommand: the reading stopped there, and the caller reads the line
	// once per value of the hole instead.
	Expand string
}

// level is the grammar in force: the top level's, or a subcommand's.
type level struct {
	argShort, optShort, noArg string
	argLong, known            []string // long options taking a value; the names resolved against
	abbrev                    bool
	code                      []*CodeOption
	sub                       bool
}

// reader reads one program's words.
type reader struct {
	p       *Program
	args    []Arg
	hole    func(string) HoleKind
	line    *Line
	lv      level
	subDone bool
	ended   bool
	certain bool // the word before cannot have taken the next as its value
}

// ReadLine reads args (args[0] the program, as written) with p's grammar.
// hole says what a hole's text may be (nil for a line without holes).
func (p *Program) ReadLine(args []Arg, hole func(string) HoleKind) *Line {
	prepareLong()
	if hole == nil {
		hole = func(string) HoleKind { return 0 }
	}
	r := &reader{p: p, args: args, hole: hole, line: &Line{}, certain: true, subDone: !p.Grammar.Subcommands}
	r.lv = r.level("", false)
	r.read()
	return r.line
}

// level returns the grammar before the subcommand (after false) or after
// subcommand sub ("?" when a hole chooses it).
func (r *reader) level(sub string, after bool) level {
	g := &r.p.Grammar
	lv := level{known: r.p.long, sub: after}
	if !after {
		lv.argShort, lv.optShort, lv.noArg, lv.argLong = g.ArgShort, g.OptShort, g.NoArgShort, slices.Clone(g.ArgLong)
		lv.abbrev = g.Abbrev && !g.Subcommands
	} else {
		sa := g.SubArgs[sub]
		lv.argShort, lv.argLong, lv.abbrev = sa.Short, slices.Clone(sa.Long), g.Abbrev
		lv.known = append(slices.Clone(r.p.long), sa.Long...)
	}
	for i := range r.p.Code {
		o := &r.p.Code[i]
		if !codeAt(o, g.Subcommands, sub, after) {
			continue
		}
		lv.code = append(lv.code, o)
		if o.Kind == CodeCommand {
			continue
		}
		if o.Optional {
			lv.optShort += o.Short
		} else {
			lv.argShort += o.Short
			lv.argLong = append(lv.argLong, o.Long...)
		}
	}
	return lv
}

// codeAt reports whether code option o applies before the subcommand
// (after false) or after subcommand sub ("?": any).
func codeAt(o *CodeOption, subcommands bool, sub string, after bool) bool {
	switch {
	case !subcommands:
		return true
	case !after:
		return o.Sub == ""
	case o.Sub == "":
		return false
	}
	return o.Sub == "*" || sub == "?" || slices.Contains(strings.Fields(o.Sub), sub)
}

// later returns i+1 when there is such a word, else 0.
func (r *reader) later(i int) int {
	if i+1 < len(r.args) {
		return i + 1
	}
	return 0
}

func (r *reader) add(t Token) {
	t.Sub = r.lv.sub
	r.line.Tokens = append(r.line.Tokens, t)
}

// isOption reports whether a is an option word: it begins with a literal
// dash and is more than the dash.
func isOption(a Arg) bool {
	return len(a) > 0 && a[0].Hole == "" && strings.HasPrefix(a[0].Lit, "-") && (len(a[0].Lit) > 1 || len(a) > 1)
}

func (r *reader) read() {
	i := 1
	if r.p.Grammar.OldStyle && len(r.args) > 1 && !isOption(r.args[1]) {
		i = r.oldStyle() + 1
	}
	for ; i < len(r.args) && r.line.Expand == ""; i++ {
		a := r.args[i]
		switch {
		case r.ended || !isOption(a):
			r.certain = true
			if !r.subDone {
				r.subcommand(i)
				continue
			}
			r.add(Token{Word: i, Kind: TokOperand})
		case len(a) == 1 && a[0].Lit == "--":
			r.add(Token{Word: i, Kind: TokEnd})
			r.ended, r.certain = r.certain, true
		default:
			i = r.option(i)
		}
	}
}

// subcommand reads word i as the subcommand and switches to its grammar.
func (r *reader) subcommand(i int) {
	a := r.args[i]
	r.subDone, r.ended = true, false
	r.line.SubAt = i
	if lit, ok := a.literal(); ok {
		r.line.Sub = lit
		r.add(Token{Word: i, Kind: TokSub})
		r.lv = r.level(lit, true)
		return
	}
	holes := a.Holes()
	for _, h := range holes {
		if r.hole(h)&HoleChoice != 0 {
			r.line.Expand = h
			return
		}
	}
	r.line.Sub = "?" // any subcommand: every subcommand's code options apply
	r.add(Token{Word: i, Kind: TokSub, Holes: holes})
	r.lv = r.level("?", true)
}

// option reads the option word i and returns the index of the last word
// it took.
func (r *reader) option(i int) int {
	a := r.args[i]
	r.certain = len(a) == 1
	if end, ok := r.wholeWord(i); ok {
		return end
	}
	g := &r.p.Grammar
	switch {
	case g.WordsOnly:
		return r.optionWord(i)
	case g.Style == GoFlag:
		return r.goFlag(i)
	case strings.HasPrefix(a[0].Lit, "--"):
		return r.long(i)
	}
	return r.short(i)
}

// wholeWord reads word i when it is one of the code options written as
// whole words (find -exec, zip -TT; -TT=cmd with the value attached).
func (r *reader) wholeWord(i int) (int, bool) {
	a := r.args[i]
	lit := a[0].Lit
	for _, o := range r.lv.code {
		for _, name := range o.Words {
			switch {
			case len(a) == 1 && lit == name:
				return r.value(Token{Word: i, Kind: TokOption, Name: name, Written: name, Code: o}, nil, i), true
			case o.Kind != CodeCommand && strings.HasPrefix(lit, name) && !r.p.Grammar.WordsOnly:
				rest := a.withLead(strings.TrimPrefix(strings.TrimPrefix(lit, name), "="))
				return r.value(Token{Word: i, Kind: TokOption, Name: name, Written: name, Code: o}, rest, i), true
			}
		}
	}
	return 0, false
}

// optionWord reads an option word of a program without option clusters
// (find's -name): the whole word is the option, and takes no value.
func (r *reader) optionWord(i int) int {
	a := r.args[i]
	r.certain = true
	for _, p := range a {
		if p.Hole == "" {
			continue
		}
		switch k := r.hole(p.Hole); {
		case k&HoleNoLetter != 0:
			r.add(Token{Word: i, Kind: TokNames, Holes: []string{p.Hole}, Upto: len(a), Moot: true})
		case k&HoleChoice != 0:
			r.line.Expand = p.Hole
			return i
		default: // -exe{x}: the value may finish a code option's word
			r.add(Token{Word: i, Kind: TokNames, Holes: []string{p.Hole}, Upto: len(a), Later: r.later(i)})
			return i
		}
	}
	text := a.Text()
	r.add(Token{Word: i, Kind: TokOption, Name: text, Written: text})
	return i
}

// long reads "--name", "--name=value" or "--name value".
func (r *reader) long(i int) int {
	a := r.args[i]
	var name strings.Builder
	var rest Arg // the attached value, after '='
	attached := false
	var unknown []string // holes that may spell the option's name
	var moot []string    // holes in the name that spell no code option
	hasLong := r.hasCode(func(o *CodeOption) bool { return len(o.Long) > 0 })
	for k, p := range a {
		if p.Hole == "" {
			before, after, found := strings.Cut(p.Lit, "=")
			name.WriteString(before)
			if found {
				attached = true
				rest = a[k:].withLead(after)
				break
			}
			continue
		}
		switch k := r.hole(p.Hole); {
		case k&HoleNoLetter != 0: // no letters: it spells no code option's name
			moot = append(moot, p.Hole)
		case k&HoleChoice != 0:
			if hasLong {
				r.line.Expand = p.Hole
				return i
			}
			moot = append(moot, p.Hole)
		default:
			unknown = append(unknown, p.Hole)
		}
	}
	written := strings.TrimPrefix(name.String(), "--")
	if len(unknown) > 0 && hasLong {
		t := Token{Word: i, Kind: TokNames, Written: "--" + written, Holes: unknown}
		if !attached {
			t.Later = r.later(i)
		}
		r.add(t)
		return i
	}
	if moot = append(moot, unknown...); len(moot) > 0 {
		r.add(Token{Word: i, Kind: TokNames, Written: "--" + written, Holes: moot, Moot: true})
	}
	resolved, known := ResolveLong(written, r.lv.known, r.lv.abbrev)
	if !known {
		resolved = written
	}
	r.certain = r.certain && (attached || known)
	t := Token{Word: i, Kind: TokOption, Name: "--" + resolved, Written: "--" + written, Long: true}
	t.Listed = len(moot) == 0 && known && resolved == written &&
		(slices.Contains(r.lv.argLong, resolved) || !attached && !r.lv.sub && slices.Contains(r.p.Grammar.Long, resolved))
	for _, o := range r.lv.code {
		for _, l := range o.Long {
			if t.Code == nil && MayStandFor(written, l, r.lv.known, r.lv.abbrev) {
				t.Code, t.Full = o, "--"+l
			}
		}
	}
	switch {
	case attached:
		return r.value(t, rest, i)
	case t.Code != nil && t.Code.Optional:
	case t.Code != nil, known && slices.Contains(r.lv.argLong, resolved):
		return r.value(t, nil, i)
	}
	r.add(t)
	return i
}

// hasCode reports whether a code option where the reader stands is one
// that f accepts.
func (r *reader) hasCode(f func(*CodeOption) bool) bool {
	return slices.ContainsFunc(r.lv.code, f)
}

// short reads a cluster of option letters.
func (r *reader) short(i int) int {
	a := r.args[i]
	hasShort := r.hasCode(func(o *CodeOption) bool { return o.Short != "" })
	for k, p := range a {
		if p.Hole != "" {
			switch h := r.hole(p.Hole); {
			case !hasShort, h&HoleNoLetter != 0:
				r.add(Token{Word: i, Kind: TokNames, Holes: []string{p.Hole}, Upto: k + 1, Moot: true})
				continue
			case h&HoleChoice != 0:
				r.line.Expand = p.Hole
				return i
			}
			// The value adds option letters, a code one among them perhaps.
			t := Token{Word: i, Kind: TokNames, Holes: []string{p.Hole}, Upto: k + 1}
			if k == len(a)-1 {
				t.Later = r.later(i)
			}
			r.add(t)
			r.certain = false
			return i
		}
		lit := p.Lit
		if k == 0 {
			lit = lit[1:]
		}
		for j := 0; j < len(lit); {
			if end, ok := r.wordInCluster(i, k, lit, j); ok {
				return end
			}
			c, size := utf8.DecodeRuneInString(lit[j:])
			rest := a[k:].withLead(lit[j+size:])
			if lit[j+size:] == "" && len(a) == k+1 {
				rest = nil
			}
			t := Token{Word: i, Kind: TokOption, Name: "-" + string(c), Written: "-" + string(c), Code: r.codeLetter(c),
				Listed: hasRune(r.lv.argShort, c) || hasRune(r.lv.noArg, c)}
			switch {
			case t.Code != nil && t.Code.Kind == CodeCommand:
				if rest != nil && r.p.Grammar.ShortEq && rest[0].Hole == "" { // clap: -x=sh runs sh
					rest = rest.withLead(strings.TrimPrefix(rest[0].Lit, "="))
				}
				return r.value(t, rest, i)
			case hasRune(r.lv.argShort, c), t.Code != nil && t.Code.Optional && rest != nil:
				return r.value(t, rest, i)
			case hasRune(r.lv.optShort, c):
				// The value is whatever is attached; the letters after it
				// are still read as options too, which refuses more.
				if rest != nil {
					t.Value, t.HasValue, t.InWord = rest, true, true
				}
			default:
				r.certain = r.certain && hasRune(r.lv.noArg, c)
			}
			r.add(t)
			j += size
		}
	}
	return i
}

// wordInCluster reads a code option written as a whole word inside a
// cluster of letters (zip -qTT CMD) at lit[j:], the k-th piece of word i.
func (r *reader) wordInCluster(i, k int, lit string, j int) (int, bool) {
	if k == 0 && j == 0 {
		return 0, false // the whole word: wholeWord read it
	}
	a := r.args[i]
	for _, o := range r.lv.code {
		for _, name := range o.Words {
			if !strings.HasPrefix(lit[j:], name[1:]) {
				continue
			}
			rest := a[k:].withLead(strings.TrimPrefix(lit[j+len(name)-1:], "="))
			if len(rest) == 1 && rest[0].Hole == "" && rest[0].Lit == "" {
				rest = nil
			}
			return r.value(Token{Word: i, Kind: TokOption, Name: name, Written: name, Code: o}, rest, i), true
		}
	}
	return 0, false
}

// codeLetter returns the code option whose letter c is, where the reader
// stands.
func (r *reader) codeLetter(c rune) *CodeOption {
	for _, o := range r.lv.code {
		if hasRune(o.Short, c) {
			return o
		}
	}
	return nil
}

// hasRune reports whether r is in set.
func hasRune(set string, r rune) bool { return r < utf8.RuneSelf && strings.ContainsRune(set, r) }

// goFlag reads a Go flag: "-name" or "--name", "=value" or not. Whether a
// flag without "=" takes the next word is not known unless the grammar
// lists it, so it is not taken.
func (r *reader) goFlag(i int) int {
	a := r.args[i]
	lit, ok := a.literal()
	if !ok {
		name, _, eq := strings.Cut(a[0].Lit, "=")
		t := Token{Word: i, Kind: TokNames, Written: name, Holes: a.Holes()}
		if !eq {
			t.Later = r.later(i)
		}
		r.add(t)
		r.certain = false
		return i
	}
	body := strings.TrimPrefix(strings.TrimPrefix(lit, "-"), "-")
	name, value, eq := strings.Cut(body, "=")
	written, _, _ := strings.Cut(lit, "=")
	t := Token{Word: i, Kind: TokOption, Name: "-" + name, Long: len(name) > 1, Written: written}
	if eq {
		r.certain = true
		return r.value(t, Arg{{Lit: value}}, i)
	}
	r.certain = slices.Contains(r.lv.argLong, name)
	if r.certain {
		return r.value(t, nil, i)
	}
	r.add(t)
	return i
}

// oldStyle reads args[1] as a cluster of option letters without a dash
// (tar xIf PROG ARCHIVE): each letter that takes a value takes the next
// word not yet taken. It returns the index of the last word taken.
func (r *reader) oldStyle() int {
	a := r.args[1]
	next := 2
	for _, p := range a {
		if p.Hole != "" {
			switch h := r.hole(p.Hole); {
			case h&HoleNoLetter != 0:
				r.add(Token{Word: 1, Kind: TokNames, Holes: []string{p.Hole}, Upto: len(a), Moot: true})
				continue
			case h&HoleChoice != 0:
				r.line.Expand = p.Hole
				return len(r.args)
			}
			// The value is option letters; each may take a later word.
			t := Token{Word: 1, Kind: TokNames, Holes: []string{p.Hole}, Upto: len(a), Rest: true}
			if next < len(r.args) {
				t.Later = next
			}
			r.add(t)
			return next - 1
		}
		for _, c := range p.Lit {
			t := Token{Word: 1, Kind: TokOption, Name: "-" + string(c), Written: "-" + string(c), Code: r.codeLetter(c)}
			if t.Code != nil && t.Code.Kind == CodeCommand {
				t.Code = nil // a command's words cannot follow in a cluster without a dash
			}
			if (t.Code != nil || hasRune(r.lv.argShort, c)) && next < len(r.args) {
				t.Value, t.HasValue = r.args[next], true
				r.add(t)
				r.add(Token{Word: next, Kind: TokValue, Name: t.Name})
				next++
				continue
			}
			r.add(t)
		}
	}
	return next - 1
}

// value gives option t its value: attached (rest, when not nil) or the
// next word. A CodeCommand option's separate value is the program of a
// command whose arguments follow, up to its end. It returns the index of
// the last word taken.
func (r *reader) value(t Token, rest Arg, i int) int {
	if t.Code != nil && t.Code.Kind == CodeCommand {
		t.CmdEnd = r.commandEnd(t.Code, i+1)
		if rest == nil && i+1 < len(r.args) {
			t.CmdEnd = r.commandEnd(t.Code, i+2)
		}
	}
	if rest != nil {
		t.Value, t.HasValue, t.InWord = rest, true, true
		r.add(t)
		return i
	}
	if i+1 >= len(r.args) {
		r.add(t)
		return i
	}
	t.Value, t.HasValue = r.args[i+1], true
	r.add(t)
	r.add(Token{Word: i + 1, Kind: TokValue, Name: t.Name})
	if t.Code == nil || t.Code.Kind != CodeCommand {
		return i + 1
	}
	for j := i + 2; j < t.CmdEnd; j++ {
		r.add(Token{Word: j, Kind: TokCommand})
	}
	return min(t.CmdEnd, len(r.args)-1)
}

// commandEnd returns the index of the word that ends the command whose
// arguments begin at from, or len(args): a lone ";", or a lone "+" right
// after a lone "{}" where o.PlusEnds (find -exec … {} +); any other "+" is
// an argument of the command.
func (r *reader) commandEnd(o *CodeOption, from int) int {
	lit := func(k int) string {
		if s, ok := r.args[k].literal(); ok && len(r.args[k]) == 1 {
			return s
		}
		return "\x00"
	}
	for end := from; end < len(r.args); end++ {
		switch w := lit(end); {
		case w == ";":
			return end
		case w == "+" && o.PlusEnds && end > from && lit(end-1) == "{}":
			return end
		}
	}
	return len(r.args)
}
