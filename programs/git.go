package programs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nanogpt/toolgen/internal/within"
)

// git: the forced environment and configuration, the look at the
// repository's own settings, the helper directory and /etc/gitconfig.
// (Its grammar, code positions and ExecTool refusals follow below.)
//
// git (every form: code-form, descriptor, generated, ExecTool):
//
//   - GIT_CONFIG_NOSYSTEM=1, GIT_CONFIG_SYSTEM=/dev/null and
//     GIT_CONFIG_GLOBAL=/dev/null: no system or global configuration (a
//     repository's tracked .gitconfig, or $XDG_CONFIG_HOME/git/config, is
//     never read as the user's). Settings git reads only from "protected"
//     configuration (uploadpack.packObjectsHook, trace2.*) are then unset.
//   - Environment variables that beat any configuration: GIT_PAGER=cat (and
//     no pager runs anyway: stdout is a pipe, and pager.<cmd> loses to
//     GIT_PAGER), GIT_EDITOR=: and GIT_SEQUENCE_EDITOR=: (":" means "do not
//     edit"), GIT_ASKPASS= and SSH_ASKPASS= empty (no askpass program, which
//     also beats core.askPass) with GIT_TERMINAL_PROMPT=0,
//     GIT_SSH_COMMAND=ssh and GIT_SSH_VARIANT=ssh (beat core.sshCommand and
//     ssh.variant), GIT_PROXY_COMMAND= empty (set, it makes git ignore every
//     core.gitProxy), GIT_NO_LAZY_FETCH=1 (a missing object of a promisor
//     remote is not fetched, so remote.<name>.promisor with a hostile
//     uploadpack cannot run), GIT_ALLOW_PROTOCOL=http:https:ssh:git (no
//     file, ext::, fd:: or remote-helper transport: a local remote's
//     remote.<name>.uploadpack/receivepack and url.<base>.insteadOf rewrites
//     to ext:: cannot run a program).
//   - GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, which git reads
//     with command-line precedence, above the repository's .git/config, its
//     config.worktree and anything they include (include.path, includeIf):
//     see gitForced for the keys and values. After them, safe.directory set
//     to the workspace and nothing else (gitSafeEnv): a workspace owned by
//     another user (a container's mounted volume) is one the user chose to
//     work in, and git would otherwise refuse it ("dubious ownership").
//
// Settings whose name the repository chooses cannot be listed in advance:
// filter.<driver>.clean/smudge/process (git status, diff, add, checkout on
// files .gitattributes maps to the driver), diff.<driver>.textconv and
// .command (git diff, log -p, show), merge.<driver>.driver, diff.external
// (which has no "off" value: an empty one makes every diff fail),
// submodule.<name>.update and .ignore, alias.<name>,
// difftool/mergetool/man/browser .<tool>.cmd and .path. For these,
// gitEnv asks the git that will run which of them the repository it
// will use sets (git config --get-regexp, with this environment, in the same
// directory and with the same -C, --git-dir and --work-tree), and forces
// each found off at command-line precedence too (gitRepoEnv). What that look
// cannot see is left to the Confiner's execute set (the resolved binary, the
// loader and ExecDirs: never a shell or an interpreter): a
// submodule's own .git/config, read by the git that status and diff run
// inside it when .gitmodules says ignore = none (diff.ignoreSubmodules=dirty
// keeps them out otherwise, and a repository's submodule.<name>.ignore is
// forced to dirty); a configuration changed between the look and the run;
// man.viewer, a list nothing on the command line can empty (git help PAGE;
// ExecTool refuses it).
//
// noProgram is the value given to a setting that names a program to run,
// when it must run nothing: an absolute path that can never exist (nothing
// can be created below /dev/null) and holds no shell metacharacter, so git
// executes it directly, fails with "cannot run", and runs nothing.
const noProgram = "/dev/null/disabled-by-toolgen"

