package exec

import (
	"context"
	"fmt"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// gitBuiltins returns the built-in commands of the git at path, as that git
// lists them (git --list-cmds=builtins), asked once per binary and cached.
// A built-in always wins over an alias of the same name, so letting only
// built-ins through also keeps out aliases ("!cmd" aliases run shell
// commands) and external git-* programs (on git 2.39, refs, bisect and
// submodule are not built-ins). Built-ins that run programs are refused by
// a row of gitRules or by checkGit, which say why.
func gitBuiltins(path string) ([]string, error) {
	if v, ok := builtinsCache.Load(path); ok {
		e := v.(builtinsEntry)
		return e.names, e.err
	}
	names, err := listBuiltins(path)
	builtinsCache.Store(path, builtinsEntry{names, err})
	return names, err
}

type builtinsEntry struct {
	names []string
	err   error
}

var builtinsCache sync.Map // binary path → builtinsEntry

// listBuiltins runs git --list-cmds=builtins with an empty environment (no
// configuration is read for it).
func listBuiltins(path string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := osexec.CommandContext(ctx, path, "--list-cmds=builtins")
	cmd.Env = []string{"PATH=" + kernel.DefaultPath, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	cmd.Dir = "/"
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s --list-cmds=builtins: %w", path, err)
	}
	names := strings.Fields(string(out))
	if len(names) == 0 {
		return nil, fmt.Errorf("%s --list-cmds=builtins listed nothing", path)
	}
	slices.Sort(names)
	return names, nil
}

// git config reads and writes; only its reading forms are let through.
var (
	gitConfigReadLong  = []string{"get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "list"}
	gitConfigWriteLong = []string{"add", "replace-all", "unset", "unset-all", "rename-section", "remove-section", "edit"}
	gitConfigWriteSubs = []string{"set", "unset", "rename-section", "remove-section", "edit"}
)

// checkGit applies what git's rows cannot express: the subcommand
// allowlist, read-only git config, bisect run, submodule foreach and the
// transports that run programs.
func checkGit(c *cmdline) *refusal {
	for _, t := range c.tokens {
		v := c.arg(t.word)
		if t.kind == tokOption && t.hasValue {
			v = t.value
		}
		if lv := strings.ToLower(v); strings.HasPrefix(lv, "ext::") || strings.HasPrefix(lv, "fd::") {
			return refuse(t.word, "git: %q is refused: the ext:: and fd:: transports run a program", v)
		}
	}
	if c.sub == "" {
		return nil
	}
	builtins, err := gitBuiltins(c.path)
	if err != nil {
		return refuse(c.subAt, "git: cannot tell which subcommands are built-ins (%v); every subcommand is refused", err)
	}
	if _, found := slices.BinarySearch(builtins, c.sub); !found {
		return refuse(c.subAt, "git: %q is not a built-in of this git; aliases and external git-* "+
			"programs are refused, since they can run any program", c.sub)
	}
	if r := c.gitWritesGitDir(); r != nil {
		return r
	}
	ops := c.subOperands()
	switch c.sub {
	case "config":
		return c.gitConfig(ops)
	case "bisect":
		if len(ops) > 0 && c.arg(ops[0].word) == "run" {
			return refuse(ops[0].word, "git: bisect run is refused: it runs a command at every step")
		}
	case "submodule":
		for _, o := range ops {
			if c.arg(o.word) == "foreach" {
				return refuse(o.word, "git: submodule foreach is refused: it runs a shell command in every submodule")
			}
		}
	case "bundle":
		if len(ops) > 0 && c.arg(ops[0].word) == "create" {
			return refuse(ops[0].word, "git: bundle create is refused: it writes a file (into .git too); "+
				"git bundle list-heads and verify read")
		}
	case "help":
		for _, t := range c.tokens {
			if t.sub && (t.kind == tokOperand || t.kind == tokValue) {
				return refuse(t.word, "git: help %s is refused: showing a manual page runs the viewer programs the "+
					"repository's configuration names (man.viewer); git %s -h prints the usage", c.arg(t.word), c.arg(t.word))
			}
		}
	}
	return nil
}

// gitWritesGitDir refuses an argument that names a place inside a .git
// directory of the workspace (the repository's or a nested one's; after
// symlinks), except as the value of --git-dir: git log
// --output=.git/config, format-patch -o .git/hooks, checkout-index
// --prefix=.git/ and --work-tree=.git write there, and what is written
// there (configuration, hooks) decides what the next git runs.
func (c *cmdline) gitWritesGitDir() *refusal {
	for _, t := range c.tokens {
		var v string
		switch {
		case t.kind == tokOption && t.hasValue && t.name != "--git-dir" && !(c.sub == "config" && t.sub):
			v = t.value // git config --file .git/config reads it (config may only read)
		case t.kind == tokOperand:
			v = c.arg(t.word)
		default:
			continue
		}
		if inGitDir(c.ws, v) {
			return refuse(t.word, "git: %q names a place inside .git; writing there (configuration, hooks) decides "+
				"what git runs next, so it is refused here", v)
		}
	}
	return nil
}

// inGitDir reports whether v, read as a path relative to ws, has a ".git"
// element below ws, as written or once the symlinks of its longest existing
// prefix are resolved.
func inGitDir(ws, v string) bool {
	if v == "" || filepath.IsAbs(v) {
		return false // absolute paths are defence 5's
	}
	p := filepath.Join(ws, v)
	for _, q := range []string{p, within.Resolve(p)} {
		rel, err := filepath.Rel(ws, q)
		if err != nil || !filepath.IsLocal(rel) {
			continue // outside: defence 5's
		}
		if slices.Contains(strings.Split(rel, "/"), ".git") {
			return true
		}
	}
	return false
}

// subOperands returns the operands after the subcommand.
func (c *cmdline) subOperands() []token {
	var out []token
	for _, t := range c.operands() {
		if t.sub {
			out = append(out, t)
		}
	}
	return out
}

// subOptions returns the options after the subcommand that match.
func (c *cmdline) subOptions(short string, long ...string) []token {
	var out []token
	for _, t := range c.options(short, long...) {
		if t.sub {
			out = append(out, t)
		}
	}
	return out
}

// gitConfig lets through git config only when it reads.
func (c *cmdline) gitConfig(ops []token) *refusal {
	if w := c.subOptions("e", gitConfigWriteLong...); len(w) > 0 {
		return refuse(w[0].word, "git: config %s is refused: git config may only read here (git config --get NAME, git config --list)", w[0].written)
	}
	first := ""
	if len(ops) > 0 {
		first = c.arg(ops[0].word)
	}
	if slices.Contains(gitConfigWriteSubs, first) {
		return refuse(ops[0].word, "git: config %s is refused: git config may only read here (git config get NAME, git config list)", first)
	}
	if len(c.subOptions("l", gitConfigReadLong...)) > 0 || first == "get" || first == "list" {
		return nil
	}
	if len(ops) == 1 {
		return nil // git config NAME prints the value
	}
	return refuse(c.subAt, "git: config without --get, --get-all, --get-regexp or --list writes configuration, "+
		"and configuration can run programs; git config may only read here (git config --get NAME, git config --list)")
}
