package programs

// ripgrep runs programs for --pre and --hostname-bin.
var _ = register(&Program{
	Names: []string{"rg", "ripgrep"},
	Grammar: Grammar{
		ArgShort: "ABCdEefgjMmrtT", NoArgShort: "0abcFhHiIlnNopqsSuUvVwxz",
		ArgLong: []string{"pre", "pre-glob", "hostname-bin", "after-context", "before-context", "context", "max-depth",
			"encoding", "regexp", "file", "glob", "iglob", "threads", "max-columns", "max-count", "replace", "type",
			"type-not", "type-add", "type-clear", "sort", "sortr", "colors", "engine", "ignore-file", "max-filesize",
			"path-separator", "context-separator", "field-context-separator", "field-match-separator",
			"dfa-size-limit", "regex-size-limit", "hyperlink-format", "generate"},
		Pattern: []string{"-e", "--regexp", "-f", "--file"},
	},
	Code: []CodeOption{
		{Long: []string{"pre"}, Kind: CodeRuns, Why: "names a preprocessor program rg runs on every file searched",
			ExecWhy: "it runs a preprocessor program on every file searched"},
		{Long: []string{"hostname-bin"}, Kind: CodeRuns, Why: "names a program rg runs to get the host name",
			ExecWhy: "it runs a program to get the host name"},
	},
	Rows: []Row{
		{Long: []string{"pre-glob"}, Why: "it selects the files for --pre, which runs a program"},
		{Short: "L", Long: []string{"follow"}, Why: whyFollow},
	},
})
