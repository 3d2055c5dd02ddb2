package main

import (
	"encoding/json"

	"github.com/nanogpt/toolgen/runtime/explain"
)

var explainCmd = &command{
	name:    "explain",
	summary: "Dry run: show the argv a call would run, its limits, confinement and each defence's decision; run nothing.",
	usage:   "[--tools DIR] [--workspace DIR] [--exec-allow BIN,...] [--timeout DUR] [--confine MODE] NAME 'JSON_ARGS'",
	run:     runExplain,
}

// runExplain prints the dry-run report; exit 0 when the call would run, 4
// when it would be rejected (614).
func runExplain(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	fs := c.newFlagSet(env)
	f.register(fs, true)
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) < 1 || len(pos) > 2 {
		return c.usageErr(env, "want a tool name and one JSON argument object")
	}
	name, raw := pos[0], "{}"
	if len(pos) == 2 {
		raw = pos[1]
	}
	if !json.Valid([]byte(raw)) {
		return c.usageErr(env, "JSON_ARGS is not valid JSON: %s", raw)
	}
	p, code := assemble(env, &f)
	if p == nil {
		return code
	}
	entry, ok := p.Registry.Lookup(name)
	if !ok {
		return unknownTool(env, c, p, name)
	}
	r := explain.Call(entry, p.Kernel, json.RawMessage(raw))
	if err := r.Write(env.stdout); err != nil {
		return exitFailure
	}
	if r.Err != nil {
		return exitFor(r.Err)
	}
	return exitOK
}
