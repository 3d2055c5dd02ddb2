package programs

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Look runs a helper process of the kernel's for a program's Env (git's
// look at the repository's configuration): argv (argv[0] absolute) in the
// run's working directory, with the run's environment plus env (a later
// key replacing an earlier one), output to stdout and stderr, under the
// limits of a command with cpu as its CPU time, as a child that dies with
// the host. It returns what exec.Cmd.Wait returns. ctx ends it.
type Look = func(ctx context.Context, argv, env []string, stdout, stderr io.Writer, cpu time.Duration) error

// Run is one command the kernel is about to run, as an Env function sees it.
type Run struct {
	Name      string   // the program's name as matched (the base name of Path, or of the file it resolves to)
	Path      string   // the program, absolute, as resolved on PATH
	Dir       string   // the working directory: the workspace
	Args      []string // argv[1:]
	ConfigDir string   // the private directory holding every ConfigFiles entry, empty; "" when it could not be made
	Look      Look     // runs a helper process (nil: none can run, and an Env that needs one fails closed)
}

// Hook is what the kernel asks about each program it runs: the environment
// forced on it, its helper directories, the files it reads. Give it to a
// kernel with kernel.WithPrograms(programs.Hook{}); the preset does, and so
// do base.New and exec.New for a kernel that has none. It satisfies
// kernel.Programs. The zero value is ready to use.
type Hook struct{}

// ConfigFiles returns the names of the empty configuration files every
// program's Env may point at (ConfigFiles of each Program), sorted: the
// kernel makes them once, read-only, in a private directory.
func (Hook) ConfigFiles() []string { return configFiles() }

var configFiles = sync.OnceValue(func() []string {
	var out []string
	for _, p := range All() {
		out = append(out, p.ConfigFiles...)
	}
	slices.Sort(out)
	return slices.Compact(out)
})

// Env returns the entries forced on the environment of the program at
// path (absolute, resolved) run in dir with args (argv[1:]); configDir is
// the directory the kernel made for ConfigFiles ("" when it could not), and
// look runs a helper process (see Look). nil for a program that needs
// nothing. The slice is the caller's.
func (Hook) Env(path, dir, configDir string, args []string, look Look) []string {
	for _, name := range NamesOf(path) {
		if p := Lookup(name); p != nil && p.Env != nil {
			if env := p.Env(Run{Name: name, Path: path, Dir: dir, Args: args, ConfigDir: configDir, Look: look}); env != nil {
				return env
			}
		}
	}
	return nil
}

// ExecDirs returns the helper directories of the program at path
// (absolute, resolved) for a confined command's execute set; nil for none.
func (Hook) ExecDirs(path string) []string {
	for _, name := range NamesOf(path) {
		if p := Lookup(name); p != nil && p.ExecDirs != nil {
			return p.ExecDirs(path)
		}
	}
	return nil
}

// Read returns the files and directories the program at path (absolute,
// resolved) must read under confinement besides the kernel's system
// bundle; nil for none.
func (Hook) Read(path string) []string {
	for _, name := range NamesOf(path) {
		if p := Lookup(name); p != nil && len(p.Read) > 0 {
			return slices.Clone(p.Read)
		}
	}
	return nil
}

// NamesOf returns the names the program at path is known by: the base
// name of path and, when path is a symlink, of the file it resolves to
// ("editor" → "vim.basic"), each without a suffix after a '.' ("vim.basic"
// is "vim", "python3.11" is "python3").
func NamesOf(path string) []string {
	names := []string{filepath.Base(path)}
	// Only a final name that is a link can resolve to another base name:
	// the directories' links change the directory, not the name. One
	// lstat, then, instead of one per element of path for every call.
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
			names = append(names, filepath.Base(real))
		}
	}
	for i, n := range names {
		if before, _, ok := strings.Cut(n, "."); ok && before != "" {
			names[i] = before
		}
	}
	return slices.Compact(names)
}

// InstallDirs returns the directories outside PATH where the toolchain
// that covers the program named name is installed (/usr/local/go/bin), as
// the host's environment names them (GOROOT, CARGO_HOME, HOME); nil when
// no profile covers it. It satisfies kernel.CodeRunners with Toolchain and
// BuildEnv.
func (Hook) InstallDirs(name string) []string {
	if tc := ToolchainOf(name); tc != nil && tc.Install != nil {
		return tc.Install(os.Getenv)
	}
	return nil
}

// Toolchain returns the name of the profile that covers the program at
// path (absolute, resolved), the directories it reads (its installation,
// the user's module caches), the directories of the workspace's build
// cache it writes, and its data cap; "" and nothing when no profile covers
// it.
func (Hook) Toolchain(path string) (name string, read, caches []string, memory int64) {
	tc := toolchainOfPath(path)
	if tc == nil {
		return "", nil, nil, 0
	}
	if tc.Reads != nil {
		read = tc.Reads(path, os.Getenv)
	}
	return tc.Name, read, slices.Clone(tc.Caches), tc.MemoryCap()
}

// BuildEnv returns the environment the profile that covers the program at
// path forces on a call with args in workspace, whose build cache and
// scratch directory are cache and scratch; online reports that the tool
// names hosts. nil when no profile covers it.
func (Hook) BuildEnv(path string, args []string, workspace, cache, scratch string, online bool) []string {
	tc := toolchainOfPath(path)
	if tc == nil || tc.Env == nil {
		return nil
	}
	return tc.Env(Build{Path: path, Args: args, Workspace: workspace, Cache: cache, Scratch: scratch, Online: online, Env: os.Getenv})
}

// toolchainOfPath is the profile that covers the program at path, by its
// name or by the name of the file it resolves to.
func toolchainOfPath(path string) *Toolchain {
	if tc := ToolchainOf(path); tc != nil {
		return tc
	}
	for _, n := range NamesOf(path) {
		if tc := ToolchainOf(n); tc != nil {
			return tc
		}
	}
	return nil
}
