package validate

import "sync"

// codeTable is the data of the code-position rule (codepos.go): per
// program, the options and words whose value is code.

// codeKind is what a code position holds.
type codeKind int

const (
	codeRuns       codeKind = iota // names a program or a command line the program runs
	codeScript                     // a sed script
	codeScriptFile                 // names a file the program reads code from
	codeCommand                    // the words of a command the program runs (find -exec … +)
)

// codeOption is one row of codeTable: spellings of an option whose value is
// code.
type codeOption struct {
	Short string   // option letters ("I" for tar -I)
	Long  []string // long options, without "--"
	// Words are whole single-dash option words ("-exec" of find; "-TT" of
	// zip, whose value may also be attached: -TT=cmd).
	Words []string
	// Optional: the value can only be attached (git grep -O<pager>,
	// git --exec-path=<dir>); written alone the option takes no value.
	Optional bool
	// Sub, for git, is where the option applies: "" before the subcommand,
	// "*" after any subcommand, or a space-separated list of subcommands.
	Sub  string
	Kind codeKind
	Why  string // what the value does, for the message ("which names …")
}

// codeOperands says which operands of a program are a command it runs:
// every operand after Lead, the literal operands that introduce the
// command (git bisect run CMD…: Sub "bisect", Lead "run"), or after the
// first Skip operands, whatever they are (ssh HOST CMD…: Skip 1).
type codeOperands struct {
	Sub  string   // git's subcommand; "" for another program
	Lead []string // the operands before the command, literally
	Skip int      // or how many operands of any value come first
	What string   // the command, for the message ("the command of git bisect run")
	Why  string   // what the program does with it
}

// codeProgram is codeTable's entry for a program or a family of them.
type codeProgram struct {
	// Names are matched like deny-list entries ("sed" covers "sed4.9",
	// "/usr/bin/sed" and "SED"; "gsed" is listed).
	Names []string
	// Abbrev: long options may be abbreviated to a prefix (GNU getopt_long,
	// git's parse-options after the subcommand). Any prefix of a code
	// option counts, unless it is exactly one of Long or ArgLong.
	Abbrev bool
	// ArgShort are option letters that take a value (the rest of the word,
	// or the next word); ArgLong the long options that do (the next word
	// when not attached). Letters not listed are read as flags, so a code
	// letter after them in the same word is found.
	ArgShort string
	ArgLong  []string
	Long     []string // other long options, where an exact name beats an abbreviation
	// WordsOnly: the program has no option clusters (find's -name, -exec).
	WordsOnly bool
	// OldStyle: a first argument without a dash is a cluster of option
	// letters whose values are the next words (tar xIf PROG ARCHIVE).
	OldStyle bool
	Sed      bool // the first operand is the script unless -e/-f is given
	Git      bool // top-level options, a subcommand, then the subcommand's options
	Code     []codeOption
	// Commands are the operands that are a command the program runs (git
	// bisect run CMD…, ssh HOST CMD…).
	Commands []codeOperands

	match DenyList // Names, as a matcher
}

const (
	whyGitConfig = "sets configuration for the run, and git settings can run programs (core.fsmonitor, diff.external, alias.x=!cmd)"
	whySedScript = "a sed script is code: GNU sed's e command and the e flag of s run shell commands, and r, R, w, W and the w flag of s read and write files"
)

