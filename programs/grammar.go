package programs

import (
	"slices"
	"strings"
)

// Style says how a program reads its options.
type Style int

const (
	// Getopt is GNU getopt_long: short options combine ("-ni"), a short
	// option's value may be attached ("-efoo") or the next word, long options
	// take "--opt=value" or "--opt value", options may follow operands, and
	// "--" ends the options.
	Getopt Style = iota
	// GoFlag is Go's flag package: "-name" or "--name", "=value" or the
	// next word, no combining.
	GoFlag
)

// Grammar is how a program reads its options: the one copy that the one
// reader (Program.ReadLine) reads a template or an ExecTool command line
// with. Where a grammar is not known for sure, the reader takes the
// reading that refuses more.
type Grammar struct {
	Style Style
	// Abbrev: long options may be abbreviated to a unique prefix (GNU
	// getopt_long, argp, git's parse-options after the subcommand), by the
	// one rule of ResolveLong and MayStandFor.
	Abbrev bool
	// ArgShort are the option letters that take a value (the rest of the
	// word, or the next word); OptShort those whose optional value can only
	// be attached ("-i.bak"); NoArgShort those known to take none. Letters
	// in none of them are read as taking none, so the letters after them in
	// the same word are still read.
	ArgShort, OptShort, NoArgShort string
	// ArgLong are the long options (without "--") that take a value (the
	// next word when not attached); Long the other long options the program
	// knows, listed where an exact name must beat an abbreviation
	// ("--checkpoint" is not "--checkpoint-action").
	ArgLong, Long []string
	// WordsOnly: the program has no option clusters, only whole option
	// words (find's -name, -exec).
	WordsOnly bool
	// OldStyle: a first argument without a dash is a cluster of option
	// letters whose values are the next words (tar xIf PROG ARCHIVE).
	OldStyle bool
	// ShortEq: a short option's attached value may begin with '=', which
	// the program drops (clap, fd: -x=sh runs sh).
	ShortEq bool
	// Subcommands: the first operand is a subcommand (git log); the options
	// before it are the top level's (ArgShort … above), those after it the
	// subcommand's: SubArgs lists, per subcommand, the options that take a
	// value ("git config --file --get a b" sets a in the file "--get").
	// The reader reads any other option after a subcommand as taking none,
	// the reading that refuses more: the letters after it and the next word
	// are read as options too (git grep -nO{x} runs the pager {x}; git
	// clone -pu PROG is refused as -p -u PROG).
	Subcommands bool
	SubArgs     map[string]SubArgs
	// Pattern are the options that give the program its pattern ("-e",
	// "--regexp", "-f", "--file"); when set, the first operand is the
	// pattern unless one of them is given (grep, rg). A pattern is data: a
	// text slot there may hold quotes and operator characters.
	Pattern []string
}

// TakesValue reports whether opt, written alone ("-C", "--git-dir"), is an
// option of g's top level that takes the next word as its value.
func (g Grammar) TakesValue(opt string) bool {
	if l, ok := strings.CutPrefix(opt, "--"); ok {
		return slices.Contains(g.ArgLong, l)
	}
	return len(opt) == 2 && opt[0] == '-' && strings.IndexByte(g.ArgShort, opt[1]) >= 0
}

// Script is a program's script language, as the template check judges a
// script of it.
type Script struct {
	// Judge returns why a script is refused, or "" when it is safe to run
	// (sedscript.Judge). The ExecTool judges every script with it too.
	Judge func(script string) string
	// Danger are the letters of the commands that run a program or touch a
	// file: a slot whose values hold no letter is still refused when the
	// script around it holds one of them.
	Danger string
	// Why says why a script is code, for messages.
	Why string
	// Inline says how a template gives a script instead of a file ("-e
	// SCRIPT").
	Inline string
}

// SubArgs lists a subcommand's options that take a value.
type SubArgs struct {
	Short string
	Long  []string
}

// CodeKind is what a code position holds.
type CodeKind int

const (
	CodeRuns       CodeKind = iota // names a program or a command line the program runs
	CodeScript                     // a sed script
	CodeScriptFile                 // names a file the program reads code from
	CodeCommand                    // the words of a command the program runs (find -exec … +)
)

// CodeOption is an option whose value is code, in all its spellings.
type CodeOption struct {
	Short string   // option letters ("I" for tar -I)
	Long  []string // long options, without "--"
	// Words are whole single-dash option words ("-exec" of find; "-TT" of
	// zip, whose value may also be attached: -TT=cmd).
	Words []string
	// PlusEnds, for a CodeCommand option: a "+" right after a "{}" word
	// ends the command, as ";" always does (find -exec … {} +); without
	// it only ";" does (fd -x …). An attached command (fd -xCMD,
	// --exec=CMD) is one word, and the words after it are the program's
	// own (clap).
	PlusEnds bool
	// Optional: the value can only be attached (git grep -O<pager>,
	// git --exec-path=<dir>); written alone the option takes no value.
	Optional bool
	// Sub, for a program with subcommands, is where the option applies: ""
	// before the subcommand, "*" after any subcommand, or a space-separated
	// list of subcommands.
	Sub  string
	Kind CodeKind
	// Why says what the value does, for a template's 613 ("names the
	// program tar runs as the compressor").
	Why string
	// ExecWhy says why the ExecTool refuses the option, for its 614 ("it
	// runs the named program as the compressor"); "" when the ExecTool
	// leaves the option to a Row or a Check of its own.
	ExecWhy string
}

// CodeOperands says which operands of a program are a command it runs:
// every operand after Lead, the literal operands that introduce the
// command (git bisect run CMD…: Sub "bisect", Lead "run"), or after the
// first Skip operands, whatever they are (ssh HOST CMD…: Skip 1).
type CodeOperands struct {
	Sub  string   // the subcommand; "" for a program without
	Lead []string // the operands before the command, literally
	Skip int      // or how many operands of any value come first
	What string   // the command, for the message ("the command of git bisect run")
	Why  string   // what the program does with it
}

// Row is one of the ExecTool's refusals: spellings refused for one reason.
type Row struct {
	// Sub is where the row applies for a program with subcommands: "" before
	// the subcommand, "*" after any subcommand, or a space-separated list of
	// subcommands. A row with Sub set and nothing else refuses those
	// subcommands themselves.
	Sub string
	// Short are refused short options, one letter each.
	Short string
	// Long are refused long options, without "--"; a trailing '*' refuses
	// every option beginning with the rest ("inspect*").
	Long []string
	// Words are refused words wherever they stand, options or not ("-exec"
	// for find); a trailing '*' refuses every word beginning with the rest
	// ("+*" for vim's +cmd).
	Words []string
	// Confine are options ("-C", "--git-dir") whose value must name a place
	// inside the workspace, even when outside paths are allowed.
	Confine []string
	// Why says what the spelling does, for the model.
	Why string
}
