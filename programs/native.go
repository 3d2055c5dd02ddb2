package programs

import "strings"

// Programs that load native code (shared libraries) named on their command
// line or in a file they are given: Landlock cannot stop a readable library
// being mapped, so such code of the workspace would run even under
// --confine strict.

// openssl loads engines and providers (shared libraries) named on its
// command line (-engine, engine dynamic -pre SO_PATH:…, -provider-path,
// -provider) or in a configuration file it is given (-config): it ran code
// of the workspace even under --confine strict. The ExecTool refuses it
// whole; in a template those options are code positions. Its options are
// single-dash words after the subcommand (openssl dgst -engine E), and
// take "-opt=value" too.
var _ = register(&Program{
	Names:   []string{"openssl"},
	Grammar: Grammar{Subcommands: true},
	SubWhy:  "its engine subcommand loads engines, shared libraries whose code runs inside it",
	Code: []CodeOption{
		{Sub: "*", Words: []string{"-engine", "-keygen_engine", "-ssl_client_engine", "-provider-path", "-provider"}, Kind: CodeScriptFile,
			Why: "names an engine or provider, a shared library openssl loads (by path, or from the directory -provider-path names), whose code runs inside it"},
		{Sub: "*", Words: []string{"-config", "-conf"}, Kind: CodeScriptFile,
			Why: "names an OpenSSL configuration file, which can load engines and providers (shared libraries)"},
	},
	Refuse: "it loads engines and providers, shared libraries named on its command line or in a configuration file, whose code runs inside it; use sha256sum, base64 or cat for what it would read",
})

var _ = register(&Program{
	Names:   []string{"groff", "troff", "gtroff"},
	Grammar: Grammar{ArgShort: "dfFIKLmMnoPrTwW"},
	Rows: []Row{
		{Short: "U", Why: "unsafe mode lets the document run programs (.sy, .pi) and write files (.open)"},
	},
})

// nmap reads options with getopt_long_only: -script and --scri are
// --script too (the ExecTool's check).
var _ = register(&Program{
	Names:   []string{"nmap"},
	Check:   checkNmap,
	Grammar: Grammar{Abbrev: true},
	Rows: []Row{
		{Long: []string{"script*"}, Words: []string{"-sC", "-A"}, Why: "it runs NSE scripts (Lua), which can run programs"},
	},
})

// checkNmap refuses what getopt_long_only reads as --script: one or two
// dashes, and any prefix of "script" of two letters or more ("-scr",
// "--scri=x").
func checkNmap(c *Command) *Refusal {
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