// codeTable lists, per program, the options and words whose value is code.
// Extend it here; TestCodePositions attacks every row in its spellings.
var codeTable = []*codeProgram{
	{
		Names: []string{"git"}, Git: true, Abbrev: true,
		ArgShort: "CceABnmFSGLlUbosXjpI", // after the subcommand: values of -e, -n, -m … are not letters
		Code: []codeOption{
			{Short: "c", Long: []string{"config-env"}, Kind: codeRuns, Why: whyGitConfig},
			{Long: []string{"exec-path"}, Optional: true, Kind: codeRuns, Why: "chooses the directory git runs its own programs from"},
			{Sub: "*", Long: []string{"upload-pack", "receive-pack", "exec"}, Kind: codeRuns,
				Why: "names a program git runs (for the other side of a transfer, locally for local and ssh remotes; rebase --exec: a shell command)"},
			{Sub: "clone ls-remote fetch-pack", Short: "u", Kind: codeRuns, Why: "is --upload-pack: it names the program git runs for the other side of the transfer"},
			{Sub: "clone", Short: "c", Long: []string{"config"}, Kind: codeRuns, Why: "sets configuration in the new repository, and git settings can run programs"},
			{Sub: "grep", Short: "O", Long: []string{"open-files-in-pager"}, Optional: true, Kind: codeRuns, Why: "names the pager git runs on the matching files"},
			{Sub: "rebase", Short: "x", Kind: codeRuns, Why: "is --exec: a shell command run after each commit"},
			{Sub: "difftool", Short: "x", Long: []string{"extcmd"}, Kind: codeRuns, Why: "names the diff command git runs"},
			{Sub: "difftool mergetool", Short: "t", Long: []string{"tool"}, Kind: codeRuns, Why: "chooses the diff or merge tool git runs (an editor among them)"},
			{Sub: "filter-branch", Long: []string{"env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter",
				"commit-filter", "tag-name-filter"}, Kind: codeRuns, Why: "is a shell command git runs for every commit"},
			{Sub: "send-email", Long: []string{"sendmail-cmd", "smtp-server", "to-cmd", "cc-cmd", "header-cmd"}, Kind: codeRuns,
				Why: "names a program git runs to send the mail or to find its recipients"},
		},
		Commands: []codeOperands{
			{Sub: "bisect", Lead: []string{"run"}, What: "the command of git bisect run", Why: "git runs to judge each commit"},
			{Sub: "submodule", Lead: []string{"foreach"}, What: "the command of git submodule foreach",
				Why: "git runs through the shell in each submodule"},
		},
	},
	{
		Names: []string{"sed", "gsed"}, Sed: true, Abbrev: true, ArgShort: "efl",
		ArgLong: []string{"expression", "file", "line-length"},
		Long: []string{"quiet", "silent", "debug", "follow-symlinks", "in-place", "posix", "regexp-extended",
			"separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "help", "version", "binary"},
		Code: []codeOption{
			{Short: "e", Long: []string{"expression"}, Kind: codeScript, Why: whySedScript},
			{Short: "f", Long: []string{"file"}, Kind: codeScriptFile, Why: "names the file sed reads its script from, and a sed script is code"},
		},
	},
	{
		Names: []string{"find", "gfind", "bfs"}, WordsOnly: true,
		Code: []codeOption{
			{Words: []string{"-exec", "-execdir", "-ok", "-okdir"}, Kind: codeCommand, Why: "runs the command for each file found"},
		},
	},
	{
		Names: []string{"fd", "fdfind"}, ArgShort: "ctdEeSoj",
		Code: []codeOption{
			{Short: "xX", Long: []string{"exec", "exec-batch"}, Kind: codeCommand, Why: "runs the command for the files found"},
		},
	},
	{
		Names:  []string{"sort", "gsort"},
		Abbrev: SortOptions.Abbrev, ArgShort: SortOptions.ArgShort, ArgLong: SortOptions.ArgLong, Long: SortOptions.Long,
		Code: []codeOption{
			{Long: []string{"compress-program"}, Kind: codeRuns, Why: "names the program sort runs to compress temporary files"},
		},
	},
	{
		Names: []string{"tar", "gtar", "bsdtar"}, OldStyle: true,
		Abbrev: TarOptions.Abbrev, ArgShort: TarOptions.ArgShort, ArgLong: TarOptions.ArgLong, Long: TarOptions.Long,
		Code: []codeOption{
			{Short: "I", Long: []string{"use-compress-program"}, Kind: codeRuns, Why: "names the program tar runs as the compressor"},
			{Short: "F", Long: []string{"info-script", "new-volume-script"}, Kind: codeRuns, Why: "names a script tar runs at the end of each volume"},
			{Long: []string{"to-command"}, Kind: codeRuns, Why: "is a shell command tar pipes every extracted file into"},
			{Long: []string{"checkpoint-action"}, Kind: codeRuns, Why: "is an action tar runs at checkpoints (exec=command)"},
			{Long: []string{"rsh-command", "rmt-command"}, Kind: codeRuns, Why: "names the program tar runs to reach a remote archive"},
		},
	},
	{
		Names:  []string{"rsync"},
		Abbrev: RsyncOptions.Abbrev, ArgShort: RsyncOptions.ArgShort, ArgLong: RsyncOptions.ArgLong, Long: RsyncOptions.Long,
		Code: []codeOption{
			{Short: "e", Long: []string{"rsh", "rsync-path"}, Kind: codeRuns, Why: "names the program rsync runs for the transfer"},
		},
	},
	{
		Names:  []string{"zip"},
		Abbrev: ZipOptions.Abbrev, ArgShort: ZipOptions.ArgShort, ArgLong: ZipOptions.ArgLong, Long: ZipOptions.Long,
		Code: []codeOption{
			{Words: []string{"-TT"}, Long: []string{"unzip-command"}, Kind: codeRuns, Why: "names the program zip runs to test the archive"},
		},
	},
	{
		Names: []string{"rg", "ripgrep"}, ArgShort: "ABCdEefgjMmrtT",
		Code: []codeOption{
			{Long: []string{"pre"}, Kind: codeRuns, Why: "names a preprocessor program rg runs on every file searched"},
			{Long: []string{"hostname-bin"}, Kind: codeRuns, Why: "names a program rg runs to get the host name"},
		},
	},
	{
		Names:  []string{"wget"},
		Abbrev: WgetOptions.Abbrev, ArgShort: WgetOptions.ArgShort, ArgLong: WgetOptions.ArgLong, Long: WgetOptions.Long,
		Code: []codeOption{
			{Short: "e", Long: []string{"execute"}, Kind: codeRuns, Why: "runs a .wgetrc command, and those set anything wget does (the programs it runs among them)"},
			{Long: []string{"use-askpass"}, Kind: codeRuns, Why: "names the program wget runs to ask for credentials"},
			{Long: []string{"config"}, Kind: codeScriptFile, Why: "names a .wgetrc file wget reads its settings from"},
		},
	},
	{
		Names: []string{"ssh", "slogin"}, ArgShort: SSHOptions.ArgShort,
		Commands: []codeOperands{{Skip: 1, What: "the remote command of ssh (the operands after the host)", Why: "the remote host's shell runs"}},
		Code: []codeOption{
			{Short: "o", Kind: codeRuns, Why: "sets an ssh option, and some run local programs (ProxyCommand, LocalCommand, KnownHostsCommand)"},
			{Short: "F", Kind: codeScriptFile, Why: "names the configuration file ssh reads, whose options can run local programs"},
		},
	},
	{
		Names: []string{"scp", "sftp"}, ArgShort: "BbcDFiJloPRSXs",
		Code: []codeOption{
			{Short: "o", Kind: codeRuns, Why: "sets an ssh option, and some run local programs (ProxyCommand, LocalCommand, KnownHostsCommand)"},
			{Short: "S", Kind: codeRuns, Why: "names the program used for the connection (ssh by default)"},
			{Short: "D", Kind: codeRuns, Why: "names the sftp server program to run directly (sftp -D)"},
			{Short: "F", Kind: codeScriptFile, Why: "names the configuration file ssh reads, whose options can run local programs"},
		},
	},
	{
		Names:  []string{"man"},
		Abbrev: ManOptions.Abbrev, ArgShort: ManOptions.ArgShort, ArgLong: ManOptions.ArgLong, Long: ManOptions.Long,
		Code: []codeOption{
			{Short: "P", Long: []string{"pager"}, Kind: codeRuns, Why: "names the pager program man runs"},
			{Short: "H", Long: []string{"html"}, Optional: true, Kind: codeRuns, Why: "names the web browser man runs"},
			{Long: []string{"preprocessor"}, Kind: codeRuns, Why: "chooses the preprocessors man runs"},
			{Short: "C", Long: []string{"config-file"}, Kind: codeScriptFile, Why: "names the configuration man reads, which names the programs it runs"},
		},
	},
	{
		Names: []string{"tcpdump"}, ArgShort: "BcCDEFGiMmrsTVwWyzZ",
		Code: []codeOption{
			{Short: "z", Kind: codeRuns, Why: "names the program tcpdump runs on every file it saves"},
		},
	},
	{
		Names: []string{"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"}, Abbrev: true, ArgShort: "ecIiOpqsTVwxX",
		Code: []codeOption{
			{Short: "ec", Long: []string{"exec", "sh-exec", "lua-exec"}, Kind: codeRuns, Why: "names the program nc wires to the network connection"},
		},
	},
	{
		Names:  []string{"split", "gsplit"},
		Abbrev: SplitOptions.Abbrev, ArgShort: SplitOptions.ArgShort, ArgLong: SplitOptions.ArgLong, Long: SplitOptions.Long,
		Code: []codeOption{
			{Long: []string{"filter"}, Kind: codeRuns, Why: "is a shell command split runs for every output file"},
		},
	},
}

// prepareCodeTable builds each entry's matcher once, on first use.
var prepareCodeTable = sync.OnceFunc(func() {
	for _, p := range codeTable {
		p.match = NewDenyList(p.Names...)
	}
})

// codeEntries caches codeEntry by binary (templates name few binaries).
var codeEntries boundedCache[*codeProgram]

// codeEntry returns codeTable's entry for a binary, or nil.
func codeEntry(binary string) *codeProgram {
	if p, ok := codeEntries.load(binary); ok {
		return p
	}
	prepareCodeTable()
	var found *codeProgram
	for _, p := range codeTable {
		if _, ok := p.match.Match(binary); ok {
			found = p
			break
		}
	}
	codeEntries.store(binary, found)
	return found
}
