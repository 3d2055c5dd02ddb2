package kernel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nanogpt/toolgen/internal/validate"
)

// Programs that read configuration from the workspace.
//
// The agent works inside a repository somebody else wrote, and several
// programs read configuration from where they run (cwd), from HOME or from
// files a repository carries (.git/config), and that configuration can name
// programs they then execute. programEnv adds, per program, the environment
// that makes its configuration safe whatever the workspace holds; it is
// appended after the kernel's own environment, so it wins over WithEnv.
// programExecDirs names the directories a program legitimately executes its
// own helpers from, for the execute set of a Confiner.
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
//     see gitForced for the keys and values.
//
// Settings whose name the repository chooses cannot be listed in advance:
// filter.<driver>.clean/smudge/process (git status, diff, add, checkout on
// files .gitattributes maps to the driver), diff.<driver>.textconv and
// .command (git diff, log -p, show), merge.<driver>.driver, diff.external
// (which has no "off" value: an empty one makes every diff fail),
// submodule.<name>.update and .ignore, alias.<name>,
// difftool/mergetool/man/browser .<tool>.cmd and .path. For these,
// programEnvIn asks the git that will run which of them the repository it
// will use sets (git config --get-regexp, with this environment, in the same
// directory and with the same -C, --git-dir and --work-tree), and forces
// each found off at command-line precedence too (gitRepoEnv). What that look
// cannot see is left to the Confiner's execute set (the resolved binary, the
// loader and programExecDirs: never a shell or an interpreter): a
// submodule's own .git/config, read by the git that status and diff run
// inside it when .gitmodules says ignore = none (diff.ignoreSubmodules=dirty
// keeps them out otherwise, and a repository's submodule.<name>.ignore is
// forced to dirty); a configuration changed between the look and the run;
// man.viewer, a list nothing on the command line can empty (git help PAGE;
// ExecTool refuses it).
//
// curl: CURL_HOME names a private directory holding an empty .curlrc
// (curl takes the first .curlrc it finds: $CURL_HOME, $XDG_CONFIG_HOME,
// $HOME), so a .curlrc of the workspace (HOME on older kernels) is not read;
// -q/--disable as the first argument does the same from the command line.
//
// wget: WGETRC names an empty private file (wget refuses /dev/null), so
// ~/.wgetrc is not read; /etc/wgetrc, the system's, still is.
//
// npm, pnpm, yarn: npm_config_* variables beat every .npmrc (the project's
// in cwd included): no user or global rc file, ignore-scripts=true (install
// runs no lifecycle scripts; npm run and npm test still run the package's
// scripts, which is what they mean), and git, editor, browser and viewer
// name no program. pip: PIP_CONFIG_FILE=/dev/null, which pip reads as "no
// configuration files". python: PYTHONNOUSERSITE=1 (no sitecustomize from
// ~/.local). go: GOENV=off (no ~/.config/go/env) and GOTOOLCHAIN=local (a
// go.mod's toolchain line cannot download and run another go). vi, vim,
// nvim, ex: VIMINIT and EXINIT replace the startup files (and set noexrc,
// nomodeline). man: MANPAGER and PAGER are cat. php-cgi: PHPRC names an
// empty php.ini, found before one in cwd.
//
// Not forced here, each left to the private HOME and the Confiner: ssh's
// ~/.ssh/config, nmap's ~/.nmap, emacs's init files (and .dir-locals.el in
// cwd), bun's bunfig.toml in cwd (preload), deno.json; a git repository's
// core.worktree or a .git file naming another gitdir (git then reads outside
// the workspace, which Landlock's read set stops).

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

// rcDir is a private per-user directory (see privateDir) holding empty
// configuration files (.curlrc, wgetrc) that programs are pointed at instead
// of the ones in HOME; "" when it could not be made.
var rcDir = sync.OnceValue(func() string {
	dir, err := privateDir("toolgen-rc-", []string{".curlrc", "wgetrc", "npmrc", "npmrc-global", "php.ini"})
	if err != nil {
		return ""
	}
	return dir
})

// programEnv returns the "KEY=VALUE" entries to add to the environment of
// the program at path (absolute, resolved), which force its configuration
// safe whatever the workspace holds; nil for a program that needs none. The
// slice is the caller's.
func programEnv(path string) []string { return envForNames(programNames(path)) }

// envForNames is programEnv for the names programNames gave.
func envForNames(names []string) []string {
	for _, name := range names {
		if env := envFor(name); env != nil {
			return env
		}
	}
	return nil
}

