package validate

import (
	"fmt"
	"slices"
	"strings"
	"sync"

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
// repository writes. An enum slot in an option's name is read once per
// value. A template's own literal sed script must pass SedScript too.

// codeKind is what a code position holds.
type codeKind int

const (
	codeRuns       codeKind = iota // names a program or a command line the program runs
	codeScript                     // a sed script
	codeScriptFile                 // names a file the program reads code from
	codeCommand                    // the words of a command the program runs (find -exec … +)
)

// codeOption is one row of codeTable: spellings of an option whose value is
// code.
type codeOption struct {
	Short string   // option letters ("I" for tar -I)
	Long  []string // long options, without "--"
	// Words are whole single-dash option words ("-exec" of find; "-TT" of
	// zip, whose value may also be attached: -TT=cmd).
	Words []string
	// Optional: the value can only be attached (git grep -O<pager>,
	// git --exec-path=<dir>); written alone the option takes no value.
	Optional bool
	// Sub, for git, is where the option applies: "" before the subcommand,
	// "*" after any subcommand, or a space-separated list of subcommands.
	Sub  string
	Kind codeKind
	Why  string // what the value does, for the message ("which names …")
}

// codeProgram is codeTable's entry for a program or a family of them.
type codeProgram struct {
	// Names are matched like deny-list entries ("sed" covers "sed4.9",
	// "/usr/bin/sed" and "SED"; "gsed" is listed).
	Names []string
	// Abbrev: long options may be abbreviated to a prefix (GNU getopt_long,
	// git's parse-options after the subcommand). Any prefix of a code
	// option counts, unless it is exactly one of Long or ArgLong.
	Abbrev bool
	// ArgShort are option letters that take a value (the rest of the word,
	// or the next word); ArgLong the long options that do (the next word
	// when not attached). Letters not listed are read as flags, so a code
	// letter after them in the same word is found.
	ArgShort string
	ArgLong  []string
	Long     []string // other long options, where an exact name beats an abbreviation
	// WordsOnly: the program has no option clusters (find's -name, -exec).
	WordsOnly bool
	// OldStyle: a first argument without a dash is a cluster of option
	// letters whose values are the next words (tar xIf PROG ARCHIVE).
	OldStyle bool
	Sed      bool // the first operand is the script unless -e/-f is given
	Git      bool // top-level options, a subcommand, then the subcommand's options
	Code     []codeOption

	match DenyList // Names, as a matcher
}

const (
	whyGitConfig = "sets configuration for the run, and git settings can run programs (core.fsmonitor, diff.external, alias.x=!cmd)"
	whySedScript = "a sed script is code: GNU sed's e command and the e flag of s run shell commands, and r, R, w, W and the w flag of s read and write files"
)

// codeTable lists, per program, the options and words whose value is code.
// Extend it here; TestCodePositions attacks every row in its spellings.
var codeTable = []*codeProgram{
	{
		Names: []string{"git"}, Git: true, Abbrev: true,
		ArgShort: "CceABnmFSGLlUbosXjpI", // after the subcommand: values of -e, -n, -m … are not letters
		Code: []codeOption{
			{Short: "c", Long: []string{"config-env"}, Kind: codeRuns, Why: whyGitConfig},
			{Long: []string{"exec-path"}, Optional: true, Kind: codeRuns, Why: "chooses the directory git runs its own programs from"},
			{Sub: "*", Long: []string{"upload-pack", "receive-pack", "exec"}, Kind: codeRuns,
				Why: "names a program git runs (for the other side of a transfer, locally for local and ssh remotes; rebase --exec: a shell command)"},
			{Sub: "clone ls-remote fetch-pack", Short: "u", Kind: codeRuns, Why: "is --upload-pack: it names the program git runs for the other side of the transfer"},
			{Sub: "clone", Short: "c", Long: []string{"config"}, Kind: codeRuns, Why: "sets configuration in the new repository, and git settings can run programs"},
			{Sub: "grep", Short: "O", Long: []string{"open-files-in-pager"}, Optional: true, Kind: codeRuns, Why: "names the pager git runs on the matching files"},
			{Sub: "rebase", Short: "x", Kind: codeRuns, Why: "is --exec: a shell command run after each commit"},
			{Sub: "difftool", Short: "x", Long: []string{"extcmd"}, Kind: codeRuns, Why: "names the diff command git runs"},
		},
	},
	{
		Names: []string{"sed", "gsed"}, Sed: true, Abbrev: true, ArgShort: "efl",
		ArgLong: []string{"expression", "file", "line-length"},
		Long: []string{"quiet", "silent", "debug", "follow-symlinks", "in-place", "posix", "regexp-extended",
			"separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "help", "version", "binary"},
		Code: []codeOption{
			{Short: "e", Long: []string{"expression"}, Kind: codeScript, Why: whySedScript},
			{Short: "f", Long: []string{"file"}, Kind: codeScriptFile, Why: "names the file sed reads its script from, and a sed script is code"},
		},
	},
	{
		Names: []string{"find", "gfind", "bfs"}, WordsOnly: true,
		Code: []codeOption{
			{Words: []string{"-exec", "-execdir", "-ok", "-okdir"}, Kind: codeCommand, Why: "runs the command for each file found"},
		},
	},
	{
		Names: []string{"fd", "fdfind"}, ArgShort: "ctdEeSoj",
		Code: []codeOption{
			{Short: "xX", Long: []string{"exec", "exec-batch"}, Kind: codeCommand, Why: "runs the command for the files found"},
		},
	},
	{
		Names: []string{"sort", "gsort"}, Abbrev: true, ArgShort: "kotST",
		ArgLong: []string{"key", "output", "field-separator", "buffer-size", "temporary-directory", "compress-program",
			"batch-size", "files0-from", "parallel", "random-source", "sort"},
		Code: []codeOption{
			{Long: []string{"compress-program"}, Kind: codeRuns, Why: "names the program sort runs to compress temporary files"},
		},
	},
	{
		Names: []string{"tar", "gtar", "bsdtar"}, Abbrev: true, OldStyle: true, ArgShort: "bCfFgHIKLNTVX",
		ArgLong: []string{"file", "directory", "files-from", "exclude-from", "exclude", "transform", "xform", "format",
			"label", "newer", "after-date", "newer-mtime", "starting-file", "listed-incremental", "blocking-factor",
			"tape-length", "mode", "mtime", "owner", "group", "owner-map", "group-map", "sort", "suffix",
			"strip-components", "index-file", "record-size", "pax-option", "quoting-style", "quote-chars",
			"no-quote-chars", "warning", "volno-file", "hole-detection", "level", "sparse-version", "add-file",
			"exclude-tag", "exclude-tag-all", "exclude-tag-under", "exclude-ignore", "exclude-ignore-recursive",
			"xattrs-exclude", "xattrs-include", "use-compress-program", "to-command", "checkpoint-action",
			"info-script", "new-volume-script", "rsh-command", "rmt-command"},
		Long: []string{"checkpoint", "force-local", "to-stdout", "absolute-names", "list", "extract", "create"},
		Code: []codeOption{
			{Short: "I", Long: []string{"use-compress-program"}, Kind: codeRuns, Why: "names the program tar runs as the compressor"},
			{Short: "F", Long: []string{"info-script", "new-volume-script"}, Kind: codeRuns, Why: "names a script tar runs at the end of each volume"},
			{Long: []string{"to-command"}, Kind: codeRuns, Why: "is a shell command tar pipes every extracted file into"},
			{Long: []string{"checkpoint-action"}, Kind: codeRuns, Why: "is an action tar runs at checkpoints (exec=command)"},
			{Long: []string{"rsh-command", "rmt-command"}, Kind: codeRuns, Why: "names the program tar runs to reach a remote archive"},
		},
	},
	{
		Names: []string{"rsync"}, Abbrev: true, ArgShort: "eBfMT",
		ArgLong: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from",
			"files-from", "log-file", "config", "dparam", "temp-dir", "partial-dir", "backup-dir", "suffix"},
		Code: []codeOption{
			{Short: "e", Long: []string{"rsh", "rsync-path"}, Kind: codeRuns, Why: "names the program rsync runs for the transfer"},
		},
	},
	{
		Names: []string{"zip"}, Abbrev: true, ArgShort: "bnstxiO",
		ArgLong: []string{"unzip-command", "out", "temp-path", "split-size", "exclude", "include", "logfile-path", "suffixes", "password"},
		Code: []codeOption{
			{Words: []string{"-TT"}, Long: []string{"unzip-command"}, Kind: codeRuns, Why: "names the program zip runs to test the archive"},
		},
	},
	{
		Names: []string{"rg", "ripgrep"}, ArgShort: "ABCdEefgjMmrtT",
		Code: []codeOption{
			{Long: []string{"pre"}, Kind: codeRuns, Why: "names a preprocessor program rg runs on every file searched"},
			{Long: []string{"hostname-bin"}, Kind: codeRuns, Why: "names a program rg runs to get the host name"},
		},
	},
	{
		Names: []string{"wget"}, Abbrev: true, ArgShort: "eoaODPtTwQiBUYlAR",
		ArgLong: []string{"execute", "config", "use-askpass", "output-file", "append-output", "output-document",
			"directory-prefix", "tries", "timeout", "wait", "quota", "input-file", "base", "user-agent", "level",
			"accept", "reject", "header", "post-data", "post-file", "body-data", "body-file", "method"},
		Code: []codeOption{
			{Short: "e", Long: []string{"execute"}, Kind: codeRuns, Why: "runs a .wgetrc command, and those set anything wget does (the programs it runs among them)"},
			{Long: []string{"use-askpass"}, Kind: codeRuns, Why: "names the program wget runs to ask for credentials"},
			{Long: []string{"config"}, Kind: codeScriptFile, Why: "names a .wgetrc file wget reads its settings from"},
		},
	},
	{
		Names: []string{"ssh", "slogin"}, ArgShort: "BbcDEeFIiJLlmOoPpQRSWw",
		Code: []codeOption{
			{Short: "o", Kind: codeRuns, Why: "sets an ssh option, and some run local programs (ProxyCommand, LocalCommand, KnownHostsCommand)"},
			{Short: "F", Kind: codeScriptFile, Why: "names the configuration file ssh reads, whose options can run local programs"},
		},
	},
	{
		Names: []string{"scp", "sftp"}, ArgShort: "BbcDFiJloPRSXs",
		Code: []codeOption{
			{Short: "o", Kind: codeRuns, Why: "sets an ssh option, and some run local programs (ProxyCommand, LocalCommand, KnownHostsCommand)"},
			{Short: "S", Kind: codeRuns, Why: "names the program used for the connection (ssh by default)"},
			{Short: "D", Kind: codeRuns, Why: "names the sftp server program to run directly (sftp -D)"},
			{Short: "F", Kind: codeScriptFile, Why: "names the configuration file ssh reads, whose options can run local programs"},
		},
	},
	{
		Names: []string{"man"}, Abbrev: true, ArgShort: "CPHXpTMmSsLeERKr",
		ArgLong: []string{"config-file", "pager", "html", "gxditview", "preprocessor", "troff-device", "manpath",
			"systems", "sections", "locale", "extension", "encoding", "recode", "prompt"},
		Code: []codeOption{
			{Short: "P", Long: []string{"pager"}, Kind: codeRuns, Why: "names the pager program man runs"},
			{Short: "H", Long: []string{"html"}, Optional: true, Kind: codeRuns, Why: "names the web browser man runs"},
			{Long: []string{"preprocessor"}, Kind: codeRuns, Why: "chooses the preprocessors man runs"},
			{Short: "C", Long: []string{"config-file"}, Kind: codeScriptFile, Why: "names the configuration man reads, which names the programs it runs"},
		},
	},
	{
		Names: []string{"tcpdump"}, ArgShort: "BcCDEFGiMmrsTVwWyzZ",
		Code: []codeOption{
			{Short: "z", Kind: codeRuns, Why: "names the program tcpdump runs on every file it saves"},
		},
	},
	{
		Names: []string{"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"}, Abbrev: true, ArgShort: "ecIiOpqsTVwxX",
		Code: []codeOption{
			{Short: "ec", Long: []string{"exec", "sh-exec", "lua-exec"}, Kind: codeRuns, Why: "names the program nc wires to the network connection"},
		},
	},
	{
		Names: []string{"split", "gsplit"}, Abbrev: true, ArgShort: "abClnt",
		ArgLong: []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "separator", "additional-suffix", "filter"},
		Code: []codeOption{
			{Long: []string{"filter"}, Kind: codeRuns, Why: "is a shell command split runs for every output file"},
		},
	},
}

