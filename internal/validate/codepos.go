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
	kind codeKind
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

// scanner reads one program's words.
type scanner struct {
	info func(string) slotInfo
	out  *codeScan
}

// scanTemplate finds t's code positions.
func scanTemplate(t *Template, info func(string) slotInfo) *codeScan {
	out := &codeScan{}
	sc := scanner{info: info, out: out}
	sc.program(t.Binary(), t.Words[1:], 0)
	return out
}

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

// program reads the arguments of binary.
func (sc *scanner) program(binary string, words []Word, depth int) {
	p := codeEntry(binary)
	if p == nil || depth > 4 || sc.out.expand != "" {
		return
	}
	st := progState{p: p, name: BinaryName(binary), sub: ""}
	if !p.Subcommands {
		st.subDone = true
	}
	var operands []int
	endOpts := false
	certain := true           // the word before cannot have taken the next as its value
	var consumed map[int]bool // words an old-style cluster takes as values
	start := 0
	if p.OldStyle && len(words) > 0 && !isOptionWord(words[0]) {
		consumed = sc.oldStyle(&st, words)
		start = 1
	}
	for i := start; i < len(words) && sc.out.expand == ""; i++ {
		w := words[i]
		if consumed[i] {
			continue
		}
		if endOpts || !isOptionWord(w) {
			certain = true
			if !st.subDone {
				st.subDone, endOpts = true, false
				if w[0].Slot == "" && len(w) == 1 {
					st.sub = w[0].Lit
					continue
				}
				st.sub = "?" // any subcommand: every subcommand's rows apply
				for _, s := range slotsOf(w) {
					if sc.info(s).enum {
						sc.out.expand = s
						return
					}
					sc.add(codeSite{slot: s, prog: st.name, sub: true})
				}
				continue
			}
			operands = append(operands, i)
			continue
		}
		if len(w) == 1 && w[0].Lit == "--" {
			// "--" ends the options unless the option before may take it
			// as its value (a letter the grammar does not list), as the
			// ExecTool reads it; git -- log: the subcommand still follows.
			endOpts = certain && st.subDone
			certain = true
			continue
		}
		certain = st.certain(w)
		i = sc.option(&st, words, i, depth)
	}
	if p.Script != nil && !st.scriptGiven && len(operands) > 0 {
		sc.out.sed = append(sc.out.sed, sedSite{prog: st.name, script: p.Script, word: words[operands[0]]})
	}
	for _, c := range p.Commands {
		sc.operandCommand(&st, c, words, operands)
	}
}

// operandCommand finds the slots of the command that c says operands hold
// (the indexes in words of the program's operands, in order). A slot in
// one of c.Lead's places might spell it, so it counts as leading there.
func (sc *scanner) operandCommand(st *progState, c codeOperands, words []Word, operands []int) {
	if st.p.Subcommands && c.Sub != st.sub && st.sub != "?" {
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
		sc.out.runs = append(sc.out.runs, codeRun{prog: st.name, opt: opt, program: first[0].Lit})
	}
	for k, i := range operands[skip:] {
		for _, s := range slotsOf(words[i]) {
			sc.add(codeSite{slot: s, prog: st.name, what: c.What, kind: codeCommand, why: c.Why, cmd: true, cmdArg: k > 0})
		}
	}
}

// oldStyle reads words[0] as a cluster of option letters without a dash
// (tar xIf PROG ARCHIVE): each letter that takes a value takes the next
// word not yet taken. It returns the words taken.
func (sc *scanner) oldStyle(st *progState, words []Word) map[int]bool {
	consumed := map[int]bool{}
	next := 1
	rows := st.rows()
	cluster := (&Template{Words: []Word{words[0]}}).String()
	for _, part := range words[0] {
		if part.Slot != "" {
			switch info := sc.info(part.Slot); {
			case info.letterFree:
				continue
			case info.enum:
				sc.out.expand = part.Slot
				return consumed
			}
			// The value is option letters; each may take a later word.
			sc.add(codeSite{slot: part.Slot, prog: st.name, opt: cluster, names: true})
			for _, w := range words[next:] {
				for _, s := range slotsOf(w) {
					sc.add(codeSite{slot: s, prog: st.name, opt: cluster + "…", names: true})
				}
			}
			return consumed
		}
		for j := 0; j < len(part.Lit); j++ {
			c := part.Lit[j]
			code := false
			for _, o := range rows {
				if strings.IndexByte(o.Short, c) >= 0 && next < len(words) {
					for _, s := range slotsOf(words[next]) {
						sc.add(codeSite{slot: s, prog: st.name, opt: "-" + string(c) + " (in " + cluster + ")", kind: o.Kind, why: o.Why})
					}
					code = true
				}
			}
			if (code || st.takesShort(c)) && next < len(words) {
				consumed[next] = true
				next++
			}
		}
	}
	return consumed
}

