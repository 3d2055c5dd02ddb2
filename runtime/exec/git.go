package exec

import (
	"slices"
	"strings"
)

// gitSubcommands are the git built-ins ExecTool lets through. A built-in
// always wins over an alias of the same name, so an allowlist of built-ins
// also keeps out aliases ("!cmd" aliases run shell commands) and external
// git-* programs found on PATH. Built-ins that run programs are left out or
// refused by a row of gitRules, which says why.
var gitSubcommands = []string{
	"add", "am", "annotate", "apply", "archive", "bisect", "blame", "branch", "bugreport", "bundle",
	"cat-file", "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout",
	"checkout-index", "cherry", "cherry-pick", "clean", "clone", "column", "commit", "commit-graph",
	"commit-tree", "config", "count-objects", "describe", "diagnose", "diff", "diff-files", "diff-index",
	"diff-tree", "fast-export", "fast-import", "fetch", "fetch-pack", "fmt-merge-msg", "for-each-ref",
	"format-patch", "fsck", "fsck-objects", "gc", "get-tar-commit-id", "grep", "hash-object", "help",
	"index-pack", "init", "init-db", "interpret-trailers", "log", "ls-files", "ls-remote", "ls-tree",
	"mailinfo", "mailsplit", "merge", "merge-base", "merge-file", "merge-tree", "mktag", "mktree",
	"multi-pack-index", "mv", "name-rev", "notes", "pack-objects", "pack-refs", "patch-id", "prune",
	"prune-packed", "pull", "push", "range-diff", "read-tree", "rebase", "reflog", "refs", "remote",
	"repack", "replace", "replay", "rerere", "reset", "restore", "rev-list", "rev-parse", "revert", "rm",
	"shortlog", "show", "show-branch", "show-index", "show-ref", "sparse-checkout", "stash", "status",
	"stripspace", "submodule", "switch", "symbolic-ref", "tag", "unpack-file", "unpack-objects",
	"update-index", "update-ref", "update-server-info", "var", "verify-commit", "verify-pack",
	"verify-tag", "version", "whatchanged", "worktree", "write-tree",
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
	if !slices.Contains(gitSubcommands, c.sub) {
		return refuse(c.subAt, "git: %q is not a git built-in this tool lets through; aliases and external git-* "+
			"programs are refused, since they can run any program", c.sub)
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
	}
	return nil
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
