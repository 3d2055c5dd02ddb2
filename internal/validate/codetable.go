package validate

import (
	"sync"

	"github.com/nanogpt/toolgen/programs"
)

// The data of the code-position rule (codepos.go) is package programs':
// per program, the options and words whose value is code (Program.Code),
// the operands that are a command (Program.Commands), and the grammar the
// scanner reads them with. codeEntry gives the scanner a program's entry
// in the form it reads.

type (
	codeKind     = programs.CodeKind
	codeOption   = programs.CodeOption
	codeOperands = programs.CodeOperands
)

const (
	codeRuns       = programs.CodeRuns
	codeScript     = programs.CodeScript
	codeScriptFile = programs.CodeScriptFile
	codeCommand    = programs.CodeCommand
)

// codeProgram is a program with code positions, as the scanner reads it.
type codeProgram struct {
	// Abbrev: long options may be abbreviated (GNU getopt_long, git's
	// parse-options after the subcommand), by the one rule of
	// programs.ResolveLong and programs.MayStandFor, against known.
	Abbrev bool
	known  []string // every long option the program has (Program.LongNames)
	// ArgShort are option letters that take a value (the rest of the word,
	// or the next word); ArgLong the long options that do (the next word
	// when not attached). Letters not listed are read as flags, so a code
	// letter after them in the same word is found. For a program with
	// subcommands both are empty: top holds the top level's grammar and
	// the subcommands' (Grammar.SubArgs).
	ArgShort string
	ArgLong  []string
	Long     []string // other long options, where an exact name beats an abbreviation
	// WordsOnly: the program has no option clusters (find's -name, -exec).
	WordsOnly bool
	// OldStyle: a first argument without a dash is a cluster of option
	// letters whose values are the next words (tar xIf PROG ARCHIVE).
	OldStyle bool
	// Script is the program's script language (its first operand is a
	// script unless an option gives one); nil for none.
	Script *programs.Script
	// Subcommands: top-level options, a subcommand, then the subcommand's
	// options; SubWhy says why the subcommand may be code.
	Subcommands bool
	SubWhy      string
	Code        []codeOption
	// Commands are the operands that are a command the program runs (git
	// bisect run CMD…, ssh HOST CMD…).
	Commands []codeOperands

	top programs.Grammar // the top level's grammar, for Subcommands
}

// fromProgram returns p's entry, or nil when p has no code position.
func fromProgram(p *programs.Program) *codeProgram {
	if p == nil || len(p.Code) == 0 && len(p.Commands) == 0 && p.Script == nil {
		return nil
	}
	g := p.Grammar
	c := &codeProgram{Abbrev: g.Abbrev, WordsOnly: g.WordsOnly, OldStyle: g.OldStyle, Script: p.Script,
		Subcommands: g.Subcommands, SubWhy: p.SubWhy, Code: p.Code, Commands: p.Commands, top: g, known: p.LongNames()}
	if g.Subcommands && c.SubWhy == "" {
		c.SubWhy = "a subcommand may run programs"
	}
	if !g.Subcommands {
		c.ArgShort, c.ArgLong, c.Long = g.ArgShort, g.ArgLong, g.Long
	}
	return c
}

// entries holds each program's entry, made once.
var entries sync.Map // *programs.Program → *codeProgram

// codeEntry returns the entry of the program binary is, or nil when it has
// no code position.
func codeEntry(binary string) *codeProgram {
	p := programs.Lookup(binary)
	if p == nil {
		return nil
	}
	if e, ok := entries.Load(p); ok {
		return e.(*codeProgram)
	}
	e, _ := entries.LoadOrStore(p, fromProgram(p))
	return e.(*codeProgram)
}
