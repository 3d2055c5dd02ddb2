package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/trust"
)

// defaultToolsDir is the descriptor directory every command uses when none
// is named: check checks it, the others load it when it exists, init writes
// into it.
const defaultToolsDir = "tools"

// toolFlags are the flags shared by the commands that assemble tools (list,
// schema, call, explain, serve), registered in one place so that they are
// spelt and mean the same everywhere.
type toolFlags struct {
	tools      string
	workspace  string
	execAllow  nameList
	netAllow   nameList // the exec tool's network hosts
	only       nameList
	noBuiltins bool
	timeout    time.Duration
	maxTimeout durationFlag // the longest any call may run; caps a descriptor's timeout
	// Resource limits of each call (run flags); unset leaves the kernel's
	// defaults.
	memoryLimit  sizeFlag
	outputLimit  sizeFlag // the run's output limit; a tool's own output_limit overrides it
	cpuLimit     durationFlag
	processLimit intFlag
	path         string // --path: the command PATH; "" leaves the kernel's default
	watch        bool
	confine      sandbox.Mode // zero value: sandbox.DefaultMode
	// toolsInWorkspace allows a tools directory inside the workspace even
	// when served tools can write there.
	toolsInWorkspace bool
	runs             bool   // registered with --timeout and --confine
	cmdName          string // "toolgen CMD", for messages
}

// register adds the shared flags to fs; timeout and confine only where the
// command runs or describes calls (runs).
func (f *toolFlags) register(fs *flag.FlagSet, runs bool) {
	fs.StringVar(&f.tools, "tools", "", "directory `DIR` of *.tool.json descriptors (default ./tools when it exists)")
	fs.StringVar(&f.workspace, "workspace", ".", "directory `DIR` commands run in; path arguments must stay inside it")
	fs.Var(&f.execAllow, "exec-allow", "comma-separated binaries `BIN,...` the exec tool may run (exec is off without it)")
	fs.Var(&f.netAllow, "net-allow", "comma-separated network hosts `HOST:PORT,...` the exec tool's commands may reach through "+
		"toolgen's egress proxy (api.github.com:443, *.example.org:443, localhost:8080; needs --exec-allow; default: no network)")
	fs.Var(&f.only, "only", "comma-separated names `NAME,...` of the tools to serve, of any form; the others are left out (default: every tool)")
	fs.BoolVar(&f.noBuiltins, "no-builtins", false, "leave out the built-in tools grep_text, find_files and sed_print")
	fs.BoolVar(&f.toolsInWorkspace, "allow-tools-in-workspace", false, "load descriptors from a tools directory inside the workspace even "+
		"when served tools (exec, tools that write) could write new descriptors there")
	f.runs, f.cmdName = runs, fs.Name()
	if runs {
		fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "per-call timeout of the tools whose descriptor sets no \"timeout\"; "+
			"the whole process group is killed when it passes")
		fs.Var(&f.maxTimeout, "max-timeout", "`DUR` the longest any call may run: a descriptor's \"timeout\" above it is capped to it; "+
			"at least --timeout (default 10m, or --timeout when that is longer)")
		f.confine = sandbox.DefaultMode
		fs.Var(&f.memoryLimit, "memory-limit", "`SIZE` of the address space of each process a call starts, such as 512MiB or 2GiB; "+
			"none for no cap (default 1GiB)")
		fs.Var(&f.outputLimit, "output-limit", "`SIZE` of a call's output the model sees at most (head and tail kept, the middle "+
			"dropped), such as 8192 or 64KiB, at most 1MiB; a tool whose descriptor sets output_limit keeps its own (default 2048)")
		fs.Var(&f.cpuLimit, "cpu-limit", "CPU time `DUR` each process of a call may use, such as 10s (default: the timeout)")
		fs.Var(&f.processLimit, "process-limit", "`N` processes one call may have at once; 0 for no cap (default 256)")
		fs.StringVar(&f.path, "path", "", "the PATH `DIRS` commands are looked up in and run with, absolute directories separated by "+
			string(os.PathListSeparator)+" (default: "+defaultPathHelp()+"; never the PATH toolgen itself runs with)")
		fs.Var(&f.confine, "confine", "`mode` of kernel confinement (Linux Landlock: read the workspace, write it only "+
			"if the tool writes, no network unless it needs it): strict (refuse to run where the kernel cannot enforce it), "+
			"best-effort (run anyway, with a warning in the result) or off (default best-effort)")
	}
}

