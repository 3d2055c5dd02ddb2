package exec

import (
	"strings"
)

// The Check functions of the flag table: what a row of spellings cannot
// express.

// checkAwk reads the awk program (the -e/--source values, or the first
// operand) and refuses what lets it run commands, write files or read files
// it does not name as operands. This is a lexical check, not an awk parser:
// it refuses more than it must ($3 > 1 inside a print statement).
func checkAwk(c *cmdline) *refusal {
	for _, t := range c.options("W") {
		if strings.HasPrefix(t.value, "e") || strings.HasPrefix(t.value, "i") {
			return refuse(t.word, "awk: -W %s is refused: it reads the program from a file or stdin, which cannot be checked", t.value)
		}
	}
	programs := c.options("e", "source")
	if len(programs) == 0 {
		if ops := c.operands(); len(ops) > 0 {
			programs = []token{{word: ops[0].word, kind: tokOperand, value: c.arg(ops[0].word)}}
		}
	}
	for _, p := range programs {
		if reason := awkProgram(p.value); reason != "" {
			return refuse(p.word, "awk: the program %q is refused: %s", p.value, reason)
		}
		c.script(p.word)
		if p.kind == tokOption && !p.inWord {
			c.script(p.word + 1)
		}
	}
	return nil
}

// awkProgram returns why an awk program is refused, or "".
func awkProgram(prog string) string {
	switch {
	case strings.Contains(prog, "system"):
		return "system() runs a shell command"
	case strings.Contains(prog, "getline"):
		return "getline reads from files or commands named in the program"
	case strings.Contains(strings.ReplaceAll(prog, "||", ""), "|"):
		return "| pipes output into or out of a shell command"
	case strings.Contains(prog, "@"):
		return "@load, @include and indirect calls (@f()) load code or call functions by name"
	case strings.Contains(prog, "ARGV"):
		return "changing ARGV makes awk read files the command line does not name"
	}
	for _, stmt := range strings.FieldsFunc(prog, func(r rune) bool { return r == ';' || r == '{' || r == '}' || r == '\n' }) {
		if i := strings.Index(stmt, "print"); i >= 0 && strings.Contains(stmt[i:], ">") {
			return "print > file writes to a file; the output comes back to you anyway"
		}
	}
	return ""
}

// checkTar refuses remote archives: GNU tar opens an archive named
// host:file through rsh or ssh unless --force-local is given.
func checkTar(c *cmdline) *refusal {
	if len(c.options("", "force-local")) > 0 {
		return nil
	}
	for _, t := range c.options("f", "file") {
		before, _, found := strings.Cut(t.value, ":")
		if found && !strings.Contains(before, "/") {
			return refuse(t.word, "tar: the archive %q is refused: a name with a colon is a remote archive, which tar "+
				"opens by running rsh or ssh; rename it or add --force-local", t.value)
		}
	}
	return nil
}

// checkZip refuses zip's two-letter -TT (--unzip-command) in every spelling.
func checkZip(c *cmdline) *refusal {
	for i := 1; i < len(c.words); i++ {
		w := c.arg(i)
		if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "TT") {
			return refuse(i, "zip: option -TT (in %q) is refused: it runs the named program to test the archive", w)
		}
	}
	return nil
}

// checkZipRecursion adds to checkZip: recursion (-r, -R) follows symlinks into
// what they point to unless -y (--symlinks) stores them as links.
func checkZipRecursion(c *cmdline) *refusal {
	if r := checkZip(c); r != nil {
		return r
	}
	return refuseRecursionFollowing(c, "zip", "rR", []string{"recurse-paths", "recurse-patterns"}, "y", []string{"symlinks"}, "-y")
}

// checkDiff refuses diff -r without --no-dereference: GNU diff follows
// symlinks while comparing directories.
func checkDiff(c *cmdline) *refusal {
	return refuseRecursionFollowing(c, "diff", "r", []string{"recursive"}, "", []string{"no-dereference"}, "--no-dereference")
}