// prepareCodeTable builds each entry's matcher once, on first use.
var prepareCodeTable = sync.OnceFunc(func() {
	for _, p := range codeTable {
		p.match = NewDenyList(p.Names...)
	}
})

// codeEntries caches codeEntry by binary (templates name few binaries).
var codeEntries sync.Map // string → *codeProgram

// codeEntry returns codeTable's entry for a binary, or nil.
func codeEntry(binary string) *codeProgram {
	if p, ok := codeEntries.Load(binary); ok {
		return p.(*codeProgram)
	}
	prepareCodeTable()
	var found *codeProgram
	for _, p := range codeTable {
		if _, ok := p.match.Match(binary); ok {
			found = p
			break
		}
	}
	codeEntries.Store(binary, found)
	return found
}

// codeSite is a slot found in a code position.
type codeSite struct {
	slot string
	prog string // the program, as BinaryName gives it
	opt  string // the option as written ("--compress-prog", "-I", "-exec")
	full string // the option's full name when opt abbreviates it
	kind codeKind
	why  string
	// names: the slot stands among option letters or in an option's name
	// (sed -n{x}); sub: it is git's subcommand; cmd: it is the command a
	// codeCommand option runs.
	names, sub, cmd bool
	// afterDashes: the slot follows the word's leading dashes ("-{x}"),
	// which slotNamesOption refuses already.
	afterDashes bool
}

