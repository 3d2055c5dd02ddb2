package programs

// Build tools, for when the deny list is narrowed to allow them: make, go.

var _ = register(&Program{
	Names: []string{"make", "gmake", "bmake"},
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
	Grammar: Grammar{Style: GoFlag, Subcommands: true},
	Rows: []Row{
		{Sub: "generate", Why: "it runs the commands written in //go:generate lines"},
		{Sub: "*", Long: []string{"exec", "toolexec", "vettool"}, Why: "it runs the named program around every binary or tool"},
		{Sub: "env", Short: "wu", Why: "it writes the go env file, which changes later builds (GOFLAGS=-toolexec=…)"},
	},
	Env: func(Run) []string { return []string{"GOENV=off", "GOTOOLCHAIN=local"} },
})
