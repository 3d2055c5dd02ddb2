package programs

import "strings"

// Programs that reach the network and run programs to do it: rsync, wget,
// curl, nc, socat, tcpdump.

var _ = register(&Program{
	Names: []string{"rsync"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "eBfMT",
		ArgLong: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from",
			"files-from", "log-file", "config", "dparam", "temp-dir", "partial-dir", "backup-dir", "suffix"},
	},
	Code: []CodeOption{
		{Short: "e", Long: []string{"rsh", "rsync-path"}, Kind: CodeRuns, Why: "names the program rsync runs for the transfer",
			ExecWhy: "it names the program rsync runs for the transfer"},
	},
	Rows: []Row{
		{Long: []string{"daemon", "config", "dparam"}, Why: "it starts an rsync daemon configured from a file"},
		{Long: []string{"files-from"}, Why: whyNameList},
		{Short: "LkK", Long: []string{"copy-links", "copy-unsafe-links", "copy-dirlinks", "keep-dirlinks"}, Why: whyFollow},
	},
})

// wget reads ~/.wgetrc; WGETRC names an empty private file instead (wget
// refuses /dev/null), so a .wgetrc of the workspace is not read;
// /etc/wgetrc, the system's, still is.
var _ = register(&Program{
	Names: []string{"wget"},
	Grammar: Grammar{
		Abbrev: true, ArgShort: "eoaODPtTwQiBUYlAR",
		ArgLong: []string{"execute", "config", "use-askpass", "output-file", "append-output", "output-document",
			"directory-prefix", "tries", "timeout", "wait", "quota", "input-file", "base", "user-agent", "level",
			"accept", "reject", "header", "post-data", "post-file", "body-data", "body-file", "method", "load-cookies",
			"save-cookies", "ca-certificate", "ca-directory", "certificate", "private-key", "crl-file"},
	},
	Code: []CodeOption{
		{Short: "e", Long: []string{"execute"}, Kind: CodeRuns, Why: "runs a .wgetrc command, and those set anything wget does (the programs it runs among them)",
			ExecWhy: "it runs a .wgetrc command, which can set any option"},
		{Long: []string{"use-askpass"}, Kind: CodeRuns, Why: "names the program wget runs to ask for credentials",
			ExecWhy: "it runs the named program to ask for credentials"},
		{Long: []string{"config"}, Kind: CodeScriptFile, Why: "names a .wgetrc file wget reads its settings from",
			ExecWhy: "it reads a .wgetrc file, which cannot be checked"},
	},
	Files: []FileOption{
		{Short: "iOoaP", Long: []string{"input-file", "output-document", "output-file", "append-output", "directory-prefix",
			"post-file", "body-file", "load-cookies", "save-cookies", "ca-certificate", "ca-directory", "certificate",
			"private-key", "crl-file"}, Form: FileIs},
	},
	ConfigFiles: []string{"wgetrc"},
	Env: func(r Run) []string {
		if f := configFile(r, "wgetrc"); f != "" {
			return []string{"WGETRC=" + f}
		}
		return []string{"WGETRC=/etc/wgetrc"} // the system file, read anyway
	},
})

// curl takes any unambiguous prefix of a long option (--conf is --config);
// the lists are curl 7.88's (curl --help all), so an exact option beats a
// prefix. It reads .curlrc from $CURL_HOME, $XDG_CONFIG_HOME and HOME
// unless -q/--disable comes first: CURL_HOME names a private directory
// holding an empty .curlrc (curl takes the first it finds), so a .curlrc of
// the workspace is not read.
var _ = register(&Program{
	Names: []string{"curl"},
	Grammar: Grammar{
		Abbrev:   true,
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
	},
	Code: []CodeOption{
		{Long: []string{"engine"}, Kind: CodeRuns, Why: "names the OpenSSL engine curl loads, a shared library (by name, or by path) whose code runs inside it",
			ExecWhy: "it loads an OpenSSL engine, which is native code"},
		{Short: "K", Long: []string{"config"}, Kind: CodeScriptFile, Why: "names a file curl reads its options from, which can set any option (--engine among them)",
			ExecWhy: "it reads options from a file, which cannot be checked"},
	},
	Files: []FileOption{
		{Short: "dHw", Long: []string{"data", "data-ascii", "data-binary", "json", "header", "proxy-header", "write-out"}, Form: FileAt},
		{Long: []string{"data-urlencode", "variable", "url-query"}, Form: FileNameAt},
		{Short: "F", Long: []string{"form"}, Form: FileFormPart},
		{Short: "b", Long: []string{"cookie"}, Form: FileUnlessEq},
		{Short: "TocDE", Long: []string{"upload-file", "output", "cookie-jar", "dump-header", "cert", "key", "cacert", "capath",
			"crlfile", "netrc-file", "trace", "trace-ascii", "libcurl", "etag-save", "etag-compare", "hsts", "alt-svc",
			"output-dir", "stderr", "proxy-cacert", "proxy-capath", "proxy-cert", "proxy-key", "proxy-crlfile", "egd-file",
			"random-file", "unix-socket", "pinnedpubkey", "proxy-pinnedpubkey"}, Form: FileIs},
	},
	ConfigFiles: []string{".curlrc"},
	Env: func(r Run) []string {
		if r.ConfigDir != "" {
			return []string{"CURL_HOME=" + r.ConfigDir}
		}
		return []string{"CURL_HOME=/dev/null"}
	},
})

// ncat reads options with getopt_long: --sh-e is --sh-exec.
var _ = register(&Program{
	Names:   []string{"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"},
	Grammar: Grammar{Abbrev: true, ArgShort: "ecIiOpqsTVwxX"},
	Code: []CodeOption{
		{Short: "ec", Long: []string{"exec", "sh-exec", "lua-exec"}, Kind: CodeRuns, Why: "names the program nc wires to the network connection",
			ExecWhy: "it runs a program wired to the network connection"},
	},
})

// socat: addresses that run programs (the ExecTool's check).
var _ = register(&Program{Names: []string{"socat"}, Check: checkSocat})

var _ = register(&Program{
	Names:   []string{"tcpdump"},
	Grammar: Grammar{ArgShort: "BcCDEFGiMmrsTVwWyzZ"},
	Code: []CodeOption{
		{Short: "z", Kind: CodeRuns, Why: "names the program tcpdump runs on every file it saves",
			ExecWhy: "it runs the named program on every file it saves"},
	},
})

// checkSocat refuses socat addresses that run programs.
func checkSocat(c *Command) *Refusal {
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