// progState is the state of reading one program's words.
type progState struct {
	p           *codeProgram
	name        string
	sub         string // git's subcommand; "" before it, "?" when a slot chooses it
	subDone     bool
	scriptGiven bool // sed -e or -f seen
}

// rows returns the code options that apply at the current level.
func (st *progState) rows() []*codeOption {
	var out []*codeOption
	for i := range st.p.Code {
		o := &st.p.Code[i]
		if !st.p.Subcommands {
			out = append(out, o)
			continue
		}
		switch {
		case !st.subDone || st.sub == "":
			if o.Sub == "" {
				out = append(out, o)
			}
		case o.Sub == "":
		case o.Sub == "*" || st.sub == "?" || slices.Contains(strings.Fields(o.Sub), st.sub):
			out = append(out, o)
		}
	}
	return out
}

// option reads the option word words[i] and returns the index of the last
// word it consumed.
func (sc *scanner) option(st *progState, words []Word, i, depth int) int {
	w := words[i]
	rows := st.rows()
	// Whole option words (find -exec, zip -TT).
	for _, o := range rows {
		for _, name := range o.Words {
			lit := w[0].Lit
			switch {
			case len(w) == 1 && lit == name:
				return sc.value(st, o, name, name, nil, words, i, depth)
			case o.Kind != codeCommand && strings.HasPrefix(lit, name) && !st.p.WordsOnly:
				rest := append(Word{{Lit: strings.TrimPrefix(strings.TrimPrefix(lit, name), "=")}}, w[1:]...)
				return sc.value(st, o, name, name, rest, words, i, depth)
			}
		}
	}
	if st.p.WordsOnly {
		for _, part := range w {
			switch info := sc.info(part.Slot); {
			case part.Slot == "", info.letterFree:
			case info.enum:
				sc.out.expand = part.Slot
				return i
			default: // -exe{x}: the value may finish an option word
				opt := (&Template{Words: []Word{w}}).String()
				sc.add(codeSite{slot: part.Slot, prog: st.name, opt: opt, names: true, afterDashes: afterDashes(w, part.Slot)})
				if i+1 < len(words) { // … whose value or command is the next word
					for _, s := range slotsOf(words[i+1]) {
						sc.add(codeSite{slot: s, prog: st.name, opt: opt + "…", names: true})
					}
				}
				return i
			}
		}
		return i
	}
	if strings.HasPrefix(w[0].Lit, "--") {
		return sc.long(st, rows, words, i, depth)
	}
	return sc.short(st, rows, words, i, depth)
}

// long reads a long option word.
func (sc *scanner) long(st *progState, rows []*codeOption, words []Word, i, depth int) int {
	w := words[i]
	var name strings.Builder
	var rest Word // the attached value, after '='
	attached := false
	var unknown []string // slots that may spell the option's name
	for k, part := range w {
		if part.Slot == "" {
			before, after, found := strings.Cut(part.Lit, "=")
			name.WriteString(before)
			if found {
				attached = true
				rest = append(Word{{Lit: after}}, w[k+1:]...)
				break
			}
			continue
		}
		info := sc.info(part.Slot)
		switch {
		case info.letterFree: // no letters: it spells no code option's name
		case info.enum:
			if hasLong(rows) {
				sc.out.expand = part.Slot
				return i
			}
		default:
			unknown = append(unknown, part.Slot)
		}
	}
	opt := strings.TrimPrefix(name.String(), "--")
	if len(unknown) > 0 && hasLong(rows) {
		for _, s := range unknown {
			sc.add(codeSite{slot: s, prog: st.name, opt: "--" + opt, names: true, afterDashes: afterDashes(w, s)})
		}
		// The name is unknown: its value may be code too.
		if !attached && i+1 < len(words) {
			for _, s := range slotsOf(words[i+1]) {
				sc.add(codeSite{slot: s, prog: st.name, opt: "--" + opt + "…", names: true})
			}
		}
		return i
	}
	exactOnly := !st.p.Abbrev || st.p.Subcommands && !st.subDone
	for _, o := range rows {
		for _, l := range o.Long {
			if programs.MayStandFor(opt, l, st.p.known, !exactOnly) {
				if attached {
					return sc.value(st, o, "--"+opt, "--"+l, rest, words, i, depth)
				}
				if o.Optional {
					return i
				}
				return sc.value(st, o, "--"+opt, "--"+l, nil, words, i, depth)
			}
		}
	}
	if !attached && st.takesLong(opt, exactOnly) {
		return i + 1
	}
	return i
}