// gitForced are the settings forced at command-line precedence for every
// git, in order. The values are the ones that mean "off" to git 2.39.
var gitForced = [][2]string{
	{"core.fsmonitor", "false"},              // git status runs the fsmonitor hook
	{"core.hooksPath", "/dev/null"},          // no hook is ever found
	{"core.pager", "cat"},                    // "cat" means no pager
	{"core.editor", ":"},                     // ":" means do not edit
	{"sequence.editor", ":"},                 //
	{"core.askPass", ""},                     // no askpass program
	{"core.sshCommand", "ssh"},               // the ssh on PATH, nothing else
	{"ssh.variant", "ssh"},                   //
	{"core.alternateRefsCommand", noProgram}, // fetch/receive with alternates
	{"credential.helper", ""},                // empty resets the list, credential.<url>.helper included
	{"gpg.program", noProgram},               // log --show-signature, verify-*, merge --verify-signatures
	{"gpg.openpgp.program", noProgram},       //
	{"gpg.x509.program", noProgram},          //
	{"gpg.ssh.program", noProgram},           //
	{"gpg.ssh.defaultKeyCommand", noProgram}, // commit -S with ssh signing
	{"log.showSignature", "false"},           // git log would run gpg.program
	{"merge.verifySignatures", "false"},      //
	{"commit.gpgSign", "false"},              //
	{"tag.gpgSign", "false"},                 //
	{"tag.forceSignAnnotated", "false"},      //
	{"push.gpgSign", "false"},                //
	{"protocol.allow", "never"},              // behind GIT_ALLOW_PROTOCOL, in case it is dropped
	{"protocol.ext.allow", "never"},          //
	{"protocol.fd.allow", "never"},           //
	{"protocol.file.allow", "never"},         // a local remote runs its uploadpack/receivepack here
	{"mailmap.blob", ""},                     // a missing blob would be lazily fetched
	{"interactive.diffFilter", ""},           // add -p pipes the diff through it
	{"help.browser", noProgram},              // git help -w
	{"web.browser", noProgram},               //
	{"help.autoCorrect", "0"},                // a typo never runs the guessed command
	{"http.saveCookies", "false"},            // http.cookieFile may name any file to write
	{"gc.auto", "0"},                         // no background gc that outlives the call
	{"gc.autoDetach", "false"},               //
	{"maintenance.auto", "false"},            //
	{"fetch.recurseSubmodules", "false"},     // submodules bring their own .git/config
	{"submodule.recurse", "false"},           //
	{"diff.ignoreSubmodules", "dirty"},       // status and diff do not run git inside submodules, whose config is unseen
	{"color.ui", "never"},                    // output for a model: no escape sequences a repository turned on
	{"color.advice", "never"},                // each color.<command> beats color.ui, so each is forced too
	{"color.branch", "never"},                //
	{"color.diff", "never"},                  //
	{"color.grep", "never"},                  //
	{"color.interactive", "never"},           //
	{"color.push", "never"},                  //
	{"color.remote", "never"},                //
	{"color.showBranch", "never"},            //
	{"color.status", "never"},                //
	{"color.transport", "never"},             //
}

// gitEnv is git's part of programEnv, built once.
var gitEnv = sync.OnceValue(func() []string {
	env := []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_NO_LAZY_FETCH=1",
		"GIT_ALLOW_PROTOCOL=http:https:ssh:git",
		"GIT_PROXY_COMMAND=",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_EDITOR=:",
		"GIT_SEQUENCE_EDITOR=:",
		"GIT_ASKPASS=",
		"SSH_ASKPASS=",
		"SSH_ASKPASS_REQUIRE=never",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_SSH_COMMAND=ssh",
		"GIT_SSH_VARIANT=ssh",
		"GIT_CONFIG_COUNT=" + strconv.Itoa(len(gitForced)),
	}
	for i, kv := range gitForced {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return env
})

// gitLookTimeout bounds gitRepoEnv's look at the configuration (a
// variable for tests).
var gitLookTimeout = 5 * time.Second

// gitNamedPattern matches, for git config --get-regexp (which compares
// section and key ignoring case), the settings that name a program under a
// name the repository chooses: filter drivers, diff drivers' textconv and
// command, merge drivers, diff.external, submodule update commands, aliases
// and the tools of difftool, mergetool, help and web--browse.
const gitNamedPattern = `^(filter\..+\.(clean|smudge|process)|diff\..+\.(textconv|command)|diff\.external|` +
	`merge\..+\.driver|submodule\..+\.(update|ignore)|alias\..+|(difftool|mergetool|man|browser)\..+\.(cmd|path))$`

