package programs

import "github.com/nanogpt/toolgen/internal/sedscript"

// sed: its script is code (GNU sed's e command and the e flag of s run shell
// commands; r, R, w, W and the w flag of s read and write files): a
// template's script is judged by sedscript.Judge (the template check), and so is
// every script an ExecTool command line gives.

// whySedScript is why a sed script is code.
const whySedScript = "a sed script is code: GNU sed's e command and the e flag of s run shell commands, and r, R, w, W and the w flag of s read and write files"

var _ = register(&Program{
	Names: []string{"sed", "gsed"},
	Check: checkSed,
	Grammar: Grammar{
		Abbrev: true, ArgShort: "efl", OptShort: "i", NoArgShort: "nrEsuzb",
		ArgLong: []string{"expression", "file", "line-length"},
		Long: []string{"quiet", "silent", "debug", "follow-symlinks", "in-place", "posix", "regexp-extended",
			"separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "help", "version", "binary"},
	},
	Script: &Script{Judge: sedscript.Judge, Danger: "erRwW", Why: whySedScript, Inline: "-e SCRIPT"},
	Code: []CodeOption{
		// The ExecTool reads every -e script with sedscript.Judge (its check).
		{Short: "e", Long: []string{"expression"}, Kind: CodeScript, Why: whySedScript},
		{Short: "f", Long: []string{"file"}, Kind: CodeScriptFile, Why: "names the file sed reads its script from, and a sed script is code",
			ExecWhy: "it reads the script from a file, which cannot be checked; give the script with -e"},
	},
	Rows: []Row{
		{Short: "i", Long: []string{"in-place"}, Why: "it edits files in place; here sed may only read (print with -n and p)"},
	},
})

// sed scripts are code: GNU sed's e command and the e flag of s run shell
// commands, and r, R, w, W and the w flag of s read and write files named in
// the script. checkSed finds the scripts (every -e/--expression value, or
// the first operand when there is none and no -f/--file names a script
// file) and reads each with
// sedscript.Judge, the parser the validator uses for a template's sed
// scripts too. A script the parser cannot read completely is refused, since
// it cannot be checked.

func checkSed(c *Command) *Refusal {
	scripts := c.options("e", "expression")
	if len(scripts) > 0 {
		for _, t := range scripts {
			if reason := sedscript.Judge(t.value); reason != "" {
				return refuse(t.word, "sed: the script %q is refused: %s", t.value, reason)
			}
			c.script(t.word)
			if !t.inWord {
				c.script(t.word + 1)
			}
		}
		return nil
	}
	if len(c.options("f", "file")) > 0 {
		return nil // the script is the file's (refused by its row); the operands are input files
	}
	ops := c.operands()
	if len(ops) == 0 {
		return nil
	}
	script := c.arg(ops[0].word)
	if reason := sedscript.Judge(script); reason != "" {
		return refuse(ops[0].word, "sed: the script %q is refused: %s", script, reason)
	}
	c.script(ops[0].word)
	return nil
}
