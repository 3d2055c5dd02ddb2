package exec

import (
	"slices"
	"strings"
	"sync"

	"github.com/nanogpt/toolgen/internal/validate"
)

// binaryRules is the flag table's entry for one binary (or a family of
// binaries that read their arguments alike): how it reads its options, and
// the rows of what it may not be given.
type binaryRules struct {
	// Names are the binaries the entry covers, written like deny-list
	// entries: "sed" also covers "sed4.9"; "python*" covers every name that
	// begins with "python". A granted name is looked up, and so is the name
	// of the file it resolves to through symlinks ("editor" → "vim.basic").
	Names []string
	// Refuse, when set, refuses the binary whatever its arguments; New then
	// refuses to grant it (613).
	Refuse string

	// The option grammar (see optionStyle). Letters in ArgShort take a
	// value (attached or the next word); letters in OptShort take an
	// optional value that can only be attached ("-i.bak"); letters in
	// NoArgShort take none. ArgLong are the long options (without "--")
	// that take a value; Long are the other long options the binary knows,
	// listed where an exact match must beat an abbreviation ("--checkpoint"
	// is not an abbreviation of "--checkpoint-action").
	Style      optionStyle
	Abbrev     bool // long options may be abbreviated to a unique prefix
	ArgShort   string
	OptShort   string
	NoArgShort string
	ArgLong    []string
	Long       []string
	// Subcommands: the first operand is a subcommand (git log); options
	// before it are the top level's (ArgShort … apply there), options after
	// it are the subcommand's, whose grammar is not listed.
	Subcommands bool
	// OldStyle: the first argument may be a cluster of option letters
	// without a '-' whose values follow in the next words (tar xzf a.tgz).
	OldStyle bool
	// SubArgs are the options that take a value, per subcommand, where a
	// Check must know them ("git config --file --get a b" sets a in the
	// file "--get").
	SubArgs map[string]subArgs

	// Rows are the refused options, words and subcommands.
	Rows []flagRow
	// Check, when set, looks at what rows cannot express: scripts given as
	// operands (sed, awk), read-only forms (git config), operand syntax
	// (tar's host:file). It runs after the rows.
	Check func(c *cmdline) *refusal

	match validate.DenyList // Names, as a matcher
	known []string          // Long, ArgLong and every refused long option
}

// subArgs lists a subcommand's options that take a value.
type subArgs struct {
	Short string
	Long  []string
}

// flagRow is one row of the flag table: spellings refused for one reason.
type flagRow struct {
	// Sub is where the row applies for a binary with subcommands: "" before
	// the subcommand, "*" after any subcommand, or a space-separated list of
	// subcommands. A row with Sub set and nothing else refuses those
	// subcommands themselves.
	Sub string
	// Short are refused short options, one letter each.
	Short string
	// Long are refused long options, without "--"; a trailing '*' refuses
	// every option beginning with the rest ("inspect*").
	Long []string
	// Words are refused words wherever they stand, options or not ("-exec"
	// for find); a trailing '*' refuses every word beginning with the rest
	// ("+*" for vim's +cmd).
	Words []string
	// Confine are options ("-C", "--git-dir") whose value must name a place
	// inside the workspace, even when WithOutsidePathsAllowed is set.
	Confine []string
	// Why says what the spelling does, for the model.
	Why string

	subs []string // Sub split into names
}

// wholeSub reports whether the row refuses subcommands themselves.
func (row *flagRow) wholeSub() bool {
	return row.Sub != "" && row.Sub != "*" && row.Short == "" && len(row.Long) == 0 &&
		len(row.Words) == 0 && len(row.Confine) == 0
}

// Reasons shared by several entries.
const (
	whyCode      = "it runs code given on the command line"
	whyPager     = "a pager is interactive and can run shell commands (!cmd, |, v); its output comes back to you anyway: read files with cat, head, tail or sed -n"
	whyScheduler = "it schedules commands that run later, outside this call and its limits"
	whyFollow    = "it follows symlinks while walking directories, and a symlink can lead out of the workspace"
	whyNameList  = "it reads the names of the files to use from a file, and those names cannot be checked; name the files as arguments"
)

