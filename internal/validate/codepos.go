package validate

import (
	"slices"
	"strings"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// The code-position rule (DESIGN.md §5.1, README "A slot may not choose
// code"): a slot that stands where the template's program reads code — a
// program or command line it runs, configuration that runs programs, a
// script — lets the model choose what runs, so Spec refuses it (613) unless
// the values it can take are known to be safe. The places are listed per
// program in codeTable:
//
//   - the value of an option that names a program or a command, attached
//     (--opt={x}, -X{x}) or the next word (--opt {x}, -X {x}), with long
//     options abbreviated as GNU getopt and git's parse-options allow
//     (--compress-prog={x});
//   - the words after find's -exec, -execdir, -ok and -okdir and fd's
//     -x/-X: a slot in the command's first word is code, and the rest are
//     that command's own arguments, checked by its own row; a literal
//     program there obeys the deny list and the relative-path rule like
//     the template's binary (find . -exec sh -c {x} +);
//   - operands that are a command (codeOperands): git bisect run CMD…, git
//     submodule foreach CMD…, ssh HOST CMD…; every slot of the command is
//     code, its arguments too (a shell may read them), and a slot where a
//     leading literal (run, foreach) stands might spell it;
//   - sed's script: the value of -e/--expression, or the first operand when
//     no -e or -f is given; and -f/--file, which names a file to read the
//     script from;
//   - git's subcommand, and a slot among a cluster of option letters or in
//     a long option's name, when the program has options of the kind above.
//
// A slot there passes when it has an enum and, for a sed script, every
// script the enum's values make passes SedScript (for options naming a
// program the enum is the author's allowlist); a sed script slot passes too
// when its values cannot hold a letter (integer or number, or a pattern
// PatternAdmitsLetter says admits none) and the script text around it
// holds none of e, r, R, w, W — then no value can spell a command that runs
// a program or touches a file. A slot naming a script file (sed -f) is
// refused whatever its enum says: the file is the workspace's, which the
// repository writes. A template's own literal sed script must pass
// SedScript too.
//
// The template is read every way a call can shape the argv (codecheck.go):
// once per value of an enum slot in an option's name or git's subcommand,
// and once per set of optional slots without a default left unset, whose
// words are then dropped so that the next word moves into their place
// (sed -l {n} {s} {f} without n makes {f} the script). A first argument of
// tar without a dash is read as option letters (tar xIf PROG …).

// codeSite is a slot found in a code position.
type codeSite struct {
	slot string
	prog string // the program, as BinaryName gives it
	opt  string // the option as written ("--compress-prog", "-I", "-exec")
	what string // or the operands that are a command (codeOperands.What)
	full string // the option's full name when opt abbreviates it
	kind programs.CodeKind
	why  string
	// names: the slot stands among option letters or in an option's name
	// (sed -n{x}); sub: it is git's subcommand; cmd: it is the command a
	// codeCommand option runs; cmdArg: it is in that command's arguments,
	// which a shell reads (git submodule foreach, ssh).
	names, sub, cmd, cmdArg bool
	// afterDashes: the slot follows the word's leading dashes ("-{x}"),
	// which slotNamesOption refuses already.
	afterDashes bool
}

// afterDashes reports whether slot follows w's leading dashes, the place
// slotNamesOption judges.
func afterDashes(w Word, slot string) bool {
	return len(w) > 1 && w[0].Slot == "" && w[1].Slot == slot && strings.Trim(w[0].Lit, "-") == ""
}

// sedSite is one script of a template (a sed script): a word, or the rest
// of a word after -e.
type sedSite struct {
	prog   string
	script *programs.Script // the program's script language
	via    string           // "-e", "--expression" …, or "" for the operand
	word   Word
}

// codeScan is what scanning a template finds.
type codeScan struct {
	sites []codeSite
	sed   []sedSite
	// expand is an enum slot in an option's name or git's subcommand: the
	// template is read once per enum value instead.
	expand string
	runs   []codeRun // the literal programs of find -exec and the like
}

// codeRun is a program the template's program runs (find . -exec grep …).
type codeRun struct {
	prog, opt string // find, -exec
	program   string // grep
}

// slotInfo is what the scan needs to know about a slot.
type slotInfo struct {
	enum       bool
	letterFree bool // no value can hold an ASCII letter
}

func slotInfoOf(s *tool.Spec) func(string) slotInfo {
	return func(name string) slotInfo {
		a, ok := s.Arg(name)
		if !ok {
			return slotInfo{}
		}
		return slotInfo{
			enum:       len(a.Enum) > 0,
			letterFree: a.Type == tool.Integer || a.Type == tool.Number || a.Pattern != "" && !PatternAdmitsLetter(a.Pattern),
		}
	}
}

// scanner reads one program's words with the one reader of a command
// line (programs.Program.ReadLine) and finds the code positions in what
// it read.
type scanner struct {
	info func(string) slotInfo
	out  *codeScan
}

// scanTemplate finds t's code positions.
func scanTemplate(t *Template, info func(string) slotInfo) *codeScan {
	out := &codeScan{}
	sc := scanner{info: info, out: out}
	sc.program(t.Binary(), t.Words, 0)
	return out
}

// isOptionWord reports whether w begins with a literal dash and is more
// than the dash.
func isOptionWord(w Word) bool {
	return w[0].Slot == "" && strings.HasPrefix(w[0].Lit, "-") && (len(w[0].Lit) > 1 || len(w) > 1)
}

// slotsOf lists the slots of parts.
func slotsOf(parts []Part) []string {
	var out []string
	for _, p := range parts {
		if p.Slot != "" {
			out = append(out, p.Slot)
		}
	}
	return out
}

// codeEntry returns the program binary is when it has a code position (a
// code option, operands that are a command, a script), or nil.
func codeEntry(binary string) *programs.Program {
	p := programs.Lookup(binary)
	if p == nil || len(p.Code) == 0 && len(p.Commands) == 0 && p.Script == nil {
		return nil
	}
	return p
}

// subWhy says why p's subcommand may be code.
func subWhy(p *programs.Program) string {
	if p.SubWhy != "" {
		return p.SubWhy
	}
	return "a subcommand may run programs"
}

// argsOf returns words as the reader's Args, a slot a hole.
func argsOf(words []Word) []programs.Arg {
	out := make([]programs.Arg, len(words))
	for i, w := range words {
		for _, p := range w {
			out[i] = append(out[i], programs.Piece{Lit: p.Lit, Hole: p.Slot})
		}
	}
	return out
}

// wordOf returns a as a Word.
func wordOf(a programs.Arg) Word {
	var w Word
	for _, p := range a {
		w = append(w, Part{Lit: p.Lit, Slot: p.Hole})
	}
	return w
}

// hole says what the reader may assume of a slot's value.
func (sc *scanner) hole(name string) programs.HoleKind {
	var k programs.HoleKind
	in := sc.info(name)
	if in.letterFree {
		k |= programs.HoleNoLetter
	}
	if in.enum {
		k |= programs.HoleChoice
	}
	return k
}

// program reads words (words[0] the program, binary as written).
func (sc *scanner) program(binary string, words []Word, depth int) {
	p := codeEntry(binary)
	if p == nil || depth > 4 || sc.out.expand != "" {
		return
	}
	name := BinaryName(binary)
	line := p.ReadLine(argsOf(words), sc.hole)
	if line.Expand != "" {
		sc.out.expand = line.Expand
		return
	}
	scriptGiven := false
	var operands []int
	for _, t := range line.Tokens {
		switch t.Kind {
		case programs.TokSub:
			for _, s := range t.Holes {
				sc.add(codeSite{slot: s, prog: name, sub: true})
			}
		case programs.TokNames:
			if !t.Moot {
				sc.names(name, t, words)
			}
		case programs.TokOperand:
			operands = append(operands, t.Word)
		case programs.TokOption:
			if t.Code == nil {
				continue
			}
			if k := t.Code.Kind; k == programs.CodeScript || k == programs.CodeScriptFile {
				scriptGiven = true
			}
			if t.HasValue {
				sc.value(p, name, t, words, depth)
			}
		}
		if sc.out.expand != "" {
			return
		}
	}
	if p.Script != nil && !scriptGiven && len(operands) > 0 {
		sc.out.sed = append(sc.out.sed, sedSite{prog: name, script: p.Script, word: words[operands[0]]})
	}
	for _, c := range p.Commands {
		sc.operandCommand(p, name, line.Sub, c, words, operands)
	}
}

// names records the slots that may spell option letters or names, and
// those of the words that may then be the option's value.
func (sc *scanner) names(prog string, t programs.Token, words []Word) {
	opt := t.Written
	if t.Upto > 0 {
		opt = (&Template{Words: []Word{words[t.Word][:t.Upto]}}).String()
	}
	for _, s := range t.Holes {
		sc.add(codeSite{slot: s, prog: prog, opt: opt, names: true, afterDashes: afterDashes(words[t.Word], s)})
	}
	if t.Later == 0 {
		return
	}
	later := words[t.Later : t.Later+1]
	if t.Rest {
		later = words[t.Later:]
	}
	for _, w := range later {
		for _, s := range slotsOf(w) {
			sc.add(codeSite{slot: s, prog: prog, opt: opt + "…", names: true})
		}
	}
}

// value records the value of the code option t.
func (sc *scanner) value(p *programs.Program, prog string, t programs.Token, words []Word, depth int) {
	o := t.Code
	full := t.Full
	if full == t.Written {
		full = ""
	}
	switch o.Kind {
	case programs.CodeCommand:
		sc.command(prog, t, full, words, depth)
	case programs.CodeScript:
		sc.out.sed = append(sc.out.sed, sedSite{prog: prog, script: p.Script, via: t.Written, word: wordOf(t.Value)})
	default:
		opt := t.Written
		if w := words[t.Word]; !isOptionWord(w) { // tar xIf: a letter of a cluster without a dash
			opt += " (in " + (&Template{Words: []Word{w}}).String() + ")"
		}
		for _, s := range t.Value.Holes() {
			sc.add(codeSite{slot: s, prog: prog, opt: opt, full: full, kind: o.Kind, why: o.Why})
		}
	}
}

// command records the command a CodeCommand option runs: its program (the
// option's value) and its arguments, the words up to the command's end. A
// command attached to its option is one word to a clap program (fd
// -xCMD), whose own options follow; other readers may take the words
// after it as the command's arguments, so they are read both ways.
func (sc *scanner) command(prog string, t programs.Token, full string, words []Word, depth int) {
	o := t.Code
	program := wordOf(t.Value)
	from := t.Word + 2
	if t.InWord {
		from = t.Word + 1
	}
	if len(program) == 1 && program[0].Slot == "" && program[0].Lit != "" {
		sc.out.runs = append(sc.out.runs, codeRun{prog: prog, opt: t.Written, program: program[0].Lit})
		args := append([]Word{program}, words[min(from, t.CmdEnd):t.CmdEnd]...)
		sc.program(program[0].Lit, args, depth+1)
		return
	}
	for _, s := range slotsOf(program) {
		sc.add(codeSite{slot: s, prog: prog, opt: t.Written, full: full, kind: o.Kind, why: o.Why, cmd: true})
	}
}

// operandCommand finds the slots of the command that c says operands hold
// (the indexes in words of the program's operands, in order); sub is the
// subcommand read. A slot in one of c.Lead's places might spell it, so it
// counts as leading there.
func (sc *scanner) operandCommand(p *programs.Program, prog, sub string, c programs.CodeOperands, words []Word, operands []int) {
	if p.Grammar.Subcommands && c.Sub != sub && sub != "?" {
		return
	}
	skip := c.Skip
	if len(c.Lead) > 0 {
		skip = len(c.Lead)
		for k, lead := range c.Lead {
			if k >= len(operands) {
				return
			}
			w := words[operands[k]]
			if len(w) == 1 && w[0].Slot == "" && w[0].Lit != lead {
				return
			}
		}
	}
	if skip >= len(operands) {
		return
	}
	first := words[operands[skip]]
	if len(first) == 1 && first[0].Slot == "" {
		opt := strings.TrimSpace(c.Sub + " " + strings.Join(c.Lead, " "))
		sc.out.runs = append(sc.out.runs, codeRun{prog: prog, opt: opt, program: first[0].Lit})
	}
	for k, i := range operands[skip:] {
		for _, s := range slotsOf(words[i]) {
			sc.add(codeSite{slot: s, prog: prog, what: c.What, kind: programs.CodeCommand, why: c.Why, cmd: true, cmdArg: k > 0})
		}
	}
}

func (sc *scanner) add(s codeSite) { sc.out.sites = append(sc.out.sites, s) }

// Runs returns the programs t's program runs as t writes them out (find's
// -exec grep, git bisect run's program), in order, each once: a confined
// command may execute them too (kernel.RunAlso), once Spec has checked each
// against the deny list and the relative-path rule.
func (t *Template) Runs() []string {
	var out []string
	for _, r := range scanTemplate(t, func(string) slotInfo { return slotInfo{} }).runs {
		if !slices.Contains(out, r.program) {
			out = append(out, r.program)
		}
	}
	return out
}