// checkRunFlags reports a run flag the kernel would refuse, as a usage
// error: a --timeout that is zero or negative (which would otherwise
// silently mean the default), a --memory-limit under 16 MiB (no program
// starts in it), a negative --cpu-limit or --process-limit.
func (f *toolFlags) checkRunFlags() error {
	if !f.runs {
		return nil
	}
	switch {
	case f.timeout <= 0:
		return fmt.Errorf("--timeout %v: want a positive duration, such as 30s or 2m", f.timeout)
	case f.maxTimeout.set && f.maxTimeout.d <= 0:
		return fmt.Errorf("--max-timeout %v: want a positive duration, such as 10m or 1h", f.maxTimeout.d)
	case f.maxTimeout.set && f.maxTimeout.d < f.timeout:
		return fmt.Errorf("--max-timeout %v is shorter than --timeout %v: the maximum bounds every call's timeout", f.maxTimeout.d, f.timeout)
	case f.outputLimit.set && (f.outputLimit.n < 1 || f.outputLimit.n > kernel.MaxOutputLimit):
		return fmt.Errorf("--output-limit %d bytes: want 1 to %d (1MiB)", f.outputLimit.n, kernel.MaxOutputLimit)
	case f.memoryLimit.set && f.memoryLimit.n > 0 && f.memoryLimit.n < 16<<20:
		return fmt.Errorf("--memory-limit %d bytes: want at least 16MiB (no program starts in less), or none", f.memoryLimit.n)
	case f.cpuLimit.set && f.cpuLimit.d < 0:
		return fmt.Errorf("--cpu-limit %v: want a positive duration, such as 10s", f.cpuLimit.d)
	case f.processLimit.set && f.processLimit.n < 0:
		return fmt.Errorf("--process-limit %d: want a number of processes, or 0 for no cap", f.processLimit.n)
	case f.path != "":
		if err := kernel.CheckPath(f.path); err != nil {
			return fmt.Errorf("--path %s: %v", f.path, strings.TrimPrefix(err.Error(), "kernel: "))
		}
	}
	return nil
}

// defaultPathHelp is the kernel's default PATH on this system, for --path's
// help, or why there is none.
func defaultPathHelp() string {
	path, err := kernel.DefaultPathFor(runtime.GOOS, os.Getenv)
	if err != nil {
		return "none here: %SystemRoot% is not set"
	}
	return path
}

// checkDirs reports a --workspace or --tools that names no directory (it
// does not exist, or is a file) as an error naming the flag, which the
// commands print as a usage error; so is --net-allow without --exec-allow. Only a watching server may be given a
// --tools directory that does not exist yet: it creates it, to watch it.
// Other errors (a directory that cannot be read) are left to the preset.
func (f *toolFlags) checkDirs() error {
	if _, err := dirFlag("workspace", f.workspace); err != nil {
		return err
	}
	if len(f.netAllow) > 0 && len(f.execAllow) == 0 {
		return errors.New("--net-allow gives the exec tool network hosts; grant it binaries with --exec-allow " +
			"(a descriptor tool names its own hosts: \"network\": {\"hosts\": [...]})")
	}
	if f.tools == "" {
		return nil
	}
	if missing, err := dirFlag("tools", f.tools); err != nil && !(f.watch && missing) {
		return err
	}
	return nil
}

// dirFlag checks that path, the value of the flag --name, is a directory;
// missing tells that nothing is there. It returns nil when path is a
// directory, or when that cannot be told (the caller's own open reports it).
func dirFlag(name, path string) (missing bool, err error) {
	st, serr := os.Stat(path)
	switch {
	case errors.Is(serr, fs.ErrNotExist), errors.Is(serr, syscall.ENOTDIR):
		return true, fmt.Errorf("--%s %s: no such directory", name, path)
	case serr == nil && !st.IsDir():
		return false, fmt.Errorf("--%s %s: not a directory (it is a file)", name, path)
	}
	return false, nil
}

// toolsDir returns the descriptor directory to load, or "" for none.
func (f *toolFlags) toolsDir() string {
	if f.tools != "" {
		return f.tools
	}
	if st, err := os.Stat(defaultToolsDir); err == nil && st.IsDir() {
		return defaultToolsDir
	}
	return ""
}