// gitRepoEnv asks git (with programEnv's environment, so no system or
// global file is read, and includes are followed as git follows them)
// which of the settings gitNamedPattern matches the repository that git
// run in dir with args would use sets, and returns a GIT_CONFIG_COUNT and
// GIT_CONFIG_KEY_n/VALUE_n entries that extend gitForced with each of them
// forced off: a filter emptied (git then applies none), a command given
// noProgram (git fails to run it and says so), an alias emptied (git
// refuses an empty alias), a submodule update "none" and ignore "dirty".
// nil when none is set; when the look fails (a configuration git cannot
// read or parse, a FIFO named by include.path, the timeout, more than
// maxLookNames names), an invalid key that makes git refuse to run.
//
// What it cannot see is left to the Confiner's execute set: a repository
// git reaches later (a submodule's own .git/config, read by the git that
// recurses into it), and a configuration changed between this look and the
// run (another call writing .git/config at the same moment).
func gitRepoEnv(path, dir string, args []string, look Look) []string {
	if look == nil {
		return gitRefusedEnv("the repository configuration could not be checked: no look was possible")
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitLookTimeout)
	defer cancel()
	argv := append([]string{path}, gitLocation(args)...)
	argv = append(argv, "config", "--null", "--name-only", "--get-regexp", gitNamedPattern)
	// The run's environment (Look starts from it), so that what git reads
	// depends on nothing that differs between the look and the run
	// (include.path = ~/x fails without HOME, and a look that fails must
	// not let the run go unforced).
	env := append(append([]string{"LC_ALL=C"}, gitEnv()...), gitSafeEnv(dir)...)
	out := &lookOutput{limit: maxLookOutput, full: cancel}
	stderr := &lookOutput{limit: 4 << 10, full: func() {}}
	// The look is a process of the host's: Look makes it die with the host,
	// and stay within the memory a command gets and the time it is given.
	err := look(ctx, argv, env, out, stderr, gitLookTimeout)
	var exit *exec.ExitError
	switch {
	case out.over:
		// A repository naming this many settings is not one to run git
		// in: forcing each off would make an environment the kernel
		// refuses (E2BIG), after a merge that took minutes.
		return gitRefusedEnv(fmt.Sprintf("the repository configuration names more than %d settings that run programs", maxLookNames))
	case err == nil && len(out.b) > 0:
	case err == nil || errors.As(err, &exit) && exit.ExitCode() == 1:
		return nil // exit 1: nothing set
	case exit != nil && exit.Exited():
		// A configuration git cannot read or parse here. The run may read
		// it differently (the look and the run differ in confinement, and
		// a file can change between them): fail closed, saying why.
		why, _, _ := strings.Cut(strings.TrimSpace(string(stderr.b)), "\n")
		return gitRefusedEnv("the repository configuration could not be checked: " + why)
	default:
		// Killed (a FIFO named by include.path, the timeout) or not
		// started: fail closed. An invalid key makes every git that reads
		// configuration stop with "invalid key: …", naming the reason.
		return gitRefusedEnv("the repository configuration could not be checked: " + err.Error())
	}
	names := strings.Split(strings.TrimSuffix(string(out.b), "\x00"), "\x00")
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) > maxLookNames {
		return gitRefusedEnv(fmt.Sprintf("the repository configuration names more than %d settings that run programs", maxLookNames))
	}
	forced := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(gitRepoFirst+len(names))}
	for i, name := range names {
		n := strconv.Itoa(gitRepoFirst + i)
		forced = append(forced, "GIT_CONFIG_KEY_"+n+"="+name, "GIT_CONFIG_VALUE_"+n+"="+namedOff(name))
	}
	return forced
}

// maxLookNames bounds the settings gitRepoEnv forces off, and
// maxLookOutput the look's output (names of up to ~60 bytes each, with
// the duplicates that repeated includes print): past either, the look
// fails closed.
const (
	maxLookNames  = 1000
	maxLookOutput = 64 << 10
)

