package programs

import "strings"

// Interpreters, for when the deny list is narrowed to allow them (each is
// on it by default): the options that run code given on the command line
// or load code, and the configuration they read from HOME or cwd.

// whyCode is why an option that runs code given on the command line is
// refused.
const whyCode = "it runs code given on the command line"

// PYTHONNOUSERSITE=1: no sitecustomize from ~/.local.
var _ = register(&Program{
	Names: []string{"python*", "pypy*"},
	// -c and -m end python's options: what follows belongs to the code.
	Grammar: Grammar{
		ArgShort: "cmWX", NoArgShort: "bBdEhiIOPqsSuvVx",
		ArgLong: []string{"check-hash-based-pycs"}, Long: []string{"help", "version", "help-env", "help-xoptions", "help-all"},
	},
	Rows: []Row{
		{Short: "c", Why: whyCode + " (python -c)"},
		{Short: "m", Why: "it runs a library module as a script (python -m http.server, pip, venv …)"},
	},
	Env: func(Run) []string { return []string{"PYTHONNOUSERSITE=1"} },
})

// pip: PIP_CONFIG_FILE=/dev/null, which pip reads as "no configuration
// files".
var _ = register(&Program{
	Names: []string{"pip*"},
	Env:   func(Run) []string { return []string{"PIP_CONFIG_FILE=/dev/null"} },
})

var _ = register(&Program{
	Names: []string{"node", "nodejs"},
	Grammar: Grammar{
		ArgShort: "eprC", NoArgShort: "chivw",
		ArgLong: []string{"eval", "print", "require", "import", "loader", "experimental-loader", "conditions", "env-file", "run", "input-type", "title"},
	},
	Rows: []Row{
		{Short: "ep", Long: []string{"eval", "print"}, Why: whyCode + " (JavaScript)"},
		{Short: "r", Long: []string{"require", "import", "loader", "experimental-loader"}, Why: "it loads a module before the script, and loading a module runs its code"},
		{Long: []string{"inspect*", "debug*"}, Why: "it opens a debugger port through which any code can be run"},
		{Long: []string{"run"}, Why: "it runs a package.json script through a shell"},
	},
})

// npm, pnpm, yarn: npm_config_* variables beat every .npmrc (the project's
// in cwd included): no user or global rc file, ignore-scripts=true (install
// runs no lifecycle scripts; npm run and npm test still run the package's
// scripts, which is what they mean), and git, editor, browser and viewer
// name no program.
var _ = register(&Program{
	Names:       []string{"npm", "pnpm", "yarn", "yarnpkg"},
	ConfigFiles: []string{"npmrc", "npmrc-global"},
	Env: func(r Run) []string {
		env := []string{
			"npm_config_ignore_scripts=true",
			"npm_config_git=" + noProgram,
			"npm_config_editor=" + noProgram,
			"npm_config_browser=" + noProgram,
			"npm_config_viewer=" + noProgram,
			"npm_config_node_options=",
			"npm_config_update_notifier=false",
		}
		if r.ConfigDir != "" {
			// npm refuses /dev/null for both (it loads it twice).
			env = append(env, "npm_config_userconfig="+configFile(r, "npmrc"),
				"npm_config_globalconfig="+configFile(r, "npmrc-global"))
		}
		return env
	},
})

var _ = register(&Program{
	Names: []string{"deno"}, Grammar: Grammar{Subcommands: true},
	Rows: []Row{
		{Sub: "eval repl task jupyter", Why: "it runs code given on the command line or a task through a shell"},
		{Sub: "*", Short: "A", Long: []string{"allow-all", "allow-run*", "allow-ffi*", "allow-write*"}, Why: "it lets the script run programs, load native code or write files"},
	},
})

var _ = register(&Program{
	Names:   []string{"bun"},
	Grammar: Grammar{Subcommands: true, ArgShort: "epr", ArgLong: []string{"eval", "print", "preload"}},
	Rows: []Row{
		{Short: "ep", Long: []string{"eval", "print"}, Why: whyCode + " (JavaScript)"},
		{Short: "r", Long: []string{"preload"}, Why: "it loads a module before the script, and loading a module runs its code"},
		{Sub: "x exec run create install i add", Why: "it runs package scripts, shell commands or packages fetched from a registry"},
	},
})

