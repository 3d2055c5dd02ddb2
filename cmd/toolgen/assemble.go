package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/nanogpt/toolgen/runtime/preset"
)

// assemble builds the preset the flags describe. Problems with single
// descriptor files are printed to stderr and the rest is used; a nil preset
// comes with the exit code to return. An --only name that matches no tool is
// a usage error (2) naming the tools there are, or 3 when a broken
// descriptor file may be the one that defines it.
func assemble(env *cmdEnv, f *toolFlags) (*preset.Preset, int) {
	p, err := preset.New(f.options()...)
	var sel *preset.SelectionError
	if errors.As(err, &sel) {
		printProblems(env.stderr, sel.Problems)
		fmt.Fprintf(env.stderr, "%s: --only: %v\n", f.cmdName, sel)
		if f.execAllow == nil && containsName(sel.Unknown, "exec") {
			fmt.Fprintf(env.stderr, "the exec tool exists only when --exec-allow grants binaries, e.g. --exec-allow ls,git\n")
		}
		if len(sel.Problems) > 0 {
			return nil, exitSpec
		}
		return nil, exitUsage
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen: %v\n", err)
		return nil, exitFor(err)
	}
	printProblems(env.stderr, p.Problems)
	return p, exitOK
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
// descriptor problems may explain it, 2 otherwise.
func unknownTool(env *cmdEnv, c *command, p *preset.Preset, name string) int {
	var names []string
	for _, t := range p.Registry.Tools() {
		names = append(names, t.Name())
	}
	sort.Strings(names)
	fmt.Fprintf(env.stderr, "toolgen %s: unknown tool %q; available: %s\n", c.name, name, strings.Join(names, ", "))
	if name == "exec" {
		fmt.Fprintf(env.stderr, "the exec tool exists only when --exec-allow grants binaries, e.g. --exec-allow ls,git\n")
	}
	if len(p.Problems) > 0 {
		return exitSpec
	}
	return exitUsage
}