// gitRefusedEnv returns the entries that make every git that reads
// configuration refuse to run, naming why: gitForced and one invalid key,
// whose text is the reason ("invalid key: toolgen.refused: …").
func gitRefusedEnv(why string) []string {
	return []string{
		"GIT_CONFIG_COUNT=" + strconv.Itoa(gitRepoFirst+1),
		"GIT_CONFIG_KEY_" + strconv.Itoa(gitRepoFirst) + "=toolgen.refused: " + why,
		"GIT_CONFIG_VALUE_" + strconv.Itoa(gitRepoFirst) + "=refused",
	}
}

// gitRepoFirst is the index of the first GIT_CONFIG_KEY_n that gitRepoEnv
// sets: after gitForced and gitSafeEnv's safe.directory.
var gitRepoFirst = len(gitForced) + 1

// gitSafeEnv returns the entries that set safe.directory, after gitForced,
// to dir (the workspace, absolute, symlinks resolved) and nothing wider: git
// then works in a repository at the workspace's root that another user owns
// (a container's mounted volume), and in no other. git reads safe.directory
// only from protected configuration, which the command-line precedence of
// GIT_CONFIG_COUNT is; the repository's own configuration cannot widen it.
// A dir that git would read as a pattern (a last element "*", git 2.46's
// prefix match), or one that is not absolute, gets the empty value instead,
// which empties the list: no directory is made safe.
func gitSafeEnv(dir string) []string {
	n := strconv.Itoa(len(gitForced))
	if !filepath.IsAbs(dir) || filepath.Base(dir) == "*" {
		dir = ""
	}
	return []string{
		"GIT_CONFIG_COUNT=" + strconv.Itoa(len(gitForced)+1),
		"GIT_CONFIG_KEY_" + n + "=safe.directory",
		"GIT_CONFIG_VALUE_" + n + "=" + dir,
	}
}

// lookOutput keeps up to limit bytes of the look's output; past that it
// records that the output was over and calls full (which kills the look).
type lookOutput struct {
	b     []byte
	limit int
	over  bool
	full  func()
}

func (o *lookOutput) Write(p []byte) (int, error) {
	if o.over {
		return len(p), nil
	}
	if len(o.b)+len(p) > o.limit {
		o.over = true
		o.full()
		return len(p), nil
	}
	o.b = append(o.b, p...)
	return len(p), nil
}

// namedOff is the value that turns the named setting off.
func namedOff(name string) string {
	section, _, _ := strings.Cut(name, ".")
	key := name[strings.LastIndexByte(name, '.')+1:]
	switch {
	case section == "filter", section == "alias":
		return ""
	case section == "submodule" && key == "update":
		return "none"
	case section == "submodule" && key == "ignore":
		return "dirty" // status and diff do not run git inside it
	}
	return noProgram
}

// gitLocation returns the options among git's leading (top-level) options
// that choose the repository: -C, --git-dir, --work-tree, --bare, in
// order, so that the look at the configuration sees the repository the run
// will use.
func gitLocation(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--bare": // the working directory is the repository
			out = append(out, a)
		case a == "-C" || a == "--git-dir" || a == "--work-tree":
			if i+1 < len(args) {
				out = append(out, a, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-C"):
			out = append(out, a)
		case strings.HasPrefix(a, "--git-dir=") || strings.HasPrefix(a, "--work-tree="):
			out = append(out, a)
		case gitGrammar.TakesValue(a):
			i++ // the option's value
		case !strings.HasPrefix(a, "-") || a == "--":
			return out // the subcommand
		}
	}
	return out
}

// execPaths caches git --exec-path per binary path.
var execPaths sync.Map // string → string

// gitExecPath returns the exec path of the git at path, or "" when it
// cannot be had or is not acceptable.
func gitExecPath(path string) string {
	if v, ok := execPaths.Load(path); ok {
		return v.(string)
	}
	dir := askExecPath(path)
	if dir != "" && !HelperDir(dir) {
		dir = ""
	}
	execPaths.Store(path, dir)
	return dir
}