// flagTable is defence 4's data: one entry per binary or family. Extend it
// here; TestFlagTableRows attacks every row in every spelling.
var flagTable = []*binaryRules{
	{
		Names: []string{"python*", "pypy*"},
		// -c and -m end python's options: what follows belongs to the code.
		ArgShort: "cmWX", NoArgShort: "bBdEhiIOPqsSuvVx",
		ArgLong: []string{"check-hash-based-pycs"}, Long: []string{"help", "version", "help-env", "help-xoptions", "help-all"},
		Rows: []flagRow{
			{Short: "c", Why: whyCode + " (python -c)"},
			{Short: "m", Why: "it runs a library module as a script (python -m http.server, pip, venv …)"},
		},
	},
	{
		Names:    []string{"node", "nodejs"},
		ArgShort: "eprC", NoArgShort: "chivw",
		ArgLong: []string{"eval", "print", "require", "import", "loader", "experimental-loader", "conditions", "env-file", "run", "input-type", "title"},
		Rows: []flagRow{
			{Short: "ep", Long: []string{"eval", "print"}, Why: whyCode + " (JavaScript)"},
			{Short: "r", Long: []string{"require", "import", "loader", "experimental-loader"}, Why: "it loads a module before the script, and loading a module runs its code"},
			{Long: []string{"inspect*", "debug*"}, Why: "it opens a debugger port through which any code can be run"},
			{Long: []string{"run"}, Why: "it runs a package.json script through a shell"},
		},
	},
	{
		Names: []string{"deno"}, Subcommands: true,
		Rows: []flagRow{
			{Sub: "eval repl task jupyter", Why: "it runs code given on the command line or a task through a shell"},
			{Sub: "*", Short: "A", Long: []string{"allow-all", "allow-run*", "allow-ffi*", "allow-write*"}, Why: "it lets the script run programs, load native code or write files"},
		},
	},
	{
		Names: []string{"bun"}, Subcommands: true, ArgShort: "epr", ArgLong: []string{"eval", "print", "preload"},
		Rows: []flagRow{
			{Short: "ep", Long: []string{"eval", "print"}, Why: whyCode + " (JavaScript)"},
			{Short: "r", Long: []string{"preload"}, Why: "it loads a module before the script, and loading a module runs its code"},
			{Sub: "x exec run create install i add", Why: "it runs package scripts, shell commands or packages fetched from a registry"},
		},
	},
	{
		Names: []string{"perl"},
		// -l, -0, -i, -x, -d, -D and -C take an optional attached value.
		ArgShort: "eEMmI", OptShort: "l0ixdDC", NoArgShort: "aacfnpsSTtuUvWwX",
		Rows: []flagRow{
			{Short: "eE", Why: whyCode + " (Perl)"},
			{Short: "Mm", Why: "it imports a module with arguments, which runs code (-M'X;system(…)')"},
			{Short: "i", Why: "it edits files in place"},
			{Short: "d", Why: "it runs the script under a debugger module (-d:Module), which runs code"},
		},
	},
	{
		Names:    []string{"ruby", "jruby", "truffleruby"},
		ArgShort: "eIrCEF", OptShort: "xiKTW0", NoArgShort: "acdhlnpsSUvwy",
		Rows: []flagRow{
			{Short: "e", Why: whyCode + " (Ruby)"},
			{Short: "r", Long: []string{"require"}, Why: "it requires a library before the script, and requiring runs its code"},
			{Short: "i", Why: "it edits files in place"},
		},
	},
	{
		Names:    []string{"php", "php-cli", "php-cgi"},
		ArgShort: "cdfrBREFStz", NoArgShort: "ahHilmnsvw",
		Rows: []flagRow{
			{Short: "rBRE", Why: whyCode + " (PHP)"},
			{Short: "d", Why: "it sets a php.ini directive (auto_prepend_file …), which can run code"},
			{Short: "c", Why: "it loads another php.ini, whose directives can run code"},
			{Short: "S", Why: "it starts a web server that runs PHP files"},
			{Short: "z", Why: "it loads a Zend extension (native code)"},
		},
	},
	{
		Names:    []string{"lua*", "luajit*"},
		ArgShort: "eljb", NoArgShort: "iEvW",
		Rows: []flagRow{
			{Short: "e", Why: whyCode + " (Lua)"},
			{Short: "l", Why: "it requires a library, and requiring runs its code"},
			{Short: "j", Why: "it runs a LuaJIT control command"},
		},
	},
	{
		Names: []string{"awk", "gawk", "mawk", "nawk", "original-awk"}, Abbrev: true,
		ArgShort: "fvFEilWe", OptShort: "opdDL", NoArgShort: "bcghMNOPrstVSy",
		ArgLong: []string{"file", "assign", "field-separator", "exec", "include", "load", "source"},
		Long:    []string{"sandbox", "posix", "traditional", "version", "help", "pretty-print", "profile", "dump-variables", "debug", "lint", "optimize", "no-optimize", "characters-as-bytes", "bignum", "csv"},
		Rows: []flagRow{
			{Short: "fE", Long: []string{"file", "exec"}, Why: "it reads the program from a file, which cannot be checked; give the program on the command line"},
			{Short: "i", Long: []string{"include"}, Why: "it includes awk source from a file, which cannot be checked"},
			{Short: "l", Long: []string{"load"}, Why: "it loads a shared library (native code)"},
		},
		Check: checkAwk,
	},
	{
		Names: []string{"find", "gfind", "bfs"},
		Rows: []flagRow{
			{Words: []string{"-exec", "-execdir", "-ok", "-okdir"}, Why: "it runs a command for each file found"},
			{Words: []string{"-delete"}, Why: "it deletes the files found"},
			{Words: []string{"-fprint", "-fprint0", "-fprintf", "-fls"}, Why: "it writes to a named file; the result comes back to you anyway"},
			{Words: []string{"-L", "-follow"}, Why: whyFollow},
			{Words: []string{"-files0-from"}, Why: whyNameList},
		},
	},
	{
		Names: []string{"grep", "egrep", "fgrep", "ggrep"}, Abbrev: true,
		ArgShort: "efmABCDd", NoArgShort: "EFGPivwxyclLoqsbHhnTZzaIrRUu",
		ArgLong: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "devices",
			"directories", "binary-files", "label", "include", "exclude", "exclude-from", "exclude-dir", "group-separator"},
		Long: []string{"recursive", "color", "colour"},
		Rows: []flagRow{
			{Short: "R", Long: []string{"dereference-recursive"}, Why: whyFollow + "; -r does not"},
		},
	},
	{
		// ls -L stats (and with -R lists) what symlinks inside the listed
		// directories point to, outside the workspace too; Landlock does not
		// stop stat.
		Names: []string{"ls", "gls"}, Abbrev: true,
		ArgShort: "ITw", NoArgShort: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1",
		ArgLong: []string{"ignore", "tabsize", "width", "block-size", "format", "hide", "indicator-style",
			"quoting-style", "sort", "time", "time-style"},
		Rows: []flagRow{
			{Short: "L", Long: []string{"dereference"}, Why: whyFollow + "; ls -l shows where a link points"},
		},
	},
	{
		Names: []string{"sed", "gsed"}, Abbrev: true,
		ArgShort: "efl", OptShort: "i", NoArgShort: "nrEsuzb",
		ArgLong: []string{"expression", "file", "line-length"},
		Long: []string{"quiet", "silent", "debug", "follow-symlinks", "in-place", "posix", "regexp-extended",
			"separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "help", "version", "binary"},
		Rows: []flagRow{
			{Short: "i", Long: []string{"in-place"}, Why: "it edits files in place; here sed may only read (print with -n and p)"},
			{Short: "f", Long: []string{"file"}, Why: "it reads the script from a file, which cannot be checked; give the script with -e"},
		},
		Check: checkSed,
	},
	gitRules,
	{
		Names:    []string{"rg", "ripgrep"},
		ArgShort: "ABCdEefgjMmrtT", NoArgShort: "0abcFhHiIlnNopqsSuUvVwxz",
		ArgLong: []string{"pre", "pre-glob", "hostname-bin", "after-context", "before-context", "context", "max-depth",
			"encoding", "regexp", "file", "glob", "iglob", "threads", "max-columns", "max-count", "replace", "type",
			"type-not", "type-add", "type-clear", "sort", "sortr", "colors", "engine", "ignore-file", "max-filesize",
			"path-separator", "context-separator", "field-context-separator", "field-match-separator",
			"dfa-size-limit", "regex-size-limit", "hyperlink-format", "generate"},
		Rows: []flagRow{
			{Long: []string{"pre"}, Why: "it runs a preprocessor program on every file searched"},
			{Long: []string{"pre-glob"}, Why: "it selects the files for --pre, which runs a program"},
			{Long: []string{"hostname-bin"}, Why: "it runs a program to get the host name"},
			{Short: "L", Long: []string{"follow"}, Why: whyFollow},
		},
	},
	{
		Names: []string{"tar", "gtar", "bsdtar"}, OldStyle: true, NoArgShort: "AcdrtuxGnSkUWOmpsjJzZPlRvwoaBiM",
		Abbrev: validate.TarOptions.Abbrev, ArgShort: validate.TarOptions.ArgShort, ArgLong: validate.TarOptions.ArgLong, Long: validate.TarOptions.Long,
		Rows: []flagRow{
			{Short: "I", Long: []string{"use-compress-program"}, Why: "it runs the named program as the compressor"},
			{Short: "F", Long: []string{"info-script", "new-volume-script"}, Why: "it runs a script at the end of each volume"},
			{Long: []string{"to-command"}, Why: "it pipes every extracted file into a command"},
			{Long: []string{"checkpoint-action"}, Why: "it runs actions (exec=…) at checkpoints"},
			{Long: []string{"rsh-command", "rmt-command"}, Why: "it runs the named program to reach a remote archive"},
			{Short: "P", Long: []string{"absolute-names"}, Why: "it reads and writes absolute paths, outside the workspace"},
			{Short: "h", Long: []string{"dereference"}, Why: "it archives what symlinks point to, and a symlink can lead out of the workspace"},
			{Short: "T", Long: []string{"files-from"}, Why: whyNameList},
		},
		Check: checkTar,
	},
	{
		// zip takes unambiguous prefixes of long options (--unz is
		// --unzip-command, the long form of -TT).
		Names:  []string{"zip"},
		Abbrev: validate.ZipOptions.Abbrev, ArgShort: validate.ZipOptions.ArgShort, ArgLong: validate.ZipOptions.ArgLong, Long: validate.ZipOptions.Long,
		Rows: []flagRow{
			{Words: []string{"-TT*"}, Long: []string{"unzip-command"}, Why: "it runs the named program to test the archive"},
		},
		Check: checkZipRecursion,
	},
	{
		Names: []string{"cp", "gcp"}, Abbrev: true, ArgShort: "St",
		ArgLong: []string{"suffix", "target-directory"},
		Long:    []string{"dereference", "no-dereference", "recursive", "remove-destination"},
		Rows: []flagRow{
			{Short: "L", Long: []string{"dereference"}, Why: whyFollow},
		},
	},
	{
		Names: []string{"diff", "gdiff"}, Abbrev: true, ArgShort: "CDFILSUWxX",
		ArgLong: []string{"context", "unified", "ifdef", "show-function-line", "ignore-matching-lines", "label",
			"starting-file", "width", "exclude", "exclude-from", "from-file", "to-file", "line-format",
			"old-line-format", "new-line-format", "unchanged-line-format", "old-group-format", "new-group-format",
			"changed-group-format", "unchanged-group-format", "horizon-lines", "tabsize", "color", "palette"},
		Long:  []string{"recursive", "no-dereference", "brief", "report-identical-files"},
		Check: checkDiff,
	},
	{
		Names:  []string{"sort", "gsort"},
		Abbrev: validate.SortOptions.Abbrev, ArgShort: validate.SortOptions.ArgShort, ArgLong: validate.SortOptions.ArgLong, Long: validate.SortOptions.Long,
		Rows: []flagRow{
			{Long: []string{"compress-program"}, Why: "it runs the named program to compress temporary files"},
			{Long: []string{"files0-from"}, Why: whyNameList},
		},
	},
	{
		// tree -l descends into the directories symlinks point to. Its long
		// options are not abbreviated; -P, -I, -o, -H, -T, -L take a value.
		Names: []string{"tree"}, ArgShort: "PIoHTL",
		Rows: []flagRow{
			{Short: "l", Why: whyFollow},
		},
	},
	{
		Names: []string{"wc", "gwc"}, Abbrev: true, ArgLong: []string{"files0-from", "total"},
		Rows: []flagRow{
			{Long: []string{"files0-from"}, Why: whyNameList},
		},
	},
	{
		Names: []string{"du", "gdu"}, Abbrev: true, ArgShort: "BdtX",
		ArgLong: []string{"files0-from", "block-size", "max-depth", "threshold", "time", "time-style", "exclude",
			"exclude-from"},
		Rows: []flagRow{
			{Long: []string{"files0-from"}, Why: whyNameList},
			{Short: "L", Long: []string{"dereference"}, Why: whyFollow},
		},
	},
	{
		Names:  []string{"split", "gsplit"},
		Abbrev: validate.SplitOptions.Abbrev, ArgShort: validate.SplitOptions.ArgShort, ArgLong: validate.SplitOptions.ArgLong, Long: validate.SplitOptions.Long,
		Rows: []flagRow{
			{Long: []string{"filter"}, Why: "it runs a shell command for every output file"},
		},
	},
	{
		Names:  []string{"rsync"},
		Abbrev: validate.RsyncOptions.Abbrev, ArgShort: validate.RsyncOptions.ArgShort, ArgLong: validate.RsyncOptions.ArgLong, Long: validate.RsyncOptions.Long,
		Rows: []flagRow{
			{Short: "e", Long: []string{"rsh", "rsync-path"}, Why: "it names the program rsync runs for the transfer"},
			{Long: []string{"daemon", "config", "dparam"}, Why: "it starts an rsync daemon configured from a file"},
			{Long: []string{"files-from"}, Why: whyNameList},
			{Short: "LkK", Long: []string{"copy-links", "copy-unsafe-links", "copy-dirlinks", "keep-dirlinks"}, Why: whyFollow},
		},
	},
	{
		Names: []string{"ssh", "scp", "sftp", "slogin"}, ArgShort: validate.SSHOptions.ArgShort,
		Rows: []flagRow{
			{Short: "o", Why: "it sets ssh options, some of which run local programs (ProxyCommand, LocalCommand, KnownHostsCommand)"},
			{Short: "F", Why: "it reads an ssh configuration file, which can run local programs"},
			{Short: "S", Why: "it names the program or control socket ssh uses (scp -S, sftp -S run the named program)"},
			{Short: "D", Why: "sftp -D runs the named program as the server"},
			{Short: "b", Why: "sftp -b reads a batch file, whose !commands run locally"},
			{Short: "I", Why: "it loads the named PKCS#11 shared library, whose code runs inside ssh"},
		},
	},
	{
		// binutils load a BFD plugin (a shared library) named by --plugin,
		// even under Landlock; getopt_long takes a prefix (--plug).
		Names: []string{"nm", "ar", "ranlib", "x86_64-linux-gnu-nm", "x86_64-linux-gnu-ar", "x86_64-linux-gnu-ranlib",
			"aarch64-linux-gnu-nm", "aarch64-linux-gnu-ar", "aarch64-linux-gnu-ranlib"},
		Abbrev: true, ArgLong: []string{"plugin"},
		Rows: []flagRow{
			{Long: []string{"plugin"}, Why: "it loads the named shared library as a plugin, whose code runs inside the program"},
		},
	},
	{
		// getopt letters of OpenSSH 9.2's ssh-keygen that take a value.
		Names: []string{"ssh-keygen"}, ArgShort: "abCDEFfGIJjKMmNnOPrSsTtVwYZz",
		Rows: []flagRow{
			{Short: "D", Why: "it loads the named PKCS#11 shared library, whose code runs inside ssh-keygen"},
		},
	},
	{
		// openssl loads engines and providers (shared libraries) named on its
		// command line (-engine, engine dynamic -pre SO_PATH:…,
		// -provider-path) or in a configuration file it is given (-config):
		// Landlock cannot stop a library being mapped, so it ran code of the
		// workspace even under --confine strict.
		Names:  []string{"openssl"},
		Refuse: "it loads engines and providers, shared libraries named on its command line or in a configuration file, whose code runs inside it; use sha256sum, base64 or cat for what it would read",
	},
	{
		Names: []string{"groff", "troff", "gtroff"}, ArgShort: "dfFIKLmMnoPrTwW",
		Rows: []flagRow{
			{Short: "U", Why: "unsafe mode lets the document run programs (.sy, .pi) and write files (.open)"},
		},
	},
	{
		// ncat reads options with getopt_long: --sh-e is --sh-exec.
		Names: []string{"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"}, Abbrev: true, ArgShort: "ecIiOpqsTVwxX",
		Rows: []flagRow{
			{Short: "ec", Long: []string{"exec", "sh-exec", "lua-exec"}, Why: "it runs a program wired to the network connection"},
		},
	},
	{
		Names: []string{"socat"},
		Check: checkSocat,
	},
	{
		// curl takes any unambiguous prefix of a long option (--conf is
		// --config); the lists are curl 7.88's (curl --help all), so an
		// exact option beats a prefix. It reads .curlrc from $CURL_HOME,
		// $XDG_CONFIG_HOME and HOME unless -q/--disable comes first; the
		// kernel points CURL_HOME at an empty one (kernel/programs.go).
		Names: []string{"curl"}, Abbrev: true,
		ArgShort: "KoTdDFHuXAbcCeEmPrtwyYzxUQ",
		ArgLong: []string{
			"abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type", "ciphers",
			"config", "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-file-mode",
			"crlfile", "curves", "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation",
			"dns-interface", "dns-ipv4-addr", "dns-ipv6-addr", "dns-servers", "doh-url", "dump-header", "egd-file",
			"engine", "etag-compare", "etag-save", "expect100-timeout", "form", "form-string", "ftp-account",
			"ftp-alternative-to-user", "ftp-method", "ftp-port", "ftp-ssl-ccc-mode", "happy-eyeballs-timeout-ms",
			"header", "hostpubmd5", "hostpubsha256", "hsts", "interface", "json", "keepalive-time", "key", "key-type",
			"krb", "libcurl", "limit-rate", "local-port", "login-options", "mail-auth", "mail-from", "mail-rcpt",
			"max-filesize", "max-redirs", "max-time", "netrc-file", "noproxy", "oauth2-bearer", "output",
			"output-dir", "parallel-max", "pass", "pinnedpubkey", "proto", "proto-default", "proto-redir",
			"proxy-cacert", "proxy-capath", "proxy-cert", "proxy-cert-type", "proxy-ciphers", "proxy-crlfile",
			"proxy-header", "proxy-key", "proxy-key-type", "proxy-pass", "proxy-pinnedpubkey", "proxy-service-name",
			"proxy-tls13-ciphers", "proxy-tlsauthtype", "proxy-tlspassword", "proxy-tlsuser", "proxy-user",
			"proxy1.0", "pubkey", "quote", "random-file", "range", "rate", "referer", "request", "request-target",
			"resolve", "retry", "retry-delay", "retry-max-time", "sasl-authzid", "service-name", "socks4", "socks4a",
			"socks5", "socks5-gssapi-service", "socks5-hostname", "speed-limit", "speed-time", "stderr",
			"telnet-option", "tftp-blksize", "time-cond", "tls-max", "tls13-ciphers", "tlsauthtype", "tlspassword",
			"tlsuser", "trace", "trace-ascii", "unix-socket", "upload-file", "url", "url-query", "user", "user-agent",
			"write-out",
		},
		Long: []string{
			"anyauth", "append", "basic", "cert-status", "compressed", "compressed-ssh", "create-dirs", "crlf",
			"digest", "disable", "disable-eprt", "disable-epsv", "disallow-username-in-url", "doh-cert-status",
			"doh-insecure", "fail", "fail-early", "fail-with-body", "false-start", "form-escape", "ftp-create-dirs",
			"ftp-pasv", "ftp-pret", "ftp-skip-pasv-ip", "ftp-ssl-ccc", "ftp-ssl-control", "get", "globoff",
			"haproxy-protocol", "head", "help", "http0.9", "http1.0", "http1.1", "http2", "http2-prior-knowledge",
			"http3", "http3-only", "ignore-content-length", "include", "insecure", "ipv4", "ipv6",
			"junk-session-cookies", "list-only", "location", "location-trusted", "mail-rcpt-allowfails", "manual",
			"metalink", "negotiate", "netrc", "netrc-optional", "next", "no-alpn", "no-buffer", "no-clobber",
			"no-keepalive", "no-npn", "no-progress-meter", "no-sessionid", "ntlm", "ntlm-wb", "parallel",
			"parallel-immediate", "path-as-is", "post301", "post302", "post303", "preproxy", "progress-bar", "proxy",
			"proxy-anyauth", "proxy-basic", "proxy-digest", "proxy-insecure", "proxy-negotiate", "proxy-ntlm",
			"proxy-ssl-allow-beast", "proxy-ssl-auto-client-cert", "proxy-tlsv1", "proxytunnel", "raw",
			"remote-header-name", "remote-name", "remote-name-all", "remote-time", "remove-on-error",
			"retry-all-errors", "retry-connrefused", "sasl-ir", "show-error", "silent", "socks5-basic",
			"socks5-gssapi", "socks5-gssapi-nec", "ssl", "ssl-allow-beast", "ssl-auto-client-cert", "ssl-no-revoke",
			"ssl-reqd", "ssl-revoke-best-effort", "sslv2", "sslv3", "styled-output", "suppress-connect-headers",
			"tcp-fastopen", "tcp-nodelay", "tftp-no-options", "tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2", "tlsv1.3",
			"tr-encoding", "trace-time", "use-ascii", "verbose", "version", "xattr",
		},
		Rows: []flagRow{
			{Short: "K", Long: []string{"config"}, Why: "it reads options from a file, which cannot be checked"},
			{Long: []string{"engine"}, Why: "it loads an OpenSSL engine, which is native code"},
		},
	},
	{
		Names:  []string{"wget"},
		Abbrev: validate.WgetOptions.Abbrev, ArgShort: validate.WgetOptions.ArgShort, ArgLong: validate.WgetOptions.ArgLong, Long: validate.WgetOptions.Long,
		Rows: []flagRow{
			{Short: "e", Long: []string{"execute"}, Why: "it runs a .wgetrc command, which can set any option"},
			{Long: []string{"config"}, Why: "it reads a .wgetrc file, which cannot be checked"},
			{Long: []string{"use-askpass"}, Why: "it runs the named program to ask for credentials"},
		},
	},
	{
		Names: []string{"make", "gmake", "bmake"}, Abbrev: true, ArgShort: "CfIoWE", OptShort: "jlO",
		ArgLong: []string{"directory", "file", "makefile", "include-dir", "old-file", "assume-old", "what-if", "new-file", "assume-new", "eval"},
		Rows: []flagRow{
			{Short: "E", Long: []string{"eval"}, Why: "it evaluates makefile text, which can run shell commands ($(shell …))"},
		},
		Check: checkMake,
	},
	{
		Names: []string{"go"}, Style: styleGoFlag, Subcommands: true,
		Rows: []flagRow{
			{Sub: "generate", Why: "it runs the commands written in //go:generate lines"},
			{Sub: "*", Long: []string{"exec", "toolexec", "vettool"}, Why: "it runs the named program around every binary or tool"},
			{Sub: "env", Short: "wu", Why: "it writes the go env file, which changes later builds (GOFLAGS=-toolexec=…)"},
		},
		Check: checkGo,
	},
	{
		Names:  []string{"man"},
		Abbrev: validate.ManOptions.Abbrev, ArgShort: validate.ManOptions.ArgShort, ArgLong: validate.ManOptions.ArgLong, Long: validate.ManOptions.Long,
		Rows: []flagRow{
			{Short: "P", Long: []string{"pager"}, Why: "it names the pager program, which runs"},
			{Short: "H", Long: []string{"html"}, Why: "it runs a web browser"},
			{Short: "X", Long: []string{"gxditview"}, Why: "it runs a viewer program"},
			{Short: "C", Long: []string{"config-file"}, Why: "it reads another man configuration, which names the programs man runs"},
		},
	},
	{Names: []string{"less", "more", "most", "pg"}, Refuse: whyPager},
	{Names: []string{"crontab", "at", "batch", "atq", "atrm"}, Refuse: whyScheduler},
	{
		Names:    []string{"vi", "vim*", "nvim", "view", "ex", "rview", "rvim", "gvim*", "evim", "vimdiff"},
		ArgShort: "cSsuUwWTtqir", NoArgShort: "AbCdDeEFhHlLmMnNoOpRvVxyZ",
		ArgLong: []string{"cmd", "remote", "remote-send", "remote-expr", "remote-tab", "remote-wait", "servername", "startuptime", "listen", "server"},
		Rows: []flagRow{
			{Short: "c", Long: []string{"cmd"}, Words: []string{"+*"}, Why: "it runs editor commands at startup, and :!cmd runs shell commands"},
			{Short: "S", Why: "it sources a script of editor commands"},
			{Short: "s", Why: "it reads Normal-mode commands from a script file"},
			{Short: "uU", Why: "it loads another vimrc, which can run commands"},
			{Short: "wW", Why: "it writes every typed key to a file"},
			{Short: "l", Why: "nvim -l runs a Lua script"},
			{Long: []string{"remote*", "servername", "listen", "server"}, Why: "it sends commands to, or serves, another editor process"},
		},
		Check: checkVim,
	},
	{
		// Emacs takes unambiguous prefixes of its long options (--ev).
		Names: []string{"emacs*"}, Abbrev: true, ArgShort: "lfL",
		ArgLong: []string{"eval", "load", "funcall", "script", "execute", "directory"},
		Rows: []flagRow{
			{Short: "lf", Long: []string{"eval", "load", "funcall", "script", "execute"}, Words: []string{"-eval", "-load", "-funcall", "-script", "-execute", "-x"},
				Why: "it evaluates Emacs Lisp, which can run programs"},
		},
	},
	{
		// nmap reads options with getopt_long_only: -script and --scri are
		// --script too (checkNmap).
		Names: []string{"nmap"}, Abbrev: true,
		Rows: []flagRow{
			{Long: []string{"script*"}, Words: []string{"-sC", "-A"}, Why: "it runs NSE scripts (Lua), which can run programs"},
		},
		Check: checkNmap,
	},
	{
		Names: []string{"tcpdump"}, ArgShort: "BcCDEFGiMmrsTVwWyzZ",
		Rows: []flagRow{
			{Short: "z", Why: "it runs the named program on every file it saves"},
		},
	},
}

