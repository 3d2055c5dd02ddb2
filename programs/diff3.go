package programs

// diff3 and sdiff (GNU diffutils): --diff-program names the program they
// run to compare the files (diff3 --diff-program=PROG a b c runs PROG),
// and sdiff -o merges interactively into a file, where its e command
// starts an editor.

// whyDiffProgram is why --diff-program's value is code.
const whyDiffProgram = "names the program that compares the files, which runs"

var _ = register(&Program{
	Names: []string{"diff3"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "L", NoArgShort: "AeE3xXimaTv",
		ArgLong: []string{"diff-program", "label"},
		Long: []string{"show-all", "ed", "show-overlap", "easy-only", "overlap-only", "merge", "text",
			"strip-trailing-cr", "initial-tab", "help", "version"},
	},
	Code: []CodeOption{
		{Long: []string{"diff-program"}, Kind: CodeRuns, Why: whyDiffProgram,
			ExecWhy: "it runs the named program to compare the files"},
	},
})

var _ = register(&Program{
	Names: []string{"sdiff"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "oIw", NoArgShort: "iEZbWBalstdHv",
		ArgLong: []string{"output", "ignore-matching-lines", "width", "tabsize", "diff-program"},
		Long: []string{"ignore-case", "ignore-tab-expansion", "ignore-trailing-space", "ignore-space-change",
			"ignore-all-space", "ignore-blank-lines", "strip-trailing-cr", "text", "left-column",
			"suppress-common-lines", "expand-tabs", "minimal", "speed-large-files", "help", "version"},
	},
	Code: []CodeOption{
		{Long: []string{"diff-program"}, Kind: CodeRuns, Why: whyDiffProgram,
			ExecWhy: "it runs the named program to compare the files"},
	},
	Rows: []Row{
		{Short: "o", Long: []string{"output"}, Why: "it merges interactively into a file, and its e command starts an editor"},
	},
})
