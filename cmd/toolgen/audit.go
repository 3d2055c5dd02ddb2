package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/runtime/audit"
)

var auditCmd = &command{
	name: "audit",
	summary: "Summarise audit logs written by serve --audit: calls per tool, refusals per rule, slowest calls, processes killed.\n\n" +
		"With --verify, check the log's hash chain instead (each line carries the digest of the line before it):\n" +
		"exit 0 when every line follows the one before it (the last line's digest, the head, is printed: keep it\n" +
		"elsewhere to check later that nothing up to it changed), exit 1 naming the first edited, removed,\n" +
		"inserted or reordered line on stderr, or when some lines carry no chain (written by an older toolgen).\n" +
		"Give a rotated log's files oldest first: audit.jsonl.2 audit.jsonl.1 audit.jsonl.",
	usage: "[--top N] [--json] [--verify] FILE...",
	run:   runAudit,
}

func runAudit(c *command, env *cmdEnv, args []string) int {
	fs := c.newFlagSet(env)
	top := fs.Int("top", 10, "how many of the slowest calls to show")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	verify := fs.Bool("verify", false, "check the hash chain of the log's lines instead of summarising it (exit 1 at the first line that does not follow)")
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
	named := make([]audit.Named, 0, len(pos))
	for _, name := range pos {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(env.stderr, "toolgen audit: %v\n", err)
			return exitFailure
		}
		defer f.Close()
		readers = append(readers, f)
		named = append(named, audit.Named{Name: name, R: f})
	}
	if *verify {
		return verifyAudit(env, named)
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

// verifyAudit checks the chain of the log files, oldest first: exit 0 and
// what was verified on stdout, or exit 1 and why not on stderr (stdout
// empty: a non-zero exit writes no result).
func verifyAudit(env *cmdEnv, files []audit.Named) int {
	v, err := audit.Verify(files, 0)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen audit: %v\n", err)
		return exitFailure
	}
	if v.Break != nil {
		fmt.Fprintf(env.stderr, "toolgen audit: chain broken at %s\n", escape.Unprintable(v.Break.Error(), ""))
		return exitFailure
	}
	if v.Unchained > 0 {
		fmt.Fprintf(env.stderr, "toolgen audit: the first %d of %d lines carry no chain (written before toolgen chained its audit lines): they cannot be verified", v.Unchained, v.Lines)
		if v.Chained > 0 {
			fmt.Fprintf(env.stderr, "; the %d after them follow one another", v.Chained)
		}
		fmt.Fprintln(env.stderr)
		return exitFailure
	}
	fmt.Fprintf(env.stdout, "verified: %d lines, each follows the one before it\n", v.Lines)
	if v.Continues {
		fmt.Fprintf(env.stdout, "the first line continues from a line not given (an earlier file of the log: give it first to check the join)\n")
	}
	if v.Head != "" {
		fmt.Fprintf(env.stdout, "head: %s\n", v.Head)
	}
	return exitOK
}