// gitRules is git's entry: the top-level options, the subcommand
// allowlist and the options of subcommands that run programs.
var gitRules = &binaryRules{
	Names: []string{"git"}, Subcommands: true, Abbrev: true,
	// git starts vi for a message it was not given (commit without -m), and
	// vi reads its own startup files from HOME too.
	SubArgs: map[string]subArgs{
		"config": {Short: "ft", Long: []string{"file", "blob", "type", "default", "comment", "value", "url"}},
	},
	ArgShort: "Cc", NoArgShort: "pPvh",
	ArgLong: []string{"git-dir", "work-tree", "namespace", "config-env", "super-prefix", "attr-source"},
	Long: []string{"exec-path", "html-path", "man-path", "info-path", "paginate", "no-pager", "bare",
		"no-replace-objects", "no-lazy-fetch", "literal-pathspecs", "glob-pathspecs", "noglob-pathspecs",
		"icase-pathspecs", "no-optional-locks", "list-cmds", "version", "help", "no-advice"},
	Rows: []flagRow{
		{Short: "c", Long: []string{"config-env"}, Why: "it sets configuration for this run, and configuration can run programs (core.pager, core.sshCommand, core.fsmonitor, alias.x=!cmd)"},
		{Long: []string{"exec-path"}, Why: "it changes where git finds its own programs"},
		{Confine: []string{"-C", "--git-dir", "--work-tree"}, Why: "a repository elsewhere brings its own configuration and hooks, which can run programs"},
		{Sub: "*", Long: []string{"upload-pack", "receive-pack", "exec"}, Why: "it names the program git runs for the other side of a transfer, which runs locally for local and ssh remotes"},
		{Sub: "clone ls-remote", Short: "u", Why: "-u is --upload-pack: it names a program git runs"},
		{Sub: "clone", Short: "c", Long: []string{"config"}, Why: "it sets configuration in the new repository, and configuration can run programs"},
		{Sub: "clone init", Long: []string{"template"}, Why: "it copies hooks from a template directory, and hooks run"},
		{Sub: "*", Long: []string{"ext-diff"}, Why: "it runs an external diff program"},
		{Sub: "grep", Short: "O", Long: []string{"open-files-in-pager"}, Why: "it runs a pager program on the matching files"},
		{Sub: "rebase", Short: "x", Why: "-x is --exec: it runs a shell command after each commit"},
		{Sub: "help", Short: "w", Long: []string{"web"}, Why: "it starts a web browser"},
		{Sub: "difftool mergetool", Why: "it runs external diff and merge tools, and -x/--extcmd runs any command"},
		{Sub: "filter-branch filter-repo", Why: "it runs the shell snippets given as filters"},
		{Sub: "maintenance", Why: "it installs scheduled jobs (cron, systemd timers) that outlive the call"},
		{Sub: "daemon instaweb web--browse http-backend shell", Why: "it starts a server or a browser"},
		{Sub: "upload-pack receive-pack upload-archive remote-ext remote-fd hook fsmonitor--daemon", Why: "it runs hooks or the program named on its command line"},
		{Sub: "send-email imap-send credential credential-cache credential-store", Why: "it sends mail or runs credential helpers, which are programs"},
		{Sub: "merge-index", Why: "it runs the merge program named on its command line for every unmerged file"},
		{Sub: "for-each-repo", Why: "it runs a git command in every repository a configuration key lists, outside the workspace"},
		{Sub: "submodule--helper bisect--helper checkout--worker upload-archive--writer credential-cache--daemon env--helper",
			Why: "it is an internal helper of another command (submodule foreach, bisect run …), not a command to run directly"},
	},
	Check: checkGit,
}

