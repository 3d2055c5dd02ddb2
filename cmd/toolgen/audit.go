package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/nanogpt/toolgen/runtime/audit"
)

var auditCmd = &command{
	name:    "audit",
	summary: "Summarise audit logs written by serve --audit: calls per tool, refusals per rule, slowest calls, processes killed.",
	usage:   "[--top N] [--json] FILE...",
	run:     runAudit,
}

func runAudit(c *command, env *cmdEnv, args []string) int {
	fs := c.newFlagSet(env)
	top := fs.Int("top", 10, "how many of the slowest calls to show")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) == 0 {
		return c.usageErr(env, "no log file given (e.g. toolgen audit audit.jsonl.1 audit.jsonl, oldest first)")
	}
	if *top < 0 {
		return c.usageErr(env, "--top %d: want 0 or more", *top)
	}
	readers := make([]io.Reader, 0, len(pos))
	for _, name := range pos {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(env.stderr, "toolgen audit: %v\n", err)
			return exitFailure
		}
		defer f.Close()
		readers = append(readers, f)
	}
	s, err := audit.Summarize(io.MultiReader(readers...), *top)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen audit: %v\n", err)
		return exitFailure
	}
	if *asJSON {
		// Empty lists are [] in JSON, not null, so a consumer can iterate
		// them without a special case.
		if s.Slowest == nil {
			s.Slowest = []audit.Record{}
		}
		if s.Killed == nil {
			s.Killed = []audit.Record{}
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(s)
	} else {
		err = s.WriteText(env.stdout)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen audit: %v\n", err)
		return exitFailure
	}
	return exitOK
}
