package exec

import "github.com/nanogpt/toolgen/programs"

// sed scripts are code: GNU sed's e command and the e flag of s run shell
// commands, and r, R, w, W and the w flag of s read and write files named in
// the script. checkSed finds the scripts (every -e/--expression value, or
// the first operand when there is none) and reads each with
// programs.SedScript, the parser the validator uses for a template's sed
// scripts too. A script the parser cannot read completely is refused, since
// it cannot be checked.

func checkSed(c *cmdline) *refusal {
	scripts := c.options("e", "expression")
	if len(scripts) > 0 {
		for _, t := range scripts {
			if reason := programs.SedScript(t.value); reason != "" {
				return refuse(t.word, "sed: the script %q is refused: %s", t.value, reason)
			}
			c.script(t.word)
			if !t.inWord {
				c.script(t.word + 1)
			}
		}
		return nil
	}
	ops := c.operands()
	if len(ops) == 0 {
		return nil
	}
	script := c.arg(ops[0].word)
	if reason := programs.SedScript(script); reason != "" {
		return refuse(ops[0].word, "sed: the script %q is refused: %s", script, reason)
	}
	c.script(ops[0].word)
	return nil
}
