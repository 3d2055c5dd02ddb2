package kernel

import (
	"context"
	"io"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Programs is the one hook through which the kernel learns what it must
// add for a program it runs: the environment that forces the program's
// configuration safe whatever the workspace holds (git reads no global
// configuration and runs nothing its repository names; curl reads no
// .curlrc …), the helper directories it may execute from under
// confinement (git's exec-path), and the files it must read (git's
// /etc/gitconfig). What each program needs is not the kernel's business:
// package programs knows it (programs.Hook), and the preset gives it to
// the kernel with WithPrograms, as base.New and exec.New do for a kernel
// that has none. A kernel without it forces nothing and executes only a
// program and its loader.
type Programs interface {
	// ConfigFiles names empty configuration files (".curlrc") that Env may
	// point programs at: the kernel makes them once per user, read-only,
	// in a private directory, and passes its path to Env.
	ConfigFiles() []string
	// Env returns "KEY=VALUE" entries for the program at path (absolute,
	// resolved) run in dir with args (argv[1:]), added after the kernel's
	// own environment (they win over WithEnv); configDir is the directory
	// holding ConfigFiles ("" when it could not be made), and look runs a
	// helper process under the command's limits (git's look at the
	// repository's configuration).
	Env(path, dir, configDir string, args []string, look LookFunc) []string
	// ExecDirs returns the directories the program at path legitimately
	// executes its own helpers from (never one holding a shell or an
	// interpreter).
	ExecDirs(path string) []string
	// Read returns files and directories the program at path reads under
	// confinement besides the system bundle.
	Read(path string) []string
}

// LookFunc runs argv (argv[0] absolute) in the workspace with the
// kernel's environment plus env (a later key replacing an earlier one),
// output to stdout and stderr, as a child that dies with the host and
// runs under the memory limit of a command and cpu of CPU time; it returns
// what exec.Cmd.Wait returns. ctx ends it.
type LookFunc = func(ctx context.Context, argv, env []string, stdout, stderr io.Writer, cpu time.Duration) error

// WithPrograms sets the hook through which the kernel learns each
// program's forced environment, helper directories and extra reads
// (programs.Hook). Default: none (nothing forced).
func WithPrograms(p Programs) Option { return func(c *config) { c.programs = p } }

// WithPrograms returns a Kernel like k whose per-program hook is p (k
// itself when it already has p).
func (k *Kernel) WithPrograms(p Programs) *Kernel {
	if k.programs == p {
		return k
	}
	d := *k // every field is immutable after New: sharing them is safe
	d.programs = p
	return &d
}

// Programs returns the per-program hook set by WithPrograms, or nil.
func (k *Kernel) Programs() Programs { return k.programs }

// programEnv returns the hook's entries for the program at path run with
// args.
func (k *Kernel) programEnv(path string, args []string) []string {
	if k.programs == nil {
		return nil
	}
	return k.programs.Env(path, k.workspace, configDir(k.programs.ConfigFiles()), args, k.look)
}

// look is the kernel's LookFunc: the process is the host's, so it must die
// with the host (a parent-death signal, which follows the thread: the
// goroutine stays locked to it until the look is reaped) and stay within
// the memory a command gets and the time it is given.
func (k *Kernel) look(ctx context.Context, argv, env []string, stdout, stderr io.Writer, cpu time.Duration) error {
	full := mergeEnv(slices.Clone(k.env), env)
	mk := func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = k.workspace, full, stdout, stderr
		return cmd
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd, err := startLook(mk, Limits{Memory: k.limits.Memory, CPU: cpu})
	if err == nil {
		err = cmd.Wait()
	}
	return err
}

// configDirs caches, per list of file names, the private directory (see
// privateDir) holding them; "" when it could not be made.
var configDirs sync.Map // string → string

// configDir returns the private directory holding the empty files named.
func configDir(files []string) string {
	if len(files) == 0 {
		return ""
	}
	key := strings.Join(files, "\x00")
	if v, ok := configDirs.Load(key); ok {
		return v.(string)
	}
	dir, err := privateDir("toolgen-rc-", files)
	if err != nil {
		dir = ""
	}
	v, _ := configDirs.LoadOrStore(key, dir)
	return v.(string)
}

// programExecDirs returns the hook's helper directories for the program at
// path.
func (k *Kernel) programExecDirs(path string) []string {
	if k.programs == nil {
		return nil
	}
	return k.programs.ExecDirs(path)
}

// programRead returns the hook's extra reads for the programs at paths.
func (k *Kernel) programRead(paths ...string) []string {
	read := slices.Clone(k.read)
	if k.programs == nil {
		return read
	}
	for _, p := range paths {
		for _, r := range k.programs.Read(p) {
			if !slices.Contains(read, r) {
				read = append(read, r)
			}
		}
	}
	return read
}
