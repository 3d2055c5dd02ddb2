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
		"Give a rotated log's files oldest first: audit.jsonl.2 audit.jsonl.1 audit.jsonl. A log must start at its\n" +
		"first line, or at the line a rotation (or a reopening) starts a file with: one whose first lines were cut\n" +
		"fails. Lines cut from the end leave a shorter chain that still verifies: give --head-digest with a head\n" +
		"printed earlier, and verification fails unless the chain still passes through that line.",
	usage: "[--top N] [--json] [--verify [--head-digest sha256:HEX]] FILE...",
	run:   runAudit,
}

func runAudit(c *command, env *cmdEnv, args []string) int {
	fs := c.newFlagSet(env)
	top := fs.Int("top", 10, "how many of the slowest calls to show")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	verify := fs.Bool("verify", false, "check the hash chain of the log's lines instead of summarising it (exit 1 at the first line that does not follow)")
	headDigest := fs.String("head-digest", "", "with --verify: a head printed by an earlier --verify; fail unless the chain passes through that line (lines cut from the end)")
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if *headDigest != "" && !*verify {
		return c.usageErr(env, "--head-digest checks the chain: give --verify too")
	}
	if *headDigest != "" && !audit.IsDigest(*headDigest) {
		return c.usageErr(env, "--head-digest %q: want a head as --verify prints it (sha256: and 64 lower-case hex digits)", *headDigest)
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
		return verifyAudit(env, named, *headDigest)
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
func verifyAudit(env *cmdEnv, files []audit.Named, head string) int {
	v, err := audit.VerifyThrough(files, 0, head)
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
	if head != "" && v.Through == nil {
		fmt.Fprintf(env.stderr, "toolgen audit: no line of the chain has the digest %s: the log no longer reaches the head recorded earlier "+
			"(lines were cut from its end, or the head is another log's); its %d lines follow one another up to %s\n", head, v.Lines, v.Head)
		return exitFailure
	}
	fmt.Fprintf(env.stdout, "verified: %d lines, each follows the one before it\n", v.Lines)
	if v.Through != nil {
		fmt.Fprintf(env.stdout, "passes through the head given at %s:%d\n", v.Through.File, v.Through.Line)
	}
	if v.Continues {
		fmt.Fprintf(env.stdout, "the first line continues from a line not given (an earlier file of the log: give it first to check the join)\n")
	}
	if v.Head != "" {
		fmt.Fprintf(env.stdout, "head: %s\n", v.Head)
	}
	return exitOK
}
