// Package exec is ExecTool, the special form of the command tool lineage
// (DESIGN.md §1): the model writes a whole command line, {"command": "git log
// --oneline -5"}, and only the binary is fixed, by an explicit grant. Its
// guarantee is therefore "best effort", made by five defences, numbered as
// DESIGN.md §5 and explain number them (1 allowlist, 2 deny list, 3
// operators, 4 flags, 5 workspace). Every call is read first (defence 3
// must parse the line to find the binary), then checked by 1, 2, 4 and 5;
// the first that refuses ends the call with a 614 that names it:
//
//	error 614: slot "command": defence 3 (operators): pipes (|) are not allowed: exactly one command per call; …
//
// The argument is decoded by the decoder every command tool uses
// (base.DecodeArgs): {"command": "…"} and nothing else; a repeated or
// unknown key is a 614.
//
// ExecTool is off by default: it exists only when the assembling code grants
// binaries (preset.WithExec, toolgen --exec-allow BIN,…).
//
//	k, _ := kernel.New(workspace)
//	t, err := exec.New(k, []string{"ls", "git", "grep"})
//	out, err := t.Call(ctx, json.RawMessage(`{"command": "git status"}`))
//
// There is no shell, ever: the line is parsed, never run by a shell, and the
// kernel executes the resulting argv directly.
//
// # Defence 3: operators (read first)
//
// The line is first checked character by character (validate.CheckLine):
// control characters (newline, tab, CR, ESC …), Unicode white space other
// than the ASCII space, invisible format characters and every lookalike of a
// shell operator or quote (fullwidth ；｜＆＄＜＞＂＇) are refused wherever they
// stand. Then mvdan.cc/sh/v3/syntax parses it with the bash grammar, and it
// must be exactly one simple command of literal words. Refused: more than one
// command (; & newline), && || | |&, redirections and here-documents, $VAR
// ${…} $(…) backticks $((…)) <(…), $'…' and $"…", assignments before the
// command (FOO=1 ls, LD_PRELOAD=…), subshells, blocks, functions, control
// flow, [[ ]], (( )), declare/export/let/time/coproc, a leading !, comments
// and trailing backslashes. Quotes and backslashes are removed by the shell's
// rules: 'single' verbatim, "double" with \$ \` \" \\ unescaped (an unescaped
// $ or ` inside them is refused), \x outside quotes is x.
//
// Characters a shell would expand are refused when unquoted and passed as
// they are when quoted, because no expansion happens and a model that wrote
// *.go expects files: unquoted * ? [ (globs), {a,b} and {1..3} (brace
// expansion; HEAD@{1} and {} are fine), ~ at the start of a word or after
// NAME= (tilde expansion). '*.go', "{a,b}" and \~ pass literally.
//
// # Defence 1: allowlist
//
// The first word must be written plainly (no quotes or backslashes: 'r'm and
// r\m are refused), be a bare name (no /: /bin/rm, ./rm, ../bin/rm are
// refused), and be exactly, case-sensitively, one of the granted names (RM,
// rm.exe, command, exec, builtin are simply not granted). It is resolved
// through the kernel's scrubbed PATH (never the host's) to the absolute path
// that then runs.
//
// # Defence 2: deny list
//
// The name, and the name of the file it resolves to through symlinks (so a
// granted "js" that is a link to nodejs is caught), are checked against the
// deny list of package validate, the same list every form uses, on every
// call. Granting a denied binary fails New with a 613 unless the assembling
// code narrowed the list explicitly (WithDenyList with DenyList.Without,
// preset.WithDenyListNarrowed). Multi-call binaries (busybox, toybox) are
// judged by the granted name, since they act as the program argv[0] names.
//
// # Defence 4: flags
//
// Defence 4 is a lookup in package programs, which knows, for about thirty
// binaries and families (one file each or per family, data reviewed like
// code), how each reads its options (the one grammar the template check
// reads too), which options, words and subcommands turn it into "run
// anything" or "write anywhere", and what its Check finds that rows cannot
// express; Program.ReadCommand reads the line and Command.Refusal says no:
//
//   - interpreters, when the deny list is narrowed to allow them: python -c,
//     -m; node -e, -p, -r, --eval, --print, --require, --import, --inspect;
//     perl -e, -E, -M, -i; ruby -e, -r; php -r, -B, -R, -E, -d; lua -e, -l;
//     awk programs using system(), getline, pipes or print > file;
//   - find -exec, -execdir, -ok, -okdir, -delete, -fprint, -fprintf, -fls;
//   - sed -i/--in-place, -f, and scripts using the e, r, R, w, W commands
//     or the e and w flags of s (sed scripts are parsed; GNU sed --sandbox
//     is the test oracle);
//   - git -c, --config-env, --exec-path, -C/--git-dir/--work-tree outside
//     the workspace, --upload-pack, --receive-pack, --exec, clone -c,
//     --config, --template, grep -O, rebase -x, config writes, bisect run,
//     submodule foreach, filter-branch, difftool, maintenance, merge-index,
//     for-each-repo, help PAGE (it runs the man.viewer programs of the
//     repository's configuration), bundle create, ext:: transports, any
//     argument naming a place inside .git (log --output=.git/config,
//     format-patch -o .git/hooks, checkout-index --prefix=.git/,
//     --work-tree=.git: what is written there decides what git runs next),
//     and any subcommand that is not a built-in of the git that runs, as it
//     lists them itself (git --list-cmds=builtins, asked once per binary):
//     aliases may be !shell commands and git-* programs anything (on git
//     2.39, refs, bisect and submodule are not built-ins);
//   - rg --pre, --pre-glob, --hostname-bin; tar -I, -F, --to-command,
//     --checkpoint-action, --rsh-command, -P and host:file archives; sort
//     --compress-program; split --filter; zip -TT/--unzip-command; curl
//     -K/--config, --engine; wget -e, --config, --use-askpass; rsync -e;
//     ssh -o, -F; nc -e, -c, --sh-exec; socat EXEC: and SYSTEM:; make
//     --eval and VAR= overrides; go generate, -exec, -toolexec, go run
//     pkg@version; man -P, -H; vim -c, +cmd, -S, --cmd (vim reads --cmdx
//     and --CMD as --cmd); emacs --eval; nmap --script (-script, --scri);
//   - less, more and crontab whatever their arguments (New refuses to grant
//     them).
//
// Configuration a program reads from HOME or cwd and that can make it run
// programs is forced safe by the kernel for every form (package programs,
// through the kernel's Programs hook:
// git reads no system or global configuration and has every setting that
// runs a program forced off at command-line precedence; curl's .curlrc,
// wget's .wgetrc, npm's .npmrc, pip's and go's configuration are
// neutralised through their environment variables), and HOME and the XDG
// directories are the kernel's empty private directory, never the
// workspace, so a cloned repository's .gitconfig, .curlrc or .vimrc is
// never read as the user's configuration. What a repository's own
// .git/config can still do is
// listed under "What best effort does not cover".
//
// Options are read the way the binary reads them: "--opt=value" and "--opt
// value", unique abbreviations of long options where the binary's parser
// accepts them (getopt_long, argp, parse-options: sed --in-pl, git
// --upload-pa, curl --conf, zip --unz, ncat --sh-e, emacs --ev), combined
// short options and attached values (sed -ni, -i.bak, perl -le), options
// after operands (GNU argument permutation), tar's old style (tar xIf), and
// "--" as the end of the options. Where the grammar is not known for sure,
// the reading that refuses more is taken.
//
// # Defence 5: workspace and kernel
//
// Every argument is looked at as if it were a path (the word, the value
// after '=', an attached option value, for every binary each rest after a
// run of short option letters (date -uf/outside/secret), after '@', "file:"
// or "host:"): an absolute path, any ".." element, or a relative path that
// leads out of the workspace through a symlink is refused, unless
// WithOutsidePathsAllowed. Then the kernel runs the argv, the same kernel as
// every other form: working directory locked to the workspace, stdin from
// /dev/null, a scrubbed environment with each program's configuration forced
// safe, a timeout that kills the whole process group, and bounded output.
// ExecTool asks the kernel for the least access (read only, no network; or
// only the hosts of WithHosts, toolgen --net-allow, through the kernel's
// egress proxy), which the kernel's confinement (on by default,
// kernel.WithConfinement) enforces.
//
// # What best effort does not cover
//
// A granted binary does whatever its own documented behaviour is with the
// arguments that pass: cp, mv, tee, touch, git commit/checkout/reset/clean,
// tar x write and delete inside the workspace; curl, wget, git fetch/push,
// ssh reach the network. git settings whose names a repository chooses
// (filter and diff drivers, diff.external, aliases) are looked up in the
// repository before each run and forced off too, but a submodule's own
// .git/config, read by the git that recurses into it, is not; only the
// kernel's Landlock execute set stops those. A Makefile, package.json or a
// script a granted interpreter is asked to run can run programs, and a model
// that can write files through any tool can plant them. The flag table
// covers the binaries listed above; any other granted binary gets defences
// 1, 2, 3 and 5 only. Arguments are judged as text, not by what the program
// will make of them (a pattern "/api" is refused as a path, a path hidden in
// a program's own syntax is not seen). When a tool's arguments can be typed
// slots, the declarative form (*.tool.json) is the stronger choice: its
// skeleton is fixed, so the model cannot express anything outside it.
package exec
