package programs

// GNU coreutils and friends that walk directories, read lists of names or
// run programs: sort, split, ls, cp, diff, tree, wc, du, grep.

var _ = register(&Program{
	Names: []string{"sort", "gsort"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "kotST",
		ArgLong: []string{"key", "output", "field-separator", "buffer-size", "temporary-directory", "compress-program",
			"batch-size", "files0-from", "parallel", "random-source", "sort"},
	},
	Code: []CodeOption{
		{Long: []string{"compress-program"}, Kind: CodeRuns, Why: "names the program sort runs to compress temporary files",
			ExecWhy: "it runs the named program to compress temporary files"},
	},
	Rows: []Row{
		{Long: []string{"files0-from"}, Why: whyNameList},
	},
})

var _ = register(&Program{
	Names: []string{"split", "gsplit"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "abClnt",
		// --numeric-suffixes[=FROM] and --hex-suffixes[=FROM] take a value
		// only attached: written alone, the next word is read as an option
		// (split --numeric-suffixes --filter=CMD runs CMD).
		ArgLong: []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "separator", "additional-suffix",
			"filter"},
		Long: []string{"numeric-suffixes", "hex-suffixes"},
	},
	Code: []CodeOption{
		{Long: []string{"filter"}, Kind: CodeRuns, Why: "is a shell command split runs for every output file",
			ExecWhy: "it runs a shell command for every output file"},
	},
})

var _ = register(&Program{
	Names: []string{"grep", "egrep", "fgrep", "ggrep"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "efmABCDd", NoArgShort: "EFGPivwxyclLoqsbHhnTZzaIrRUu",
		ArgLong: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "devices",
			"directories", "binary-files", "label", "include", "exclude", "exclude-from", "exclude-dir", "group-separator"},
		Long: []string{"recursive", "color", "colour", "count", "ignore-case", "no-ignore-case", "line-number", "files-with-matches",
			"files-without-match", "fixed-strings", "extended-regexp", "basic-regexp", "perl-regexp", "invert-match", "word-regexp",
			"line-regexp", "only-matching", "quiet", "silent", "no-messages", "with-filename", "no-filename", "null", "null-data",
			"text", "byte-offset", "initial-tab", "line-buffered"},
		Pattern: []string{"-e", "--regexp", "-f", "--file"},
	},
	Rows: []Row{
		{Short: "R", Long: []string{"dereference-recursive"}, Why: whyFollow + "; -r does not"},
	},
})

// ls -L stats (and with -R lists) what symlinks inside the listed
// directories point to, outside the workspace too; Landlock does not stop
// stat.
var _ = register(&Program{
	Names: []string{"ls", "gls"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "ITw", NoArgShort: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1",
		ArgLong: []string{"ignore", "tabsize", "width", "block-size", "format", "hide", "indicator-style",
			"quoting-style", "sort", "time", "time-style"},
	},
	Rows: []Row{
		{Short: "L", Long: []string{"dereference"}, Why: whyFollow + "; ls -l shows where a link points"},
	},
})

var _ = register(&Program{
	Names: []string{"cp", "gcp"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "St",
		ArgLong: []string{"suffix", "target-directory"},
		Long:    []string{"dereference", "no-dereference", "recursive", "remove-destination"},
	},
	Rows: []Row{
		{Short: "L", Long: []string{"dereference"}, Why: whyFollow},
	},
})

// diff -r follows symlinks unless --no-dereference (the ExecTool's check).
var _ = register(&Program{
	Names: []string{"diff", "gdiff"},
	Check: checkDiff,
	Grammar: Grammar{
		Abbrev: true, ArgShort: "CDFILSUWxX",
		// --context[=NUM], --unified[=NUM] and --color[=WHEN] take a value
		// only attached (Long): written alone, the next word is an operand.
		ArgLong: []string{"ifdef", "show-function-line", "ignore-matching-lines", "label",
			"starting-file", "width", "exclude", "exclude-from", "from-file", "to-file", "line-format",
			"old-line-format", "new-line-format", "unchanged-line-format", "old-group-format", "new-group-format",
			"changed-group-format", "unchanged-group-format", "horizon-lines", "tabsize", "palette"},
		Long: []string{"recursive", "no-dereference", "brief", "report-identical-files", "context", "unified", "color"},
	},
})

// tree -l descends into the directories symlinks point to. Its long
// options are not abbreviated; -P, -I, -o, -H, -T, -L take a value.
var _ = register(&Program{
	Names:   []string{"tree"},
	Grammar: Grammar{ArgShort: "PIoHTL"},
	Rows: []Row{
		{Short: "l", Why: whyFollow},
	},
})

var _ = register(&Program{
	Names:   []string{"wc", "gwc"},
	Grammar: Grammar{Abbrev: true, ArgLong: []string{"files0-from", "total"}},
	Rows: []Row{
		{Long: []string{"files0-from"}, Why: whyNameList},
	},
})

var _ = register(&Program{
	Names: []string{"du", "gdu"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "BdtX",
		// --time[=WORD] takes a value only attached.
		ArgLong: []string{"files0-from", "block-size", "max-depth", "threshold", "time-style", "exclude",
			"exclude-from"},
		Long: []string{"time", "dereference"},
	},
	Rows: []Row{
		{Long: []string{"files0-from"}, Why: whyNameList},
		{Short: "L", Long: []string{"dereference"}, Why: whyFollow},
	},
})

// checkDiff refuses diff -r without --no-dereference: GNU diff follows
// symlinks while comparing directories.
func checkDiff(c *Command) *Refusal {
	return refuseRecursionFollowing(c, "diff", "r", []string{"recursive"}, "", []string{"no-dereference"}, "--no-dereference")
}
