// Package programs is what toolgen knows about each program a command tool
// may run, in one place: the names a program goes by and whether it is on
// the deny list (and why), how it reads its options (one grammar, read by
// both the template check of package validate and the ExecTool's defence 4),
// where its arguments are code (code positions) and which options the
// ExecTool refuses and why, the environment and configuration forced on it
// so that nothing the workspace holds decides what it runs, the helper
// directories it may execute from and the extra files it may read under
// confinement.
//
// One reader reads a command line with a program's Grammar and its code
// options (reader.go, Program.ReadLine), and two consumers judge what it
// read. The template check (package validate) reads a template, whose
// slots are holes, and finds a slot in a code position with the Code,
// Commands, Script and SubWhy of the template's program. The ExecTool's
// defence 4 (package runtime/exec) looks the granted binary up (Lookup),
// reads the command line (Program.ReadCommand, through ReadLine) and
// refuses what the code options' ExecWhy, the Rows and the Check refuse
// (Command.Refusal).
//
// A long option resolves by one rule (longopt.go: an exact name wins,
// then a unique prefix where the program takes abbreviations), which
// TestConfirm checks against the installed programs; FuzzTemplateCode
// holds the two consumers' judgements of every program's templates to
// each other.
//
// One file per program or family: git.go, sed.go, tar.go, net.go (curl,
// wget, rsync, nc …), ssh.go …
// Each declares one *Program and registers it with register in an init
// function; the order of the files does not matter, since no two programs
// share a name. Adding a program is one Go file here plus one testdata file,
// testdata/NAME.txtar, holding the templates and ExecTool command lines it
// accepts and refuses with the exact 613 or 614 line, and the environment
// forced on it (TestProgramData replays them; TestConfirm replays each
// grammar row against the installed program outside -short).
//
// The deny list (deny.go, DenyList: the one deny-list type every package
// and entry point takes) and the judging of the file a path resolves to
// (program_file.go) are here too: a program is denied by name, by the name
// of the file its path resolves to, and by the #! interpreter of a script.
//
// The mechanisms the data relies on live in packages of their own:
// internal/sedscript judges a sed script, internal/shebang reads a #! line,
// internal/fileid tells files apart by device and inode.
//
// The kernel learns a program's forced environment, helper directories and
// extra reads through one hook, Hook, which the preset (and base.New and
// exec.New, for a kernel that has none) gives it: package runtime/kernel
// imports no toolgen package but runtime/sandbox.
package programs