func hasLong(rows []*codeOption) bool {
	for _, o := range rows {
		if len(o.Long) > 0 {
			return true
		}
	}
	return false
}

func hasShort(rows []*codeOption) bool {
	for _, o := range rows {
		if o.Short != "" {
			return true
		}
	}
	return false
}

// takesLong reports whether the long option opt, written alone, takes the
// next word as its value: it resolves (programs.ResolveLong, the one
// abbreviation rule) to an option of ArgLong.
func (st *progState) takesLong(opt string, exactOnly bool) bool {
	if st.p.Subcommands && !st.subDone {
		return st.p.top.TakesValue("--" + opt)
	}
	name, ok := programs.ResolveLong(opt, st.p.known, !exactOnly)
	return ok && slices.Contains(st.p.ArgLong, name)
}

// short reads a cluster of option letters.
func (sc *scanner) short(st *progState, rows []*codeOption, words []Word, i, depth int) int {
	w := words[i]
	for k, part := range w {
		if part.Slot != "" {
			info := sc.info(part.Slot)
			switch {
			case !hasShort(rows), info.letterFree:
				continue
			case info.enum:
				sc.out.expand = part.Slot
				return i
			}
			// The value adds option letters, a code one among them perhaps.
			opt := (&Template{Words: []Word{w[:k+1]}}).String()
			sc.add(codeSite{slot: part.Slot, prog: st.name, opt: opt, names: true, afterDashes: afterDashes(w, part.Slot)})
			if k == len(w)-1 && i+1 < len(words) {
				for _, s := range slotsOf(words[i+1]) {
					sc.add(codeSite{slot: s, prog: st.name, opt: opt + "…", names: true})
				}
			}
			return i
		}
		lit := part.Lit
		if k == 0 {
			lit = lit[1:]
		}
		for j := 0; j < len(lit); j++ {
			c := lit[j]
			for _, o := range rows {
				for _, name := range o.Words { // zip -qTT CMD: a two-letter option inside a cluster
					if k == 0 && j == 0 {
						break // the whole word: option() read it
					}
					if strings.HasPrefix(lit[j:], name[1:]) {
						rest := append(Word{{Lit: strings.TrimPrefix(lit[j+len(name)-1:], "=")}}, w[k+1:]...)
						if rest[0].Lit == "" {
							rest = rest[1:]
						}
						if len(rest) == 0 {
							rest = nil
						}
						return sc.value(st, o, name, "", rest, words, i, depth)
					}
				}
			}
			rest := append(Word{{Lit: lit[j+1:]}}, w[k+1:]...)
			if rest[0].Lit == "" {
				rest = rest[1:]
			}
			for _, o := range rows {
				if strings.IndexByte(o.Short, c) >= 0 {
					if len(rest) > 0 {
						return sc.value(st, o, "-"+string(c), "", rest, words, i, depth)
					}
					if o.Optional {
						return i
					}
					return sc.value(st, o, "-"+string(c), "", nil, words, i, depth)
				}
			}
			if st.takesShort(c) {
				if len(rest) == 0 {
					return i + 1
				}
				return i
			}
		}
	}
	return i
}

// certain reports whether the option word w cannot take the next word as
// its value unless its grammar says so: no slot in it, a long option the
// program knows or written with "=", letters the grammar lists up to one
// that takes a value. Where it is not certain, a "--" after it may be its
// value, not the end of the options.
func (st *progState) certain(w Word) bool {
	if len(w) != 1 {
		return false
	}
	lit := w[0].Lit
	if st.p.WordsOnly {
		return true
	}
	if long, ok := strings.CutPrefix(lit, "--"); ok {
		name, _, eq := strings.Cut(long, "=")
		_, known := programs.ResolveLong(name, st.p.known, st.p.Abbrev && (st.subDone || !st.p.Subcommands))
		return eq || known
	}
	for j := 1; j < len(lit); j++ {
		switch c := lit[j]; {
		case st.takesShort(c), st.codeLetter(c):
			return true
		case strings.IndexByte(st.noArgShort(), c) < 0:
			return false
		}
	}
	return true
}