// askExecPath runs "git --exec-path" with an empty environment (so
// GIT_EXEC_PATH cannot steer it; git needs no PATH to answer).
func askExecPath(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--exec-path")
	cmd.Env = []string{}
	cmd.Dir = "/"
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// shellsAndInterpreters are names whose presence in a directory makes it
// unfit for an execute set: executing anything there would let a program
// reach a shell or an interpreter.
var shellsAndInterpreters = []string{
	"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "busybox",
	"python", "python3", "perl", "ruby", "node", "php", "lua", "tclsh", "awk", "env",
}

// HelperDir reports whether dir can be a helper directory: absolute,
// cleaned, a real directory, and holding no shell or interpreter.
func HelperDir(dir string) bool {
	if !filepath.IsAbs(dir) || filepath.Clean(dir) != dir {
		return false
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return false
	}
	for _, n := range shellsAndInterpreters {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return false
		}
	}
	return true
}

// git: its grammar, code positions and ExecTool refusals, and the
// configuration forced on every git a command tool runs.
var _ = register(&Program{
	Names:   []string{"git"},
	Grammar: gitGrammar,
	Check:   checkGit,
	SubWhy:  "some subcommands run programs or the commands they are given (difftool, filter-branch, submodule foreach, bisect run)",
	Code: []CodeOption{
		{Short: "c", Long: []string{"config-env"}, Kind: CodeRuns, Why: whyGitConfig,
			ExecWhy: "it sets configuration for this run, and configuration can run programs (core.pager, core.sshCommand, core.fsmonitor, alias.x=!cmd)"},
		{Long: []string{"exec-path"}, Optional: true, Kind: CodeRuns, Why: "chooses the directory git runs its own programs from",
			ExecWhy: "it changes where git finds its own programs"},
		{Sub: "*", Long: []string{"upload-pack", "receive-pack", "exec"}, Kind: CodeRuns,
			Why:     "names a program git runs (for the other side of a transfer, locally for local and ssh remotes; rebase --exec: a shell command)",
			ExecWhy: "it names the program git runs for the other side of a transfer, which runs locally for local and ssh remotes"},
		{Sub: "clone ls-remote fetch-pack", Short: "u", Kind: CodeRuns, Why: "is --upload-pack: it names the program git runs for the other side of the transfer",
			ExecWhy: "-u is --upload-pack: it names a program git runs"},
		{Sub: "clone", Short: "c", Long: []string{"config"}, Kind: CodeRuns, Why: "sets configuration in the new repository, and git settings can run programs",
			ExecWhy: "it sets configuration in the new repository, and configuration can run programs"},
		{Sub: "grep", Short: "O", Long: []string{"open-files-in-pager"}, Optional: true, Kind: CodeRuns, Why: "names the pager git runs on the matching files",
			ExecWhy: "it runs a pager program on the matching files"},
		{Sub: "rebase", Short: "x", Kind: CodeRuns, Why: "is --exec: a shell command run after each commit",
			ExecWhy: "-x is --exec: it runs a shell command after each commit"},
		// The ExecTool refuses difftool, mergetool, filter-branch and
		// send-email whole (Rows below).
		{Sub: "difftool", Short: "x", Long: []string{"extcmd"}, Kind: CodeRuns, Why: "names the diff command git runs"},
		{Sub: "difftool mergetool", Short: "t", Long: []string{"tool"}, Kind: CodeRuns, Why: "chooses the diff or merge tool git runs (an editor among them)"},
		{Sub: "filter-branch", Long: []string{"env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter",
			"commit-filter", "tag-name-filter"}, Kind: CodeRuns, Why: "is a shell command git runs for every commit"},
		{Sub: "send-email", Long: []string{"sendmail-cmd", "smtp-server", "to-cmd", "cc-cmd", "header-cmd"}, Kind: CodeRuns,
			Why: "names a program git runs to send the mail or to find its recipients"},
	},
	// The ExecTool's own check (bisect run, submodule foreach) refuses these.
	Commands: []CodeOperands{
		{Sub: "bisect", Lead: []string{"run"}, What: "the command of git bisect run", Why: "git runs to judge each commit"},
		{Sub: "submodule", Lead: []string{"foreach"}, What: "the command of git submodule foreach",
			Why: "git runs through the shell in each submodule"},
	},
	Rows: []Row{
		{Confine: []string{"-C", "--git-dir", "--work-tree"}, Why: "a repository elsewhere brings its own configuration and hooks, which can run programs"},
		{Sub: "clone init", Long: []string{"template"}, Why: "it copies hooks from a template directory, and hooks run"},
		{Sub: "*", Long: []string{"ext-diff"}, Why: "it runs an external diff program"},
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
	Env: func(r Run) []string {
		env := append(slices.Clone(gitEnv()), gitSafeEnv(r.Dir)...)
		return append(env, gitRepoEnv(r.Path, r.Dir, r.Args, r.Look)...)
	},
	ExecDirs: func(path string) []string {
		if dir := gitExecPath(path); dir != "" {
			return []string{dir}
		}
		return nil
	},
	// git stops with "fatal: unknown error occurred while reading the
	// configuration files" when the system configuration exists but cannot
	// be read (GIT_CONFIG_NOSYSTEM notwithstanding).
	Read: []string{"/etc/gitconfig"},
})

// whyGitConfig is why a value of git's -c is code.
const whyGitConfig = "sets configuration for the run, and git settings can run programs (core.fsmonitor, diff.external, alias.x=!cmd)"

// gitGrammar is how git reads its options: the top-level ones, then a
// subcommand and its options.
var gitGrammar = Grammar{
	Subcommands: true, Abbrev: true,
	ArgShort: "Cc", NoArgShort: "pPvh",
	ArgLong: []string{"git-dir", "work-tree", "namespace", "config-env", "super-prefix", "attr-source"},
	Long: []string{"exec-path", "html-path", "man-path", "info-path", "paginate", "no-pager", "bare",
		"no-replace-objects", "no-lazy-fetch", "literal-pathspecs", "glob-pathspecs", "noglob-pathspecs",
		"icase-pathspecs", "no-optional-locks", "list-cmds", "version", "help", "no-advice"},
	SubArgs: map[string]SubArgs{
		"config": {Short: "ft", Long: []string{"file", "blob", "type", "default", "comment", "value", "url"}},
		"grep":   {Short: "ABCefm", Long: []string{"after-context", "before-context", "context", "max-count", "max-depth", "threads"}},
	},
}

// gitBuiltins returns the built-in commands of the git at path, as that git
// lists them (git --list-cmds=builtins), asked once per binary and cached.
// A built-in always wins over an alias of the same name, so letting only
// built-ins through also keeps out aliases ("!cmd" aliases run shell
// commands) and external git-* programs (on git 2.39, refs, bisect and
// submodule are not built-ins). Built-ins that run programs are refused by
// a row of gitRules or by checkGit, which say why.
func gitBuiltins(path string) ([]string, error) {
	if v, ok := builtinsCache.Load(path); ok {
		e := v.(builtinsEntry)
		return e.names, e.err
	}
	names, err := listBuiltins(path)
	builtinsCache.Store(path, builtinsEntry{names, err})
	return names, err
}

type builtinsEntry struct {
	names []string
	err   error
}

var builtinsCache sync.Map // binary path → builtinsEntry

// listBuiltins runs git --list-cmds=builtins with an empty environment (no
// configuration is read for it).
func listBuiltins(path string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--list-cmds=builtins")
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	cmd.Dir = "/"
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s --list-cmds=builtins: %w", path, err)
	}
	names := strings.Fields(string(out))
	if len(names) == 0 {
		return nil, fmt.Errorf("%s --list-cmds=builtins listed nothing", path)
	}
	slices.Sort(names)
	return names, nil
}