// programEnvIn is programEnv for the program at path run with dir as its
// working directory, args (argv[1:]) as its arguments and base (the
// kernel's environment: HOME, XDG_*, WithEnv's entries) as the start of its
// environment. For git it also forces the settings whose names the
// repository chooses (gitRepoEnv), as read from the repository that git
// will use.
func programEnvIn(path, dir string, args, base []string, l Limits) []string {
	names := programNames(path) // resolves symlinks: once per call
	env := envForNames(names)
	if slices.Contains(names, "git") {
		env = append(env, gitRepoEnv(path, dir, args, base, l)...)
	}
	return env
}

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
func gitRepoEnv(path, dir string, args, base []string, l Limits) []string {
	ctx, cancel := context.WithTimeout(context.Background(), gitLookTimeout)
	defer cancel()
	cmdArgs := append(gitLocation(args), "config", "--null", "--name-only", "--get-regexp", gitNamedPattern)
	// The run's environment, so that what git reads depends on nothing
	// that differs between the look and the run (include.path = ~/x fails
	// without HOME, and a look that fails must not let the run go
	// unforced).
	env := mergeEnv(slices.Clone(base), append([]string{"PATH=" + DefaultPath, "LC_ALL=C"}, gitEnv()...))
	out := &lookOutput{limit: maxLookOutput, full: cancel}
	stderr := &lookOutput{limit: 4 << 10, full: func() {}}
	mk := func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, path, cmdArgs...)
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, out, stderr
		return cmd
	}
	// The look is a process of the host's: it must die with it, and stay
	// within the memory a command gets and the time the look is given.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd, err := startLook(mk, Limits{Memory: l.Memory, CPU: gitLookTimeout})
	if err == nil {
		err = cmd.Wait()
	}
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
	forced := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(gitForced)+len(names))}
	for i, name := range names {
		n := strconv.Itoa(len(gitForced) + i)
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
		"GIT_CONFIG_COUNT=" + strconv.Itoa(len(gitForced)+1),
		"GIT_CONFIG_KEY_" + strconv.Itoa(len(gitForced)) + "=toolgen.refused: " + why,
		"GIT_CONFIG_VALUE_" + strconv.Itoa(len(gitForced)) + "=refused",
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
		case validate.GitOptionTakesValue(a):
			i++ // the option's value
		case !strings.HasPrefix(a, "-") || a == "--":
			return out // the subcommand
		}
	}
	return out
}

// envFor returns programEnv's entries for one program name.
func envFor(name string) []string {
	switch {
	case name == "git":
		return slices.Clone(gitEnv())
	case name == "curl":
		if dir := rcDir(); dir != "" {
			return []string{"CURL_HOME=" + dir}
		}
		return []string{"CURL_HOME=/dev/null"}
	case name == "wget" || name == "wget2":
		if dir := rcDir(); dir != "" {
			return []string{"WGETRC=" + filepath.Join(dir, "wgetrc")}
		}
		return []string{"WGETRC=/etc/wgetrc"} // the system file, read anyway
	case name == "npm" || name == "pnpm" || name == "yarn" || name == "yarnpkg":
		env := []string{
			"npm_config_ignore_scripts=true",
			"npm_config_git=" + noProgram,
			"npm_config_editor=" + noProgram,
			"npm_config_browser=" + noProgram,
			"npm_config_viewer=" + noProgram,
			"npm_config_node_options=",
			"npm_config_update_notifier=false",
		}
		if dir := rcDir(); dir != "" {
			// npm refuses /dev/null for both (it loads it twice).
			env = append(env, "npm_config_userconfig="+filepath.Join(dir, "npmrc"),
				"npm_config_globalconfig="+filepath.Join(dir, "npmrc-global"))
		}
		return env
	case strings.HasPrefix(name, "pip"):
		return []string{"PIP_CONFIG_FILE=/dev/null"}
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		return []string{"PYTHONNOUSERSITE=1"}
	case name == "go":
		return []string{"GOENV=off", "GOTOOLCHAIN=local"}
	case name == "vi" || name == "ex" || name == "view" || strings.HasPrefix(name, "vim") || name == "nvim":
		return []string{"VIMINIT=set noexrc secure nomodeline", "EXINIT=set noexrc secure nomodeline"}
	case name == "man":
		return []string{"MANPAGER=cat", "PAGER=cat"}
	case strings.HasPrefix(name, "php-cgi"):
		// php-cgi looks for php.ini in cwd after $PHPRC (auto_prepend_file
		// runs code); an empty one in PHPRC is found first.
		if dir := rcDir(); dir != "" {
			return []string{"PHPRC=" + dir}
		}
	}
	return nil
}

// programNames returns the names a program is known by: the base name of
// path and, when path is a symlink, of the file it resolves to ("editor" →
// "vim.basic" → "vim"). A suffix after a '.' is dropped ("vim.basic",
// "python3.11" → "python3").
func programNames(path string) []string {
	names := []string{filepath.Base(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		names = append(names, filepath.Base(real))
	}
	for i, n := range names {
		if before, _, ok := strings.Cut(n, "."); ok && before != "" {
			names[i] = before
		}
	}
	return slices.Compact(names)
}

// programExecDirs returns the directories the program at path legitimately
// executes its own helpers from: for git, its exec path (git --exec-path,
// asked once per binary), where git-remote-https, git-upload-pack and the
// dashed built-ins live. A directory that holds a shell or an interpreter
// is never returned. nil for a program that needs none.
func programExecDirs(path string) []string {
	for _, name := range programNames(path) {
		if name == "git" {
			if dir := gitExecPath(path); dir != "" {
				return []string{dir}
			}
			return nil
		}
	}
	return nil
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
	if dir != "" && !helperDir(dir) {
		dir = ""
	}
	execPaths.Store(path, dir)
	return dir
}

// askExecPath runs "git --exec-path" with an empty environment (so
// GIT_EXEC_PATH cannot steer it).
func askExecPath(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--exec-path")
	cmd.Env = []string{"PATH=" + DefaultPath}
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

// helperDir reports whether dir can be a helper directory: absolute,
// cleaned, a real directory, and holding no shell or interpreter.
func helperDir(dir string) bool {
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
