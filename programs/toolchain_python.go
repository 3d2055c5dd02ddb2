package programs

import (
	"path/filepath"
	"slices"
)

// Python: python3 -m pytest and python3 -m unittest, and the pytest
// command. The interpreter writes no bytecode into the workspace (the
// prefix is the workspace's build cache), reads no user site directory,
// and pip installs nothing without an index (PIP_NO_INDEX) unless the tool
// names hosts. pytest is a script run by python: its runs_code tools pass
// python's deny-list entry too.
var _ = registerToolchain(&Toolchain{
	Name:     "python",
	Programs: []string{"python*", "pytest*", "py.test"},
	Lifts:    []string{"python*", "pytest*", "py.test"},
	Form:     pythonForm,
	Reads:    pythonReads,
	Caches:   []string{"pycache", "pytest"},
	Env:      pythonEnv,
})

// pythonModules are the modules python -m may run in a runs_code tool:
// the test runners.
var pythonModules = []string{"pytest", "unittest"}

// pythonOptions are the interpreter options a runs_code template may give
// before -m: none of them runs or loads code.
var pythonOptions = []string{"-B", "-I", "-E", "-s", "-u", "-q", "-b", "-bb"}

// pythonForm accepts python [options] -m pytest|unittest … and pytest …,
// whose plugin option (-p, which imports the module it names) takes no
// slot and whose configuration and directory options take path slots.
func pythonForm(prog string, words []TemplateWord) string {
	rest, module := words, "pytest"
	if prog != "pytest" && prog != "py.test" {
		i := 0
		for i < len(words) && words[i].Fixed() && slices.Contains(pythonOptions, words[i].Text) {
			i++
		}
		if i+1 >= len(words) || words[i].Text != "-m" || !words[i+1].Fixed() || !slices.Contains(pythonModules, words[i+1].Text) {
			return "python may run in a runs_code tool only as a test runner: python3 [-B -I -E -s -u -q -b] -m pytest … or -m unittest … " +
				"(any other form runs code the command line names)"
		}
		rest, module = words[i+2:], words[i+1].Text
	}
	if module == "unittest" {
		return pathOptions(rest, "-s", "--start-directory", "-t", "--top-level-directory")
	}
	return firstOf(
		codeOptions(rest, "-p"),
		pathOptions(rest, "-c", "--config-file", "--rootdir", "--confcutdir"),
	)
}

// pythonReads are the interpreter's configuration directories in /etc
// (Debian's sitecustomize.py lives in /etc/python3.11 behind a symlink
// from /usr/lib).
func pythonReads(string, func(string) string) []string {
	dirs, _ := filepath.Glob("/etc/python3*")
	return dirs
}

// pythonEnv keeps python's bytecode and pytest's cache out of the
// workspace and pip without an index unless the tool names hosts.
func pythonEnv(b Build) []string {
	env := []string{
		"PYTHONPYCACHEPREFIX=" + filepath.Join(b.Cache, "pycache"),
		"PYTHONNOUSERSITE=1",
		"PYTHONSTARTUP=",
		"PYTHONPATH=",
		"PIP_CONFIG_FILE=/dev/null",
		"PYTEST_ADDOPTS=-p no:cacheprovider",
	}
	if !b.Online {
		env = append(env, "PIP_NO_INDEX=1")
	}
	return env
}
