package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var checkCmd = &command{
	name: "check",
	summary: "Validate *.tool.json descriptors with the validator the runtime uses.\n\n" +
		"Each DIR is checked as the tools directory it would be when served: every *.tool.json in it\n" +
		"(not in subdirectories), name conflicts between its files and with the built-in tools\n" +
		"included, and each descriptor's examples. A FILE is checked the same way, alone with the\n" +
		"other FILEs of its directory; with no argument, ./tools is checked. Every problem of every file is\n" +
		"printed to stderr as FILE:LINE:COL: error 613: message (FILE: error 613: message where there is\n" +
		"no position), paths relative to the current directory; --error-format json or github prints\n" +
		"them for machines or as GitHub Actions annotations. A clean check prints nothing. Exit 0 when\n" +
		"all are valid, 3 otherwise.\n\n" +
		"A descriptor whose \"network\" is true (every host) and whose command names fixed URLs\n" +
		"(https://api.github.com/...) gets a note suggesting the hosts list that would let it reach only\n" +
		"those: FILE:LINE:COL: note: ... (a GitHub notice with --error-format github; json prints problems\n" +
		"only). In a tools directory the user trusted (toolgen trust), a valid descriptor that list, call\n" +
		"and serve would not load with the same --workspace (added or changed since) gets a note naming\n" +
		"toolgen trust: FILE: note: .... Notes do not change the exit code.",
	usage: "[--workspace DIR] [--error-format text|json|github] [DIR|FILE...] (default ./tools)",
	run:   runCheck,
}

// checkTarget is one directory to check, with the files named in it (nil:
// all of them).
type checkTarget struct {
	dir   string
	files []string
}

func runCheck(c *command, env *cmdEnv, args []string) int {
	fs := c.newFlagSet(env)
	workspace := fs.String("workspace", ".", "directory that path examples are judged against")
	format := formatText
	fs.Var(&format, "error-format", errorFormatUsage)
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if _, err := dirFlag("workspace", *workspace); err != nil {
		return c.usageErr(env, "%v", err)
	}
	defaulted := len(pos) == 0
	if defaulted {
		pos = []string{defaultToolsDir}
	}
	printer := newProblemPrinter(format)
	targets, err := checkTargets(pos)
	if err != nil {
		if defaulted {
			return c.usageErr(env, "%v (with no argument, check checks ./%s: name the directories to check, or start one with toolgen init)", err, defaultToolsDir)
		}
		return c.usageErr(env, "%v", err)
	}
	invalid := false
	for _, t := range targets {
		problems, err := checkDir(*workspace, t)
		if err != nil {
			if tool.CodeOf(err) == tool.CodeSpec && format != formatText {
				printer.print(env.stderr, []error{err})
				return exitSpec
			}
			fmt.Fprintf(env.stderr, "toolgen check: %v\n", err)
			return exitFor(err)
		}
		printer.print(env.stderr, problems)
		printer.printNotes(env.stderr, specNotes(t))                        // check_notes.go
		printer.printNotes(env.stderr, trustNotes(*workspace, t, problems)) // check_trust.go
		invalid = invalid || len(problems) > 0
		if t.files == nil {
			warnNoDescriptors(env, t.dir)
		}
	}
	if invalid {
		return exitSpec
	}
	return exitOK
}

// checkDir checks the descriptors of t as the tools directory they would be
// when served, with examples judged against workspace, and returns the 613s
// of single files (nil: all valid). An error means nothing could be
// checked (a bad workspace). It is toolgen check, and generate runs it too,
// so that generate refuses exactly what check refuses.
func checkDir(workspace string, t checkTarget) ([]error, error) {
	opts := []loader.Option{loader.WithoutCreate()}
	if t.files != nil {
		opts = append(opts, loader.WithFiles(t.files...))
	}
	// check runs nothing: it judges the descriptors wherever they lie, so
	// the rule that a tools directory inside the workspace is not loaded
	// (preset.WithToolsInWorkspace) does not apply to it.
	p, err := preset.New(preset.WithWorkspace(workspace), preset.WithToolsInWorkspace(), preset.WithToolsDir(t.dir, opts...))
	if err != nil {
		return nil, err
	}
	return p.Problems, nil
}

// checkTargets groups the arguments by directory, in the order given: a
// directory stands for all its descriptors, a file for itself.
func checkTargets(args []string) ([]checkTarget, error) {
	var targets []checkTarget
	index := map[string]int{}
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			return nil, fmt.Errorf("%s: no such file or directory", arg)
		}
		dir, file := filepath.Clean(arg), ""
		if !st.IsDir() {
			if !strings.HasSuffix(arg, tool.DescriptorExt) {
				return nil, fmt.Errorf("%s: not a directory or a *%s file", arg, tool.DescriptorExt)
			}
			dir, file = filepath.Dir(arg), filepath.Base(arg)
		}
		i, seen := index[dir]
		if !seen {
			i = len(targets)
			index[dir] = i
			targets = append(targets, checkTarget{dir: dir, files: []string{}})
		}
		switch {
		case file == "":
			targets[i].files = nil // the whole directory
		case targets[i].files != nil:
			targets[i].files = append(targets[i].files, file)
		}
	}
	return targets, nil
}

// warnNoDescriptors warns on stderr when dir holds no descriptor file, so
// that a check of the wrong directory, or of files not named *.tool.json,
// is not mistaken for a clean one.
func warnNoDescriptors(env *cmdEnv, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // the check itself reported it
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), tool.DescriptorExt) {
			return
		}
	}
	fmt.Fprintf(env.stderr, "toolgen check: warning: no *%s files in %s; nothing was checked%s\n", tool.DescriptorExt, dir, misnamed(dir))
}

// misnamed names the JSON files of dir that may be descriptors under
// another name (not tool.schema.json), as " (a.json, b.json: a descriptor's
// file name ends in .tool.json)", or "" when there are none.
func misnamed(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var other []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, tool.DescriptorExt) && name != "tool.schema.json" && !e.IsDir() {
			other = append(other, name)
		}
	}
	if len(other) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s: a descriptor's file name ends in %s)", strings.Join(other, ", "), tool.DescriptorExt)
}
