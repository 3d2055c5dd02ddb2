package programs

import "strings"

// tar, and the archivers that run programs: zip.

var _ = register(&Program{
	Names: []string{"tar", "gtar", "bsdtar"},
	Check: checkTar,
	Grammar: Grammar{
		OldStyle: true, Abbrev: true, ArgShort: "bCfFgHIKLNTVX", NoArgShort: "AcdrtuxGnSkUWOmpsjJzZPlRvwoaBiM",
		ArgLong: []string{"file", "directory", "files-from", "exclude-from", "exclude", "transform", "xform", "format",
			"label", "newer", "after-date", "newer-mtime", "starting-file", "listed-incremental", "blocking-factor",
			"tape-length", "mode", "mtime", "owner", "group", "owner-map", "group-map", "sort", "suffix",
			"strip-components", "index-file", "record-size", "pax-option", "quoting-style", "quote-chars",
			"no-quote-chars", "warning", "volno-file", "hole-detection", "level", "sparse-version", "add-file",
			"exclude-tag", "exclude-tag-all", "exclude-tag-under", "exclude-ignore", "exclude-ignore-recursive",
			"xattrs-exclude", "xattrs-include", "use-compress-program", "to-command", "checkpoint-action",
			"info-script", "new-volume-script", "rsh-command", "rmt-command"},
		Long: []string{"checkpoint", "force-local", "to-stdout", "absolute-names", "list", "extract", "create"},
	},
	Code: []CodeOption{
		{Short: "I", Long: []string{"use-compress-program"}, Kind: CodeRuns, Why: "names the program tar runs as the compressor",
			ExecWhy: "it runs the named program as the compressor"},
		{Short: "F", Long: []string{"info-script", "new-volume-script"}, Kind: CodeRuns, Why: "names a script tar runs at the end of each volume",
			ExecWhy: "it runs a script at the end of each volume"},
		{Long: []string{"to-command"}, Kind: CodeRuns, Why: "is a shell command tar pipes every extracted file into",
			ExecWhy: "it pipes every extracted file into a command"},
		{Long: []string{"checkpoint-action"}, Kind: CodeRuns, Why: "is an action tar runs at checkpoints (exec=command)",
			ExecWhy: "it runs actions (exec=…) at checkpoints"},
		{Long: []string{"rsh-command", "rmt-command"}, Kind: CodeRuns, Why: "names the program tar runs to reach a remote archive",
			ExecWhy: "it runs the named program to reach a remote archive"},
	},
	Rows: []Row{
		{Short: "P", Long: []string{"absolute-names"}, Why: "it reads and writes absolute paths, outside the workspace"},
		{Short: "h", Long: []string{"dereference"}, Why: "it archives what symlinks point to, and a symlink can lead out of the workspace"},
		{Short: "T", Long: []string{"files-from"}, Why: whyNameList},
	},
})

// zip takes unambiguous prefixes of long options (--unz is
// --unzip-command, the long form of -TT).
var _ = register(&Program{
	Names: []string{"zip"},
	Check: checkZipRecursion,
	Grammar: Grammar{
		Abbrev: true, ArgShort: "bnstxiO",
		ArgLong: []string{"unzip-command", "out", "temp-path", "split-size", "exclude", "include", "logfile-path", "suffixes", "password"},
		Long: []string{"test", "copy", "dif", "recurse-paths", "quiet", "verbose", "help", "version", "delete", "update",
			"freshen", "move", "grow"},
	},
	Code: []CodeOption{
		{Words: []string{"-TT"}, Long: []string{"unzip-command"}, Kind: CodeRuns, Why: "names the program zip runs to test the archive",
			ExecWhy: "it runs the named program to test the archive"},
	},
})

// checkTar refuses remote archives: GNU tar opens an archive named
// host:file through rsh or ssh unless --force-local is given.
func checkTar(c *Command) *Refusal {
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
func checkZip(c *Command) *Refusal {
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
func checkZipRecursion(c *Command) *Refusal {
	if r := checkZip(c); r != nil {
		return r
	}
	return refuseRecursionFollowing(c, "zip", "rR", []string{"recurse-paths", "recurse-patterns"}, "y", []string{"symlinks"}, "-y")
}