// prepareTable derives each entry's matcher, subcommand lists and known
// long options, once, on first use: a toolgen that grants no exec (most
// calls) does not pay for it at start-up.
var prepareTable = sync.OnceFunc(func() {
	for _, r := range flagTable {
		r.match = validate.NewDenyList(r.Names...)
		for i := range r.Rows {
			r.Rows[i].subs = strings.Fields(r.Rows[i].Sub)
		}
		known := append(slices.Clone(r.Long), r.ArgLong...)
		for _, row := range r.Rows {
			for _, l := range row.Long {
				if !strings.HasSuffix(l, "*") {
					known = append(known, l)
				}
			}
		}
		slices.Sort(known)
		r.known = slices.Compact(known)
	}
})

// rulesCache maps a binary name to its entry (nil for none). Names come
// from grants and the files they resolve to, so it stays small.
var rulesCache sync.Map // string → *binaryRules

// rulesFor returns the flag table's entry for a binary name, or nil.
func rulesFor(name string) *binaryRules {
	prepareTable()
	if r, ok := rulesCache.Load(name); ok {
		return r.(*binaryRules)
	}
	var found *binaryRules
	for _, r := range flagTable {
		if _, ok := r.match.Match(name); ok {
			found = r
			break
		}
	}
	rulesCache.Store(name, found)
	return found
}
