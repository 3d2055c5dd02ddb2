package programs

// man, and the programs that show text interactively or run commands later:
// pagers and schedulers, which the ExecTool refuses whatever their
// arguments (with stdin at /dev/null their interactive '!' cannot be
// reached, but nothing they would show is missing from a plain read).

// man: MANPAGER and PAGER are cat.
var _ = register(&Program{
	Names: []string{"man"},
	Grammar: Grammar{
		// man-db's: -H, -T and -X (and their long forms) take a value
		// only attached; -K (--global-apropos) takes none.
		Abbrev: true, ArgShort: "CPpMmSsLeERr", OptShort: "HTX", NoArgShort: "K",
		ArgLong: []string{"config-file", "pager", "preprocessor", "manpath",
			"systems", "sections", "locale", "extension", "encoding", "recode", "prompt"},
		Long: []string{"html", "gxditview", "troff-device", "global-apropos"},
	},
	Code: []CodeOption{
		{Short: "P", Long: []string{"pager"}, Kind: CodeRuns, Why: "names the pager program man runs",
			ExecWhy: "it names the pager program, which runs"},
		{Short: "H", Long: []string{"html"}, Optional: true, Kind: CodeRuns, Why: "names the web browser man runs",
			ExecWhy: "it runs a web browser"},
		{Long: []string{"preprocessor"}, Kind: CodeRuns, Why: "chooses the preprocessors man runs",
			ExecWhy: "it chooses the preprocessors man runs"},
		{Short: "C", Long: []string{"config-file"}, Kind: CodeScriptFile, Why: "names the configuration man reads, which names the programs it runs",
			ExecWhy: "it reads another man configuration, which names the programs man runs"},
	},
	Rows: []Row{
		{Short: "X", Long: []string{"gxditview"}, Why: "it runs a viewer program"},
	},
	Env: func(Run) []string { return []string{"MANPAGER=cat", "PAGER=cat"} },
})

var _ = register(&Program{
	Names:  []string{"less", "more", "most", "pg"},
	Refuse: "a pager is interactive and can run shell commands (!cmd, |, v); its output comes back to you anyway: read files with cat, head, tail or sed -n",
})

var _ = register(&Program{
	Names:  []string{"crontab", "at", "batch", "atq", "atrm"},
	Refuse: "it schedules commands that run later, outside this call and its limits",
})
