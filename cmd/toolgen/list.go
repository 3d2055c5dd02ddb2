package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/nanogpt/toolgen/internal/escape"
)

var listCmd = &command{
	name: "list",
	summary: "List the tools that would be served: name, form (builtin, descriptor, exec) and description.\n\n" +
		"list is a report: it shows what call and serve would serve. A descriptor file that cannot be\n" +
		"loaded is skipped, as they skip it: its problems are printed to stderr as\n" +
		"FILE:LINE:COL: error 613: ..., the other tools are listed on stdout, and the exit code is 3.",
	usage: toolFlagsUsage + " [--json]",
	run:   runList,
}

// listEntry is one tool in list --json.
type listEntry struct {
	Name        string `json:"name"`
	Form        string `json:"form"`
	Description string `json:"description"`
	Source      string `json:"source"`
}

func runList(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	fs := c.newFlagSet(env)
	f.register(fs, false)
	asJSON := fs.Bool("json", false, "print a JSON array of {name, form, description, source}")
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return unexpectedArg(c, env, pos[0], "")
	}
	p, code := assemble(c, env, &f)
	if p == nil {
		return code
	}
	entries := []listEntry{}
	for _, e := range p.Registry.Entries() {
		entries = append(entries, listEntry{Name: e.Tool.Name(), Form: string(e.Form), Description: e.Tool.Description(), Source: e.Source})
	}
	var out bytes.Buffer
	if *asJSON {
		data, err := json.MarshalIndent(entries, "", "  ")
		if err != nil {
			fmt.Fprintf(env.stderr, "toolgen list: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(&out, "%s\n", data)
	} else {
		tw := tabwriter.NewWriter(&out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tFORM\tDESCRIPTION")
		for _, e := range entries {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Name, e.Form, escape.Unprintable(strings.Join(strings.Fields(e.Description), " "), ""))
		}
		tw.Flush()
	}
	env.stdout.Write(out.Bytes())
	if len(p.Problems) > 0 {
		// list is a report, not an artifact: it shows the tools that would
		// be served, as call and serve serve them, and the skipped files'
		// 613s are on stderr; the exit code says that some were skipped.
		return exitSpec
	}
	return exitOK
}
