package main

import (
	"fmt"

	"github.com/nanogpt/toolgen/runtime/explain"
)

var explainCmd = &command{
	name: "explain",
	summary: "Dry run: show the argv a call would run, its limits, confinement and each defence's decision; run nothing.\n\n" +
		"NAME and JSON_ARGS are as for toolgen call (JSON_ARGS in single quotes; without it, {}). Exit 0 when the\n" +
		"call would run, 4 when a value would be rejected (614, shown in the verdict).",
	usage: toolFlagsUsage + " " + runFlagsUsage + " NAME 'JSON_ARGS'",
	run:   runExplain,
}

// runExplain prints the dry-run report; exit 0 when the call would run, 4
// when it would be rejected (614).
func runExplain(c *command, env *cmdEnv, args []string) int {
	target, code, done := resolveCall(c, env, args, false)
	if done {
		return code
	}
	r := explain.Call(target.entry, target.preset.Kernel, target.args)
	if err := r.Write(env.stdout); err != nil {
		return exitFailure
	}
	if r.Err != nil {
		if hint := jsonArgsHint(c, target.entry.Tool, target.args); hint != "" {
			fmt.Fprintln(env.stderr, hint)
		}
		return exitFor(r.Err)
	}
	return exitOK
}