// refuseRecursionFollowing refuses a recursive run (an option in rShort or
// rLong) that is not also given one of the options that keep symlinks as
// links (keepShort, keepLong, spelled keep in the message): walking a
// directory of the workspace, the program would follow a symlink out of it.
func refuseRecursionFollowing(c *cmdline, bin, rShort string, rLong []string, keepShort string, keepLong []string, keep string) *refusal {
	rec := c.options(rShort, rLong...)
	if len(rec) == 0 || len(c.options(keepShort, keepLong...)) > 0 {
		return nil
	}
	return refuse(rec[0].word, "%s: option %s is refused without %s: it follows symlinks while walking directories, "+
		"and a symlink can lead out of the workspace; add %s to compare or store links as links", bin, rec[0].written, keep, keep)
}

// checkSocat refuses socat addresses that run programs.
func checkSocat(c *cmdline) *refusal {
	for _, t := range c.operands() {
		w := c.arg(t.word)
		typ := strings.ToUpper(w)
		if i := strings.IndexAny(typ, ":,"); i >= 0 {
			typ = typ[:i]
		}
		switch typ {
		case "EXEC", "SYSTEM", "SHELL":
			return refuse(t.word, "socat: the address %q is refused: %s addresses run a program", w, typ)
		}
	}
	return nil
}

// checkMake refuses variable assignments on the command line, which
// override the makefile's (SHELL=…, CC=…).
func checkMake(c *cmdline) *refusal {
	for _, t := range c.operands() {
		if w := c.arg(t.word); strings.Contains(w, "=") {
			return refuse(t.word, "make: the assignment %q is refused: a variable set on the command line overrides "+
				"the makefile (SHELL=, CC=) and can run any program", w)
		}
	}
	return nil
}

// checkGo refuses go run of a module fetched by version, and linker flags
// that name an external program.
func checkGo(c *cmdline) *refusal {
	if c.sub == "run" {
		for _, t := range c.subOperands() {
			if w := c.arg(t.word); strings.Contains(w, "@") {
				return refuse(t.word, "go: run %q is refused: it downloads a module and runs its code", w)
			}
		}
	}
	for _, t := range c.tokens {
		if t.kind != tokOption {
			continue
		}
		v := t.value
		if !t.hasValue && t.word+1 < len(c.words) {
			v = c.arg(t.word + 1) // go flags may take the next word
		}
		if (t.name == "-ldflags" || t.name == "-gcflags" || t.name == "-asmflags") &&
			(strings.Contains(v, "extld") || strings.Contains(v, "extar")) {
			return refuse(t.word, "go: %s %q is refused: -extld and -extar name a program the linker runs", t.name, v)
		}
	}
	return nil
}

// checkVim refuses vim's long options the way vim reads them: it compares
// only the option's own length, ignoring case, so --cmdx and --CMD are
// --cmd, and --remote-anything is a --remote option.
func checkVim(c *cmdline) *refusal {
	for i := 1; i < len(c.words); i++ {
		w := c.arg(i)
		if w == "--" {
			return nil
		}
		lw := strings.ToLower(w)
		if !strings.HasPrefix(lw, "--") {
			continue
		}
		for _, o := range []string{"cmd", "remote", "servername", "listen", "server"} {
			if strings.HasPrefix(lw[2:], o) {
				return refuse(i, "%s: option %s is refused: vim reads it as --%s, which runs editor commands or talks to another editor process", c.name, w, o)
			}
		}
	}
	return nil
}

// checkNmap refuses what getopt_long_only reads as --script: one or two
// dashes, and any prefix of "script" of two letters or more ("-scr",
// "--scri=x").
func checkNmap(c *cmdline) *refusal {
	for i := 1; i < len(c.words); i++ {
		w := c.arg(i)
		if w == "--" {
			return nil
		}
		if !strings.HasPrefix(w, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-"), "=")
		if len(name) >= 2 && (strings.HasPrefix("script", name) || strings.HasPrefix(name, "script")) {
			return refuse(i, "nmap: option %s is refused: nmap reads it as --script, which runs NSE scripts (Lua) that can run programs", w)
		}
	}
	return nil
}