// codeLetter reports whether c is the letter of a code option that takes
// a value where st stands.
func (st *progState) codeLetter(c byte) bool {
	for _, o := range st.rows() {
		if strings.IndexByte(o.Short, c) >= 0 {
			return true
		}
	}
	return false
}

// noArgShort returns the option letters known to take no value where st
// stands: the top level's (none are listed after a subcommand).
func (st *progState) noArgShort() string {
	if st.p.Subcommands && st.subDone {
		return ""
	}
	return st.p.top.NoArgShort
}

// takesShort reports whether option letter c takes a value. After a
// subcommand only the letters its SubArgs list do, as the ExecTool reads
// them: a letter taken for a flag leaves the letters after it and the next
// word to be read as options, which refuses more (git grep -nO{x} runs the
// pager {x}).
func (st *progState) takesShort(c byte) bool {
	switch {
	case !st.p.Subcommands:
		return strings.IndexByte(st.p.ArgShort, c) >= 0
	case !st.subDone:
		return st.p.top.TakesValue("-" + string(c))
	}
	return strings.IndexByte(st.p.top.SubArgs[st.sub].Short, c) >= 0
}

// value records the value of the code option o: attached (rest, when not
// nil) or the next word; it returns the index of the last word consumed.
func (sc *scanner) value(st *progState, o *codeOption, opt, full string, rest Word, words []Word, i, depth int) int {
	if full == opt {
		full = ""
	}
	if o.Kind == codeScript || o.Kind == codeScriptFile {
		st.scriptGiven = true
	}
	last := i
	attached := rest != nil
	if rest == nil {
		if i+1 >= len(words) {
			return i
		}
		rest, last = words[i+1], i+1
	}
	if o.Kind == codeCommand {
		return sc.command(st, o, opt, full, rest, attached, words, last, depth)
	}
	if o.Kind == codeScript {
		sc.out.sed = append(sc.out.sed, sedSite{prog: st.name, script: st.p.Script, via: opt, word: rest})
		return last
	}
	for _, s := range slotsOf(rest) {
		sc.add(codeSite{slot: s, prog: st.name, opt: opt, full: full, kind: o.Kind, why: o.Why})
	}
	return last
}

// command records the command a codeCommand option runs: its first word
// (rest: attached, or words[last]) is the program, the words after it up
// to the end commandEnd finds its arguments; it returns the index of the
// last word consumed. An attached command is one word to a clap program
// (fd -xCMD), whose own options follow; other readers may take the words
// after it as the command's arguments, so they are read both ways.
func (sc *scanner) command(st *progState, o *codeOption, opt, full string, rest Word, attached bool, words []Word, last, depth int) int {
	if attached && st.p.top.ShortEq && len(opt) == 2 && rest[0].Slot == "" {
		rest = append(Word{{Lit: strings.TrimPrefix(rest[0].Lit, "=")}}, rest[1:]...) // clap: -x=sh runs sh
		if rest[0].Lit == "" && len(rest) > 1 {
			rest = rest[1:]
		}
	}
	end := commandEnd(o, words, last+1)
	if len(rest) == 1 && rest[0].Slot == "" && rest[0].Lit != "" {
		sc.out.runs = append(sc.out.runs, codeRun{prog: st.name, opt: opt, program: rest[0].Lit})
		sc.program(rest[0].Lit, words[last+1:end], depth+1)
	} else {
		for _, s := range slotsOf(rest) {
			sc.add(codeSite{slot: s, prog: st.name, opt: opt, full: full, kind: o.Kind, why: o.Why, cmd: true})
		}
	}
	if attached {
		return last
	}
	return end - 1
}

// commandEnd returns the index of the word that ends the command whose
// arguments begin at words[from], or len(words): a lone ";", or a lone
// "+" right after a lone "{}" where o.PlusEnds (find -exec … {} +); any
// other "+" is an argument of the command.
func commandEnd(o *codeOption, words []Word, from int) int {
	lit := func(k int) string {
		if len(words[k]) != 1 || words[k][0].Slot != "" {
			return "\x00"
		}
		return words[k][0].Lit
	}
	for end := from; end < len(words); end++ {
		switch w := lit(end); {
		case w == ";":
			return end
		case w == "+" && o.PlusEnds && end > from && lit(end-1) == "{}":
			return end
		}
	}
	return len(words)
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
