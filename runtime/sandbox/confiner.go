package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

// selfExe names the running program on Linux even if its file was replaced
// or removed since it started: the default trampoline.
const selfExe = "/proc/self/exe"

// Confiner is the kernel.Confiner of package sandbox: it runs each command
// through the trampoline (a re-exec of a program that calls Init), which
// confines itself with Landlock and then executes the command. The host
// process is never restricted. A Confiner is immutable and safe for
// concurrent use.
type Confiner struct {
	mode Mode
	self string // the trampoline program
	own  bool   // self is this program, so Init must have been called
	read []string
}

var _ kernel.Confiner = (*Confiner)(nil)

// Option configures a Confiner in New.
type Option func(*Confiner)

// WithTrampoline runs the trampoline as the program at path (absolute),
// which must call Init first thing in main: e.g. an installed toolgen
// binary. The default is the running program itself (/proc/self/exe), which
// must then call Init too (New does not check that; Confine does).
func WithTrampoline(path string) Option {
	return func(c *Confiner) { c.self, c.own = path, false }
}

// WithReadable lets every confined command read (and execute from) paths as
// well, e.g. a toolchain outside /usr. Each must be absolute; one that does
// not exist when a command starts is skipped.
func WithReadable(paths ...string) Option {
	return func(c *Confiner) { c.read = append(c.read, paths...) }
}

// New returns a Confiner in mode. It fails on an unknown mode, a relative
// trampoline path and a relative WithReadable path; errors are prefixed
// "sandbox: ".
func New(mode Mode, opts ...Option) (*Confiner, error) {
	c := &Confiner{mode: mode, self: selfExe, own: true}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if mode != BestEffort && mode != Strict && mode != Off {
		return nil, fmt.Errorf("sandbox: unknown mode %v", mode)
	}
	if !filepath.IsAbs(c.self) {
		return nil, fmt.Errorf("sandbox: trampoline %q is not an absolute path", c.self)
	}
	for i, r := range c.read {
		if !filepath.IsAbs(r) {
			return nil, fmt.Errorf("sandbox: readable path %q is not absolute", r)
		}
		c.read[i] = filepath.Clean(r)
	}
	c.read = slices.Clip(c.read)
	return c, nil
}

// Mode returns the Confiner's mode.
func (c *Confiner) Mode() Mode { return c.mode }

// Policy returns the policy a command run in workspace with access a gets.
func (c *Confiner) Policy(workspace string, a kernel.Access) Policy {
	return Policy{Workspace: workspace, Write: a.Write, Network: a.Network, Read: slices.Clone(c.read)}
}

// errNoInit is what Confine says when this program would be its own
// trampoline but its main does not call Init: the "trampoline" would run the
// program itself with strange arguments.
var errNoInit = errors.New("sandbox: this program does not call sandbox.Init at the start of main, " +
	"so it cannot confine commands (see package sandbox)")

// Confine implements kernel.Confiner. In mode Off it returns argv as is.
// Otherwise, when this kernel's Landlock can enforce the policy in full, it
// returns the trampoline argv and no note; when it cannot, Strict returns
// an error (the command does not run) and BestEffort returns the trampoline
// argv (partial Landlock) or argv itself (no Landlock), with a warning note.
func (c *Confiner) Confine(argv []string, workspace string, a kernel.Access) ([]string, string, error) {
	if c.mode == Off {
		return argv, "", nil
	}
	if c.own && !initCalled.Load() {
		return nil, "", errNoInit
	}
	p := c.Policy(workspace, a)
	abi := probeABI()
	need := p.RequiredABI()
	switch {
	case abi.version >= need:
		return p.trampolineArgv(c.self, c.mode == Strict, argv), "", nil
	case c.mode == Strict:
		return nil, "", fmt.Errorf("sandbox: not running %s: strict confinement needs Landlock ABI %d, but %s",
			argv[0], need, abi.describe())
	case abi.version == 0:
		return argv, "warning: not confined: " + abi.describe() +
			"; the command ran with all of the agent's access to files and network", nil
	}
	return p.trampolineArgv(c.self, false, argv),
		fmt.Sprintf("warning: partly confined: this kernel's Landlock (ABI %d) does not restrict %s",
			abi.version, p.shortfall(abi.version)), nil
}

// abiInfo is what probing the kernel found.
type abiInfo struct {
	version int    // 0: no Landlock
	reason  string // why not, when version is 0
}

// describe says what the kernel has, for messages.
func (a abiInfo) describe() string {
	if a.version == 0 {
		return "Landlock is unavailable here (" + a.reason + ")"
	}
	return fmt.Sprintf("this kernel has ABI %d", a.version)
}

// probeABI asks the kernel once per process.
var probeABI = sync.OnceValue(probe)

// Available returns the Landlock ABI version of the running kernel (0 when
// there is none) and whether it enforces every policy in full (ABI 4 or
// later: files and TCP).
func Available() (abi int, ok bool) {
	v := probeABI().version
	return v, v >= abiNetwork
}