// git config reads and writes; only its reading forms are let through.
var (
	gitConfigReadLong  = []string{"get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "list"}
	gitConfigWriteLong = []string{"add", "replace-all", "unset", "unset-all", "rename-section", "remove-section", "edit"}
	gitConfigWriteSubs = []string{"set", "unset", "rename-section", "remove-section", "edit"}
)

// checkGit applies what git's rows cannot express: the subcommand
// allowlist, read-only git config, bisect run, submodule foreach and the
// transports that run programs.
func checkGit(c *Command) *Refusal {
	for _, t := range c.tokens {
		v := c.arg(t.word)
		if t.kind == TokOption && t.hasValue {
			v = t.value
		}
		if lv := strings.ToLower(v); strings.HasPrefix(lv, "ext::") || strings.HasPrefix(lv, "fd::") {
			return refuse(t.word, "git: %q is refused: the ext:: and fd:: transports run a program", v)
		}
	}
	if c.sub == "" {
		return nil
	}
	builtins, err := gitBuiltins(c.path)
	if err != nil {
		return refuse(c.subAt, "git: cannot tell which subcommands are built-ins (%v); every subcommand is refused", err)
	}
	if _, found := slices.BinarySearch(builtins, c.sub); !found {
		return refuse(c.subAt, "git: %q is not a built-in of this git; aliases and external git-* "+
			"programs are refused, since they can run any program", c.sub)
	}
	if r := c.gitWritesGitDir(); r != nil {
		return r
	}
	ops := c.subOperands()
	switch c.sub {
	case "config":
		return c.gitConfig(ops)
	case "bisect":
		if len(ops) > 0 && c.arg(ops[0].word) == "run" {
			return refuse(ops[0].word, "git: bisect run is refused: it runs a command at every step")
		}
	case "submodule":
		for _, o := range ops {
			if c.arg(o.word) == "foreach" {
				return refuse(o.word, "git: submodule foreach is refused: it runs a shell command in every submodule")
			}
		}
	case "bundle":
		if len(ops) > 0 && c.arg(ops[0].word) == "create" {
			return refuse(ops[0].word, "git: bundle create is refused: it writes a file (into .git too); "+
				"git bundle list-heads and verify read")
		}
	case "help":
		for _, t := range c.tokens {
			if t.sub && (t.kind == TokOperand || t.kind == TokValue) {
				return refuse(t.word, "git: help %s is refused: showing a manual page runs the viewer programs the "+
					"repository's configuration names (man.viewer); git %s -h prints the usage", c.arg(t.word), c.arg(t.word))
			}
		}
	}
	return nil
}

// gitWritesGitDir refuses an argument that names a place inside a .git
// directory of the workspace (the repository's or a nested one's; after
// symlinks), except as the value of --git-dir: git log
// --output=.git/config, format-patch -o .git/hooks, checkout-index
// --prefix=.git/ and --work-tree=.git write there, and what is written
// there (configuration, hooks) decides what the next git runs.
func (c *Command) gitWritesGitDir() *Refusal {
	for _, t := range c.tokens {
		var v string
		switch {
		case t.kind == TokOption && t.hasValue && t.name != "--git-dir" && !(c.sub == "config" && t.sub):
			v = t.value // git config --file .git/config reads it (config may only read)
		case t.kind == TokOperand:
			v = c.arg(t.word)
		default:
			continue
		}
		if inGitDir(c.ws, v) {
			return refuse(t.word, "git: %q names a place inside .git; writing there (configuration, hooks) decides "+
				"what git runs next, so it is refused here", v)
		}
	}
	return nil
}

// inGitDir reports whether v, read as a path relative to ws, has a ".git"
// element below ws, as written or once the symlinks of its longest existing
// prefix are resolved.
func inGitDir(ws, v string) bool {
	if v == "" || filepath.IsAbs(v) {
		return false // absolute paths are defence 5's
	}
	p := filepath.Join(ws, v)
	for _, q := range []string{p, within.Resolve(p)} {
		rel, err := filepath.Rel(ws, q)
		if err != nil || !filepath.IsLocal(rel) {
			continue // outside: defence 5's
		}
		if slices.Contains(strings.Split(rel, "/"), ".git") {
			return true
		}
	}
	return false
}

// gitConfig lets through git config only when it reads.
func (c *Command) gitConfig(ops []token) *Refusal {
	if w := c.subOptions("e", gitConfigWriteLong...); len(w) > 0 {
		return refuse(w[0].word, "git: config %s is refused: git config may only read here (git config --get NAME, git config --list)", w[0].written)
	}
	first := ""
	if len(ops) > 0 {
		first = c.arg(ops[0].word)
	}
	if slices.Contains(gitConfigWriteSubs, first) {
		return refuse(ops[0].word, "git: config %s is refused: git config may only read here (git config get NAME, git config list)", first)
	}
	if len(c.subOptions("l", gitConfigReadLong...)) > 0 || first == "get" || first == "list" {
		return nil
	}
	if len(ops) == 1 {
		return nil // git config NAME prints the value
	}
	return refuse(c.subAt, "git: config without --get, --get-all, --get-regexp or --list writes configuration, "+
		"and configuration can run programs; git config may only read here (git config --get NAME, git config --list)")
}