// options returns the preset options the flags ask for: the built-ins
// (unless --no-builtins), the descriptors of the tools directory, exec when
// binaries are granted, and the --only selection. toolgen serves nothing
// else: the project's own descriptors/ are not linked into it.
func (f *toolFlags) options() []preset.Option {
	opts := []preset.Option{preset.WithWorkspace(f.workspace), preset.WithConfinement(f.confine)}
	if f.path != "" {
		opts = append(opts, preset.WithCommandPath(f.path))
	}
	if f.timeout > 0 {
		opts = append(opts, preset.WithTimeout(f.timeout))
	}
	if f.maxTimeout.set {
		opts = append(opts, preset.WithMaxTimeout(f.maxTimeout.d))
	}
	if f.outputLimit.set {
		opts = append(opts, preset.WithOutputLimit(int(f.outputLimit.n)))
	}
	if f.memoryLimit.set {
		opts = append(opts, preset.WithMemoryLimit(f.memoryLimit.n))
	}
	if f.cpuLimit.set {
		opts = append(opts, preset.WithCPULimit(f.cpuLimit.d))
	}
	if f.processLimit.set {
		opts = append(opts, preset.WithProcessLimit(f.processLimit.n))
	}
	if f.noBuiltins {
		opts = append(opts, preset.WithoutBuiltins())
	}
	if len(f.only) > 0 {
		opts = append(opts, preset.WithOnly(f.only...))
	}
	if len(f.execAllow) > 0 {
		opts = append(opts, preset.WithExec(f.execAllow...))
	}
	if len(f.netAllow) > 0 {
		opts = append(opts, preset.WithExecHosts(f.netAllow...))
	}
	if dir := f.toolsDir(); dir != "" {
		// Only a watching server creates a missing directory, so files can be
		// dropped into it later; for the other commands a missing --tools
		// directory is an error, not a new empty directory.
		var lopts []loader.Option
		if !f.watch {
			lopts = append(lopts, loader.WithoutCreate())
		}
		opts = append(opts, preset.WithToolsDir(dir, lopts...))
		if f.toolsInWorkspace {
			opts = append(opts, preset.WithToolsInWorkspace())
		}
		// The user's trust (toolgen trust) lets a directory inside the
		// workspace load as it was trusted; no config directory, no trust.
		if path, err := trust.DefaultPath(); err == nil {
			opts = append(opts, preset.WithTrustStore(trust.Open(path)))
		}
	}
	return opts
}

// nameList is a flag holding comma-separated names (binaries, tools); blank
// entries are dropped and repeated flags accumulate.
type nameList []string

// String returns the names joined by commas.
func (l *nameList) String() string { return strings.Join(*l, ",") }

// Set adds the comma-separated names of s.
func (l *nameList) Set(s string) error {
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			*l = append(*l, n)
		}
	}
	return nil
}

// aliasFlag registers alias as a second spelling of the flag name already in
// fs (the same value), left out of the flag list that -h prints; see
// printDefaults. generate's -dir is an alias of --tools.
func aliasFlag(fs *flag.FlagSet, alias, name string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("aliasFlag: no flag " + name)
	}
	fs.Var(aliasValue{f.Value}, alias, "alias of -"+name)
}

// aliasValue marks a flag registered by aliasFlag.
type aliasValue struct{ flag.Value }

// printDefaults prints fs's flags like flag.PrintDefaults, without aliases.
func printDefaults(fs *flag.FlagSet) {
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	shown.SetOutput(fs.Output())
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(aliasValue); ok {
			return
		}
		shown.Var(f.Value, f.Name, f.Usage)
		shown.Lookup(f.Name).DefValue = f.DefValue
	})
	shown.PrintDefaults()
}

// durationFlag is a duration flag that records whether it was given.
type durationFlag struct {
	d   time.Duration
	set bool
}

// String returns the duration, or "" when not set.
func (f *durationFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return f.d.String()
}

// Set parses s with time.ParseDuration.
func (f *durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 10s or 2m")
	}
	f.d, f.set = d, true
	return nil
}

// intFlag is an integer flag that records whether it was given.
type intFlag struct {
	n   int
	set bool
}

// String returns the number, or "" when not set.
func (f *intFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.Itoa(f.n)
}

// Set parses s as a decimal integer.
func (f *intFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a whole number")
	}
	f.n, f.set = n, true
	return nil
}