var _ = register(&Program{
	Names: []string{"perl"},
	// -l, -0, -i, -x, -d, -D and -C take an optional attached value.
	Grammar: Grammar{ArgShort: "eEMmI", OptShort: "l0ixdDC", NoArgShort: "aacfnpsSTtuUvWwX"},
	Rows: []Row{
		{Short: "eE", Why: whyCode + " (Perl)"},
		{Short: "Mm", Why: "it imports a module with arguments, which runs code (-M'X;system(…)')"},
		{Short: "i", Why: "it edits files in place"},
		{Short: "d", Why: "it runs the script under a debugger module (-d:Module), which runs code"},
	},
})

var _ = register(&Program{
	Names:   []string{"ruby", "jruby", "truffleruby"},
	Grammar: Grammar{ArgShort: "eIrCEF", OptShort: "xiKTW0", NoArgShort: "acdhlnpsSUvwy"},
	Rows: []Row{
		{Short: "e", Why: whyCode + " (Ruby)"},
		{Short: "r", Long: []string{"require"}, Why: "it requires a library before the script, and requiring runs its code"},
		{Short: "i", Why: "it edits files in place"},
	},
})

// php-cgi looks for php.ini in cwd after $PHPRC (auto_prepend_file runs
// code); an empty one in PHPRC is found first.
var _ = register(&Program{
	Names:   []string{"php", "php-cli", "php-cgi"},
	Grammar: Grammar{ArgShort: "cdfrBREFStz", NoArgShort: "ahHilmnsvw"},
	Rows: []Row{
		{Short: "rBRE", Why: whyCode + " (PHP)"},
		{Short: "d", Why: "it sets a php.ini directive (auto_prepend_file …), which can run code"},
		{Short: "c", Why: "it loads another php.ini, whose directives can run code"},
		{Short: "S", Why: "it starts a web server that runs PHP files"},
		{Short: "z", Why: "it loads a Zend extension (native code)"},
	},
	ConfigFiles: []string{"php.ini"},
	Env: func(r Run) []string {
		if strings.HasPrefix(r.Name, "php-cgi") && r.ConfigDir != "" {
			return []string{"PHPRC=" + r.ConfigDir}
		}
		return nil
	},
})

var _ = register(&Program{
	Names:   []string{"lua*", "luajit*"},
	Grammar: Grammar{ArgShort: "eljb", NoArgShort: "iEvW"},
	Rows: []Row{
		{Short: "e", Why: whyCode + " (Lua)"},
		{Short: "l", Why: "it requires a library, and requiring runs its code"},
		{Short: "j", Why: "it runs a LuaJIT control command"},
	},
})

// awk: its program is checked by the ExecTool (system(), getline, pipes,
// print > file).
var _ = register(&Program{
	Names: []string{"awk", "gawk", "mawk", "nawk", "original-awk"},
	Check: checkAwk,
	Grammar: Grammar{
		Abbrev: true, ArgShort: "fvFEilWe", OptShort: "opdDL", NoArgShort: "bcghMNOPrstVSy",
		ArgLong: []string{"file", "assign", "field-separator", "exec", "include", "load", "source"},
		Long:    []string{"sandbox", "posix", "traditional", "version", "help", "pretty-print", "profile", "dump-variables", "debug", "lint", "optimize", "no-optimize", "characters-as-bytes", "bignum", "csv"},
	},
	Rows: []Row{
		{Short: "fE", Long: []string{"file", "exec"}, Why: "it reads the program from a file, which cannot be checked; give the program on the command line"},
		{Short: "i", Long: []string{"include"}, Why: "it includes awk source from a file, which cannot be checked"},
		{Short: "l", Long: []string{"load"}, Why: "it loads a shared library (native code)"},
	},
})

// checkAwk reads the awk program (the -e/--source values, or the first
// operand) and refuses what lets it run commands, write files or read files
// it does not name as operands. This is a lexical check, not an awk parser:
// it refuses more than it must ($3 > 1 inside a print statement).
func checkAwk(c *Command) *Refusal {
	for _, t := range c.options("W") {
		if strings.HasPrefix(t.value, "e") || strings.HasPrefix(t.value, "i") {
			return refuse(t.word, "awk: -W %s is refused: it reads the program from a file or stdin, which cannot be checked", t.value)
		}
	}
	programs := c.options("e", "source")
	if len(programs) == 0 {
		if ops := c.operands(); len(ops) > 0 {
			programs = []token{{word: ops[0].word, kind: TokOperand, value: c.arg(ops[0].word)}}
		}
	}
	for _, p := range programs {
		if reason := awkProgram(p.value); reason != "" {
			return refuse(p.word, "awk: the program %q is refused: %s", p.value, reason)
		}
		c.script(p.word)
		if p.kind == TokOption && !p.inWord {
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
