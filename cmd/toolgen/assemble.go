package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// assemble builds the preset the flags describe. A --tools or --workspace
// that names no directory is a usage error (2). Problems with single
// descriptor files are printed to stderr and the rest is used; a nil preset
// comes with the exit code to return. An --only name that matches no tool is
// a usage error (2) naming the tools there are, or 3 when a broken
// descriptor file may be the one that defines it.
func assemble(c *command, env *cmdEnv, f *toolFlags) (*preset.Preset, int) {
	if err := f.checkDirs(); err != nil {
		return nil, c.usageErr(env, "%v", err)
	}
	p, err := preset.New(append(f.options(), preset.WithEgressOptions(env.egress...))...)
	var sel *preset.SelectionError
	if errors.As(err, &sel) {
		// No preset to ask (preset.ToolsDirRefused): the refusal is told by
		// its 613s, which all carry the reason, naming the directory.
		reason := ""
		if dir := f.toolsDir(); dir != "" && !f.toolsInWorkspace {
			reason = refusalIn(sel.Problems, dir)
		}
		printDescriptorProblems(env, c, reason, sel.Problems)
		fmt.Fprintf(env.stderr, "%s: --only: %v\n", f.cmdName, sel)
		if f.execAllow == nil && containsName(sel.Unknown, "exec") {
			fmt.Fprintf(env.stderr, "the exec tool exists only when --exec-allow grants binaries, e.g. --exec-allow ls,git\n")
		}
		if reason != "" {
			refusalHint(env, f.toolsDir())
		}
		if len(sel.Problems) > 0 {
			return nil, exitSpec
		}
		return nil, exitUsage
	}
	if err != nil {
		// A 613 about a file or directory (a tools directory others can
		// write) is printed as every other problem, FILE: error 613: ...,
		// without the package path that wrapped it.
		var te *tool.Error
		if errors.As(err, &te) && te.File != "" {
			printProblems(env.stderr, []error{te})
		} else {
			fmt.Fprintf(env.stderr, "toolgen %s: %v\n", c.name, err)
		}
		return nil, exitFor(err)
	}
	reason, _ := p.ToolsDirRefused()
	printDescriptorProblems(env, c, reason, p.Problems)
	return p, exitOK
}

// printDescriptorProblems prints each 613 problem on its own line, like go
// vet, except that the files of a tools directory refused as a whole (it
// lies inside the workspace; reason is preset.ToolsDirRefused's, "" when
// it was not refused) are summed up in one line naming the directory, the
// reason and the flag: the files were not read, so one line per file would
// only repeat the reason. list says why no tools came from the directory
// even when it holds no file.
func printDescriptorProblems(env *cmdEnv, c *command, reason string, problems []error) {
	if reason == "" {
		printProblems(env.stderr, problems)
		return
	}
	var rest []error
	n, dir := 0, ""
	for _, perr := range problems {
		for _, e := range tool.Flatten(perr) {
			var te *tool.Error
			if errors.As(e, &te) && te.Msg == reason && te.File != "" {
				n++
				dir = filepath.Dir(te.File)
				continue
			}
			rest = append(rest, e)
		}
	}
	printProblems(env.stderr, rest)
	switch {
	case n > 0:
		files := "descriptor files"
		if n == 1 {
			files = "descriptor file"
		}
		sum := &tool.Error{Code: tool.CodeSpec, File: dir, Msg: fmt.Sprintf("%d %s %s", n, files, reason)}
		fmt.Fprintln(env.stderr, sum.Error())
	case c.name == "list":
		fmt.Fprintf(env.stderr, "toolgen list: no descriptor tools: %s\n", strings.TrimPrefix(reason, "not loaded: "))
	}
}

// refusalIn returns the reason of the 613s that refuse the files of the
// tools directory dir as a whole (see preset.ToolsDirRefused), or "".
func refusalIn(problems []error, dir string) string {
	prefix := "not loaded: the tools directory " + dir + " lies inside the workspace"
	for _, perr := range problems {
		for _, e := range tool.Flatten(perr) {
			var te *tool.Error
			if errors.As(e, &te) && strings.HasPrefix(te.Msg, prefix) {
				return te.Msg
			}
		}
	}
	return ""
}

// refusalHint says that the tools directory dir was not loaded, and how to
// load it, after a tool name that matched nothing.
func refusalHint(env *cmdEnv, dir string) {
	fmt.Fprintf(env.stderr, "the tools directory %s was not loaded: it lies inside the workspace; "+
		"pass --allow-tools-in-workspace to load it (only for tools you wrote or reviewed)\n", dir)
}

func containsName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// unknownTool reports a tool name that is not in the preset: exit 3 when
// descriptor problems may explain it, 2 otherwise. When the tools directory
// dir was refused as a whole, it says so: the tool may be one of its files.
func unknownTool(env *cmdEnv, c *command, p *preset.Preset, dir, name string) int {
	var names []string
	for _, t := range p.Registry.Tools() {
		names = append(names, t.Name())
	}
	sort.Strings(names)
	fmt.Fprintf(env.stderr, "toolgen %s: unknown tool %q; available: %s\n", c.name, name, strings.Join(names, ", "))
	if strings.HasPrefix(strings.TrimSpace(name), "{") {
		fmt.Fprintf(env.stderr, "the tool's NAME comes first, then its JSON_ARGS: toolgen %s NAME '{...}'\n", c.name)
	} else if best := closest(strings.ReplaceAll(strings.ToLower(name), "-", "_"), names); best != "" && best != name {
		fmt.Fprintf(env.stderr, "did you mean %s?\n", best)
	}
	if name == "exec" {
		fmt.Fprintf(env.stderr, "the exec tool exists only when --exec-allow grants binaries, e.g. --exec-allow ls,git\n")
	}
	if _, refused := p.ToolsDirRefused(); refused {
		refusalHint(env, dir)
	}
	if len(p.Problems) > 0 {
		return exitSpec
	}
	return exitUsage
}
