package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/schema"
)

var initCmd = &command{
	name: "init",
	summary: "Start a tools directory: write tool.schema.json and one example descriptor into DIR (default ./tools).\n\n" +
		"Nothing is overwritten: when either file exists, init writes nothing and exits 1. It then prints\n" +
		"the go:generate line that compiles the directory's descriptors into typed Go tools.",
	usage: "[DIR]",
	run:   runInit,
}

// exampleName is the file name of the example descriptor init writes.
const exampleName = "list-files.tool.json"

// exampleDescriptor is the example init writes: a tool toolgen check
// accepts, whose $comment explains the parts (JSON has no comments).
const exampleDescriptor = `{
  "$schema": "./tool.schema.json",
  "$comment": "One tool per *.tool.json file. The model sees name, description and the arguments' descriptions, and fills the {slots} of command: each slot becomes exactly one argument (no shell runs), checked against its type, pattern and enum; a path slot must stay inside the workspace. Examples are checked by toolgen check and become a Go test with toolgen generate. Edit this file or copy it, then run: toolgen check",
  "name": "list_files",
  "description": "List the files of a directory in the workspace, with sizes and dates (ls -l DIR).",
  "command": "ls -l {dir}",
  "arguments": {
    "dir": {
      "type": "path",
      "description": "Directory to list, relative to the workspace",
      "default": "."
    }
  },
  "examples": [
    {"args": {}, "argv": ["ls", "-l", "."]},
    {"args": {"dir": "src"}, "argv": ["ls", "-l", "src"]},
    {"args": {"dir": "../etc"}, "rejects": "climbs out of the workspace"}
  ]
}
`

func runInit(c *command, env *cmdEnv, args []string) int {
	fset := c.newFlagSet(env)
	pos, code, done := c.parse(env, fset, args)
	if done {
		return code
	}
	if len(pos) > 1 {
		return c.usageErr(env, "want at most one directory, got %d arguments", len(pos))
	}
	dir := defaultToolsDir
	if len(pos) == 1 {
		dir = pos[0]
	}
	files := []struct {
		name string
		data []byte
	}{
		{schema.FileName, schema.Descriptor()},
		{exampleName, []byte(exampleDescriptor)},
	}
	// DIR (or a directory on its way) that is a file is a usage error, as a
	// --tools that is a file is: the argument cannot name a tools directory.
	if file := fileOnPath(dir); file != "" {
		return c.usageErr(env, "%s is a file, not a directory", file)
	}
	// Refuse before writing anything, so that init never leaves half a
	// directory behind or touches a file of the user's.
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if _, err := os.Lstat(path); err == nil {
			fmt.Fprintf(env.stderr, "toolgen init: %s already exists; init writes nothing over existing files (remove it, or name another directory)\n", path)
			return exitFailure
		} else if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(env.stderr, "toolgen init: %v\n", err)
			return exitFailure
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(env.stderr, "toolgen init: %v\n", err)
		return exitFailure
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		// O_EXCL: a file that appeared since the check is not overwritten
		// either, and a symlink planted there is not followed.
		out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, err = out.Write(f.data)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(env.stderr, "toolgen init: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(env.stdout, "wrote %s\n", path)
	}
	// The next steps: --allow-tools-in-workspace only where the directory
	// needs it, inside the current directory (the default workspace); a
	// directory outside it is the setup the README recommends.
	if within.Resolved(".", dir) {
		fmt.Fprintf(env.stdout, `
Next:
  toolgen check %[1]s
  toolgen call --tools %[1]s --allow-tools-in-workspace list_files '{}'
  toolgen serve --tools %[1]s --allow-tools-in-workspace

A tools directory inside the workspace (by default the current directory)
is loaded only with --allow-tools-in-workspace, since a model that can write
there could add tools; pass --workspace DIR to run commands elsewhere.
`, dir)
	} else {
		fmt.Fprintf(env.stdout, `
Next:
  toolgen check %[1]s
  toolgen call --tools %[1]s list_files '{}'
  toolgen serve --tools %[1]s --workspace .

Commands run in the workspace: the current directory, or --workspace DIR.
%[1]s lies outside it, so the model cannot add tools there.
`, dir)
	}
	fmt.Fprintf(env.stdout, `
To compile the descriptors into typed Go tools, add this line to a .go file
of the package in %[1]s (for example %[2]s) and run go generate ./...:

	//go:generate go run github.com/nanogpt/toolgen/cmd/toolgen generate
`, dir, filepath.Join(dir, "doc.go"))
	return exitOK
}

// fileOnPath returns dir, or the first of its parent directories, when it
// exists and is not a directory (so that dir cannot be created), else "".
func fileOnPath(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err == nil {
			if st.IsDir() {
				return ""
			}
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
