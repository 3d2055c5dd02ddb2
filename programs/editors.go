package programs

import "strings"

// Editors, for when the deny list is narrowed to allow them: vi and its
// family, emacs.

// vi, vim, nvim, ex: VIMINIT and EXINIT replace the startup files (and set
// noexrc, nomodeline).
var _ = register(&Program{
	Names: []string{"vi", "vim*", "nvim", "view", "ex", "rview", "rvim", "gvim*", "evim", "vimdiff"},
	Check: checkVim,
	Grammar: Grammar{
		// -S, -q and -r take an optional value, which vim reads only when
		// the next word is not an option: read as attached-only, the next
		// word is still checked.
		ArgShort: "csuUwWTti", OptShort: "Sqr", NoArgShort: "AbCdDeEFhHlLmMnNoOpRvVxyZ",
		ArgLong: []string{"cmd", "remote", "remote-send", "remote-expr", "remote-tab", "remote-wait", "servername", "startuptime", "listen", "server"},
	},
	Rows: []Row{
		{Short: "c", Long: []string{"cmd"}, Words: []string{"+*"}, Why: "it runs editor commands at startup, and :!cmd runs shell commands"},
		{Short: "S", Why: "it sources a script of editor commands"},
		{Short: "s", Why: "it reads Normal-mode commands from a script file"},
		{Short: "uU", Why: "it loads another vimrc, which can run commands"},
		{Short: "wW", Why: "it writes every typed key to a file"},
		{Short: "l", Why: "nvim -l runs a Lua script"},
		{Long: []string{"remote*", "servername", "listen", "server"}, Why: "it sends commands to, or serves, another editor process"},
	},
	Env: func(Run) []string {
		return []string{"VIMINIT=set noexrc secure nomodeline", "EXINIT=set noexrc secure nomodeline"}
	},
})

// Emacs takes unambiguous prefixes of its long options (--ev).
var _ = register(&Program{
	Names:   []string{"emacs*"},
	Grammar: Grammar{Abbrev: true, ArgShort: "lfL", ArgLong: []string{"eval", "load", "funcall", "script", "execute", "directory"}},
	Rows: []Row{
		{Short: "lf", Long: []string{"eval", "load", "funcall", "script", "execute"}, Words: []string{"-eval", "-load", "-funcall", "-script", "-execute", "-x"},
			Why: "it evaluates Emacs Lisp, which can run programs"},
	},
})

// checkVim refuses vim's long options the way vim reads them: it compares
// only the option's own length, ignoring case, so --cmdx and --CMD are
// --cmd, and --remote-anything is a --remote option.
func checkVim(c *Command) *Refusal {
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
