package validate

// Options is how a program reads its options, as the ExecTool's flag table
// (runtime/exec) and the code-position rule (codetable.go) both need to
// know it: the one copy of each program's grammar that both tables name.
type Options struct {
	// Abbrev: long options may be abbreviated to a unique prefix (GNU
	// getopt_long).
	Abbrev bool
	// ArgShort are the option letters that take a value (the rest of the
	// word, or the next word).
	ArgShort string
	// ArgLong are the long options (without "--") that take a value (the
	// next word when not attached).
	ArgLong []string
	// Long are other long options, listed where an exact name must beat an
	// abbreviation ("--checkpoint" is not "--checkpoint-action").
	Long []string
}

// The grammars of the programs both tables read.
var (
	TarOptions = Options{Abbrev: true, ArgShort: "bCfFgHIKLNTVX",
		ArgLong: []string{"file", "directory", "files-from", "exclude-from", "exclude", "transform", "xform", "format",
			"label", "newer", "after-date", "newer-mtime", "starting-file", "listed-incremental", "blocking-factor",
			"tape-length", "mode", "mtime", "owner", "group", "owner-map", "group-map", "sort", "suffix",
			"strip-components", "index-file", "record-size", "pax-option", "quoting-style", "quote-chars",
			"no-quote-chars", "warning", "volno-file", "hole-detection", "level", "sparse-version", "add-file",
			"exclude-tag", "exclude-tag-all", "exclude-tag-under", "exclude-ignore", "exclude-ignore-recursive",
			"xattrs-exclude", "xattrs-include", "use-compress-program", "to-command", "checkpoint-action",
			"info-script", "new-volume-script", "rsh-command", "rmt-command"},
		Long: []string{"checkpoint", "force-local", "to-stdout", "absolute-names", "list", "extract", "create"}}
	ZipOptions = Options{Abbrev: true, ArgShort: "bnstxiO",
		ArgLong: []string{"unzip-command", "out", "temp-path", "split-size", "exclude", "include", "logfile-path", "suffixes", "password"},
		Long: []string{"test", "copy", "dif", "recurse-paths", "quiet", "verbose", "help", "version", "delete", "update",
			"freshen", "move", "grow"}}
	SortOptions = Options{Abbrev: true, ArgShort: "kotST",
		ArgLong: []string{"key", "output", "field-separator", "buffer-size", "temporary-directory", "compress-program",
			"batch-size", "files0-from", "parallel", "random-source", "sort"}}
	SplitOptions = Options{Abbrev: true, ArgShort: "abClnt",
		ArgLong: []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "separator", "additional-suffix",
			"filter", "numeric-suffixes", "hex-suffixes"}}
	RsyncOptions = Options{Abbrev: true, ArgShort: "eBfMT",
		ArgLong: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from",
			"files-from", "log-file", "config", "dparam", "temp-dir", "partial-dir", "backup-dir", "suffix"}}
	WgetOptions = Options{Abbrev: true, ArgShort: "eoaODPtTwQiBUYlAR",
		ArgLong: []string{"execute", "config", "use-askpass", "output-file", "append-output", "output-document",
			"directory-prefix", "tries", "timeout", "wait", "quota", "input-file", "base", "user-agent", "level",
			"accept", "reject", "header", "post-data", "post-file", "body-data", "body-file", "method"}}
	ManOptions = Options{Abbrev: true, ArgShort: "CPHXpTMmSsLeERKr",
		ArgLong: []string{"config-file", "pager", "html", "gxditview", "preprocessor", "troff-device", "manpath",
			"systems", "sections", "locale", "extension", "encoding", "recode", "prompt"}}
	SSHOptions = Options{ArgShort: "BbcDEeFIiJLlmOoPpQRSWw"}
)
