package programs

// find and fd: the command they run for each file found is code.

// whyFollow is why an option that follows symlinks while walking is refused.
const whyFollow = "it follows symlinks while walking directories, and a symlink can lead out of the workspace"

// whyNameList is why an option that reads file names from a file is refused.
const whyNameList = "it reads the names of the files to use from a file, and those names cannot be checked; name the files as arguments"

var _ = register(&Program{
	Names:   []string{"find", "gfind", "bfs"},
	Grammar: Grammar{WordsOnly: true},
	Code: []CodeOption{
		{Words: []string{"-exec", "-execdir", "-ok", "-okdir"}, Kind: CodeCommand, PlusEnds: true, Why: "runs the command for each file found",
			ExecWhy: "it runs a command for each file found"},
	},
	Rows: []Row{
		{Words: []string{"-delete"}, Why: "it deletes the files found"},
		{Words: []string{"-fprint", "-fprint0", "-fprintf", "-fls"}, Why: "it writes to a named file; the result comes back to you anyway"},
		{Words: []string{"-L", "-follow"}, Why: whyFollow},
		{Words: []string{"-files0-from"}, Why: whyNameList},
	},
})

var _ = register(&Program{
	Names:   []string{"fd", "fdfind"},
	Grammar: Grammar{ArgShort: "ctdEeSoj", NoArgShort: "HIusigFalLp01qhV", ShortEq: true},
	Code: []CodeOption{
		{Short: "xX", Long: []string{"exec", "exec-batch"}, Kind: CodeCommand, Why: "runs the command for the files found",
			ExecWhy: "it runs a command for the files found"},
	},
	Rows: []Row{
		{Short: "L", Long: []string{"follow"}, Why: whyFollow},
	},
})
