package programs

// sed: its script is code (GNU sed's e command and the e flag of s run shell
// commands; r, R, w, W and the w flag of s read and write files): a
// template's script is judged by SedScript (package validate), and so is
// every script an ExecTool command line gives.

// whySedScript is why a sed script is code.
const whySedScript = "a sed script is code: GNU sed's e command and the e flag of s run shell commands, and r, R, w, W and the w flag of s read and write files"

var _ = register(&Program{
	Names: []string{"sed", "gsed"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "efl", OptShort: "i", NoArgShort: "nrEsuzb",
		ArgLong: []string{"expression", "file", "line-length"},
		Long: []string{"quiet", "silent", "debug", "follow-symlinks", "in-place", "posix", "regexp-extended",
			"separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "help", "version", "binary"},
	},
	Script: &Script{Judge: SedScript, Danger: "erRwW", Why: whySedScript, Inline: "-e SCRIPT"},
	Code: []CodeOption{
		// The ExecTool reads every -e script with SedScript (its check).
		{Short: "e", Long: []string{"expression"}, Kind: CodeScript, Why: whySedScript},
		{Short: "f", Long: []string{"file"}, Kind: CodeScriptFile, Why: "names the file sed reads its script from, and a sed script is code",
			ExecWhy: "it reads the script from a file, which cannot be checked; give the script with -e"},
	},
	Rows: []Row{
		{Short: "i", Long: []string{"in-place"}, Why: "it edits files in place; here sed may only read (print with -n and p)"},
	},
})
