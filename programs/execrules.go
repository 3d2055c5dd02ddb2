package programs

import (
	"strings"
	"sync"
)

// execRules is defence 4's view of one program of package programs (a
// binary, or a family of binaries that read their arguments alike): the
// program, whose Grammar the one reader reads its lines with
// (Program.ReadLine), and the rows of what it may not be given (its code
// options' ExecWhy, then its Rows).
type execRules struct {
	// Names are the binaries the entry covers, written like deny-list
	// entries: "sed" also covers "sed4.9"; "python*" covers every name that
	// begins with "python". A granted name is looked up, and so is the name
	// of the file it resolves to through symlinks ("editor" → "vim.basic").
	Names []string
	// Refuse, when set, refuses the binary whatever its arguments; New then
	// refuses to grant it (613).
	Refuse string

	// Rows are the refused options, words and subcommands.
	Rows []execRow
	// Files are the options whose value names a file the program opens:
	// each must be inside the workspace (Program.Files).
	Files []FileOption
	// Check, when set, looks at what rows cannot express: scripts given as
	// operands (sed, awk), read-only forms (git config), operand syntax
	// (tar's host:file). It runs after the rows.
	Check func(c *Command) *Refusal

	known []string // every long option the program is known to have (Program.LongNames)
	prog  *Program // the program, whose Grammar reads the command line (Program.ReadLine)
}

// execRow is one row of the flag table: spellings refused for one reason.
type execRow struct {
	// Sub is where the row applies for a binary with subcommands: "" before
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
	// inside the workspace, even when WithOutsidePathsAllowed is set.
	Confine []string
	// Why says what the spelling does, for the model.
	Why string

	subs []string // Sub split into names
}

// wholeSub reports whether the row refuses subcommands themselves.
func (row *execRow) wholeSub() bool {
	return row.Sub != "" && row.Sub != "*" && row.Short == "" && len(row.Long) == 0 &&
		len(row.Words) == 0 && len(row.Confine) == 0
}

// readingOf returns how the ExecTool reads p's command lines (the program,
// its checks and file options), with no rows.
func readingOf(p *Program) *execRules {
	return &execRules{Names: p.Names, Refuse: p.Refuse, Check: p.Check, Files: p.Files, known: p.longNames(), prog: p}
}

// fromProgram returns p's rules, or nil when the ExecTool refuses nothing
// of p.
func fromProgram(p *Program) *execRules {
	r := readingOf(p)
	for _, o := range p.Code {
		if o.ExecWhy == "" {
			continue
		}
		var words []string
		for _, w := range o.Words {
			if o.Kind != CodeCommand {
				w += "*" // the value may be attached: -TTcmd, -TT=cmd
			}
			words = append(words, w)
		}
		r.Rows = append(r.Rows, execRow{Sub: o.Sub, Short: o.Short, Long: o.Long, Words: words, Why: o.ExecWhy})
	}
	for _, row := range p.Rows {
		r.Rows = append(r.Rows, execRow{Sub: row.Sub, Short: row.Short, Long: row.Long, Words: row.Words, Confine: row.Confine, Why: row.Why})
	}
	if p.ResponseFiles != "" { // every word, before a subcommand and after it
		r.Rows = append(r.Rows, execRow{Words: []string{"@*"}, Why: WhyResponseFile(p.ResponseFiles)})
		if p.Grammar.Subcommands {
			r.Rows = append(r.Rows, execRow{Sub: "*", Words: []string{"@*"}, Why: WhyResponseFile(p.ResponseFiles)})
		}
	}
	if r.Refuse == "" && len(r.Rows) == 0 && r.Check == nil && len(r.Files) == 0 {
		return nil
	}
	for i := range r.Rows {
		r.Rows[i].subs = strings.Fields(r.Rows[i].Sub)
	}
	return r
}

// prepareExec derives each program's rules once, on first use: a toolgen
// that grants no exec (most calls) does not pay for it at start-up.
var prepareExec = sync.OnceFunc(func() {
	prepare()
	for _, p := range registry {
		p.exec = fromProgram(p)
	}
})

// rules returns p's rules, or nil.
func (p *Program) rules() *execRules {
	prepareExec()
	return p.exec
}

// ExecRefuses reports whether the ExecTool refuses anything of p: p
// whole (Refuse), an option, word or subcommand (ExecRows), or what its
// Check finds.
func (p *Program) ExecRefuses() bool { return p.rules() != nil }

// ExecRows returns the ExecTool's rows for p, in the order they are
// applied: its code options that have an ExecWhy, then its Rows. The
// slice is the caller's.
func (p *Program) ExecRows() []Row {
	r := p.rules()
	if r == nil {
		return nil
	}
	out := make([]Row, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = Row{Sub: row.Sub, Short: row.Short, Long: row.Long, Words: row.Words, Confine: row.Confine, Why: row.Why}
	}
	return out
}

// WholeSub reports whether the row refuses subcommands themselves (Sub
// set, and no option, word or confined option).
func (row Row) WholeSub() bool {
	return row.Sub != "" && row.Sub != "*" && row.Short == "" && len(row.Long) == 0 &&
		len(row.Words) == 0 && len(row.Confine) == 0
}
