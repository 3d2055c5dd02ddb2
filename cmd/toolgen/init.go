package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/trust"
	"github.com/nanogpt/toolgen/schema"
)

var initCmd = &command{
	name: "init",
	summary: "Start a tools directory: write tool.schema.json and one example descriptor into DIR (default ./tools).\n\n" +
		"Nothing is overwritten: when either file exists, init writes nothing and exits 1. In a directory inside\n" +
		"the current directory (the default workspace) the descriptor init wrote is then trusted as written\n" +
		"(toolgen trust), so later commands load it without --allow-tools-in-workspace until it changes; a\n" +
		"descriptor that was there before init (a cloned repository's) stays untrusted, and init names it:\n" +
		"review it, then run toolgen trust DIR. It then prints the go:generate line that compiles the\n" +
		"directory's descriptors into typed Go tools.",
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
		initTrust(env, dir, map[string][]byte{exampleName: []byte(exampleDescriptor)})
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

// initTrust trusts the descriptors init wrote into a tools directory inside
// the workspace (written: name → bytes) and prints the next steps. A
// descriptor that was there before stays untrusted, and is named: init
// vouches only for what it wrote. When it cannot trust, it says how to load
// the directory instead.
func initTrust(env *cmdEnv, dir string, written map[string][]byte) {
	path, err := trust.DefaultPath()
	var untrusted []string
	if err == nil {
		_, untrusted, err = trust.Open(path).TrustWritten(dir, written)
	}
	if err != nil {
		fmt.Fprintf(env.stdout, `
%[1]s lies inside the workspace (by default the current directory), and
could not be trusted (%[2]v). Load it with:
  toolgen trust %[1]s        (once you can), or
  toolgen call --tools %[1]s --allow-tools-in-workspace list_files '{}'
`, dir, err)
		return
	}
	fmt.Fprintf(env.stdout, `
trusted %[1]s as written (in %[2]s): a tools directory inside the
workspace loads only as it was trusted, since a model that can write there
could add tools. After editing a descriptor, review it and run
toolgen trust %[1]s again.
`, dir, path)
	if len(untrusted) > 0 {
		fmt.Fprintf(env.stdout, `
not trusted: %[2]s
init trusts only the files it wrote; these were in %[1]s already (a cloned
repository's tools, perhaps) and load only once you have read them and run:
  toolgen trust %[1]s
`, dir, strings.Join(untrusted, ", "))
	}
	fmt.Fprintf(env.stdout, `
Next:
  toolgen check %[1]s
  toolgen call --tools %[1]s list_files '{}'
  toolgen serve --tools %[1]s
`, dir)
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
