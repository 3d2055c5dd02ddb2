package programs

import "strings"

// Build tools, for when the deny list is narrowed to allow them: make, go.

var _ = register(&Program{
	Names: []string{"make", "gmake", "bmake"},
	Check: checkMake,
	Grammar: Grammar{
		Abbrev: true, ArgShort: "CfIoWE", OptShort: "jlO",
		ArgLong: []string{"directory", "file", "makefile", "include-dir", "old-file", "assume-old", "what-if", "new-file", "assume-new", "eval"},
	},
	Rows: []Row{
		{Short: "E", Long: []string{"eval"}, Why: "it evaluates makefile text, which can run shell commands ($(shell …))"},
	},
})

// go: GOENV=off (no ~/.config/go/env) and GOTOOLCHAIN=local (a go.mod's
// toolchain line cannot download and run another go).
var _ = register(&Program{
	Names:   []string{"go"},
	Check:   checkGo,
	Grammar: Grammar{Style: GoFlag, Subcommands: true},
	Rows: []Row{
		{Sub: "generate", Why: "it runs the commands written in //go:generate lines"},
		{Sub: "*", Long: []string{"exec", "toolexec", "vettool"}, Why: "it runs the named program around every binary or tool"},
		{Sub: "env", Short: "wu", Why: "it writes the go env file, which changes later builds (GOFLAGS=-toolexec=…)"},
	},
	Env: func(Run) []string { return []string{"GOENV=off", "GOTOOLCHAIN=local"} },
})

// checkMake refuses variable assignments on the command line, which
// override the makefile's (SHELL=…, CC=…).
func checkMake(c *Command) *Refusal {
	for _, t := range c.operands() {
		if w := c.arg(t.word); strings.Contains(w, "=") {
			return refuse(t.word, "make: the assignment %q is refused: a variable set on the command line overrides "+
				"the makefile (SHELL=, CC=) and can run any program", w)
		}
	}
	return nil
}

// checkGo refuses go run of a module fetched by version, and linker flags
// that name an external program.
func checkGo(c *Command) *Refusal {
	if c.sub == "run" {
		for _, t := range c.subOperands() {
			if w := c.arg(t.word); strings.Contains(w, "@") {
				return refuse(t.word, "go: run %q is refused: it downloads a module and runs its code", w)
			}
		}
	}
	for _, t := range c.tokens {
		if t.kind != TokOption {
			continue
		}
		v := t.value
		if !t.hasValue && t.word+1 < len(c.words) {
			v = c.arg(t.word + 1) // go flags may take the next word
		}
		if (t.name == "-ldflags" || t.name == "-gcflags" || t.name == "-asmflags") &&
			(strings.Contains(v, "extld") || strings.Contains(v, "extar")) {
			return refuse(t.word, "go: %s %q is refused: -extld and -extar name a program the linker runs", t.name, v)
		}
	}
	return nil
}