// afterDashes reports whether slot follows w's leading dashes, the place
// slotNamesOption judges.
func afterDashes(w Word, slot string) bool {
	return len(w) > 1 && w[0].Slot == "" && w[1].Slot == slot && strings.Trim(w[0].Lit, "-") == ""
}

// sedSite is one sed script of a template: a word, or the rest of a word
// after -e.
type sedSite struct {
	prog string
	via  string // "-e", "--expression" …, or "" for the operand
	word Word
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
	if !p.Git {
		st.subDone = true
	}
	var operands []int
	endOpts := false
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
			endOpts = true
			if !st.subDone { // git -- log: the subcommand still follows
				endOpts = false
			}
			continue
		}
		i = sc.option(&st, words, i, depth)
	}
	if p.Sed && !st.scriptGiven && len(operands) > 0 {
		sc.out.sed = append(sc.out.sed, sedSite{prog: st.name, word: words[operands[0]]})
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
		if !st.p.Git {
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
	exactOnly := !st.p.Abbrev || st.p.Git && !st.subDone
	for _, o := range rows {
		for _, l := range o.Long {
			if opt == l || !exactOnly && opt != "" && strings.HasPrefix(l, opt) && !st.p.knownLong(opt) {
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

// knownLong reports whether opt is exactly one of the program's other long
// options (an exact match beats an abbreviation: tar --checkpoint).
func (p *codeProgram) knownLong(opt string) bool {
	return slices.Contains(p.Long, opt) || slices.Contains(p.ArgLong, opt) && !p.isCodeLong(opt)
}

func (p *codeProgram) isCodeLong(opt string) bool {
	for _, o := range p.Code {
		if slices.Contains(o.Long, opt) {
			return true
		}
	}
	return false
}

// takesLong reports whether the long option opt, written alone, takes the
// next word as its value.
func (st *progState) takesLong(opt string, exactOnly bool) bool {
	if st.p.Git && !st.subDone {
		return GitOptionTakesValue("--" + opt)
	}
	for _, l := range st.p.ArgLong {
		if opt == l || !exactOnly && opt != "" && strings.HasPrefix(l, opt) {
			return true
		}
	}
	return false
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

// takesShort reports whether option letter c takes a value.
func (st *progState) takesShort(c byte) bool {
	if st.p.Git && !st.subDone {
		return GitOptionTakesValue("-" + string(c))
	}
	return strings.IndexByte(st.p.ArgShort, c) >= 0
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
	if rest == nil {
		if i+1 >= len(words) {
			return i
		}
		rest, last = words[i+1], i+1
	}
	if o.Kind == codeCommand {
		// The command: its first word (attached or the next) is the program,
		// the words up to a lone ";" or "+" its arguments.
		end := last + 1
		for end < len(words) && !(len(words[end]) == 1 && (words[end][0].Lit == ";" || words[end][0].Lit == "+")) {
			end++
		}
		if len(rest) == 1 && rest[0].Slot == "" && rest[0].Lit != "" {
			sc.out.runs = append(sc.out.runs, codeRun{prog: st.name, opt: opt, program: rest[0].Lit})
			sc.program(rest[0].Lit, words[last+1:end], depth+1)
		} else {
			for _, s := range slotsOf(rest) {
				sc.add(codeSite{slot: s, prog: st.name, opt: opt, full: full, kind: o.Kind, why: o.Why, cmd: true})
			}
		}
		return end - 1
	}
	if o.Kind == codeScript {
		sc.out.sed = append(sc.out.sed, sedSite{prog: st.name, via: opt, word: rest})
		return last
	}
	for _, s := range slotsOf(rest) {
		sc.add(codeSite{slot: s, prog: st.name, opt: opt, full: full, kind: o.Kind, why: o.Why})
	}
	return last
}

func (sc *scanner) add(s codeSite) { sc.out.sites = append(sc.out.sites, s) }

// maxCodeVariants bounds how many readings of a template the rule makes
// (enum values in option names, and sed scripts from enum values).
const maxCodeVariants = 256

// checkCode applies the code-position rule to t, whose slots s declares.
func checkCode(s *tool.Spec, t *Template, deny DenyList) []error {
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
func runError(r codeRun, deny DenyList) *tool.Error {
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

func checkCodeVariant(s *tool.Spec, t *Template, info func(string) slotInfo, deny DenyList, add func(*tool.Error, string), variants int, note string) int {
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
func (p *codeProgram) codeOptions() string {
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
		return tool.SpecErrorf(field, "slot %q: %sit is git's subcommand, and some subcommands run programs or the commands they are given "+
			"(difftool, filter-branch, submodule foreach, bisect run); the model must not choose it: write the subcommand out in the "+
			"template, or give the slot an enum of the allowed subcommands", a.Name, note)
	case site.names && site.afterDashes:
		return nil // slotNamesOption's 613 says it
	case site.names:
		return tool.SpecErrorf(field, "slot %q: %sit stands among the option letters or in the option name of %q, so its value would "+
			"choose options of %s, and some of them take code (%s); the model must not choose options: write them out in the "+
			"template, or give the slot an enum of the allowed values", a.Name, note, opt, site.prog, codeEntry(site.prog).codeOptions())
	case site.kind == codeScriptFile:
		fix := "write what the file would hold out in the template instead"
		if p := codeEntry(site.prog); p != nil && p.Sed {
			fix = "write the script out in the template instead (-e SCRIPT)"
		}
		return tool.SpecErrorf(field, "slot %q: %sit is the value of %s's %s, which %s; the file would be the workspace's, which the "+
			"repository writes, so an enum does not help: %s", a.Name, note, site.prog, opt, site.why, fix)
	case enum:
		return nil // the author's allowlist
	case site.cmd:
		return tool.SpecErrorf(field, "slot %q: %sit is the program %s's %s runs, which %s; the model must not choose code: "+
			"write the program out in the template, or give the slot an enum of the allowed programs", a.Name, note, site.prog, opt, site.why)
	}
	return tool.SpecErrorf(field, "slot %q: %sit is the value of %s's %s, which %s; the model must not choose it: "+
		"write the value out in the template, or give the slot an enum of the allowed values", a.Name, note, site.prog, opt, site.why)
}

// sedDangerLetters are the letters of the sed commands and flags that run a
// program or touch a file: e, r, R, w, W.
const sedDangerLetters = "erRwW"

// sedSiteErrors applies the rule to one sed script of a template.
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
				"letter (^[0-9]+(,[0-9]+)?$ for a line range)", a.Name, note, where, whySedScript))
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
		if i := strings.IndexAny(text, sedDangerLetters); i >= 0 {
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
		if reason := SedScript(script.String()); reason != "" {
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
