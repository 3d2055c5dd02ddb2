package kernel

import (
	"fmt"
	"slices"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// Access is what a command may do besides reading the workspace, as its
// tool declares it (tool.Spec's Writes and Network). Confinement enforces
// it; with confinement off it is only recorded. The zero value is the
// least: read only, no network.
type Access struct {
	// Write lets the command create, change, rename and delete files inside
	// the workspace (and nowhere else).
	Write bool
	// Network lets the command open network connections and listen.
	Network bool
	// Hosts, when not empty, is the only network the command gets: the
	// host:port entries it may reach through the kernel's egress proxy
	// (egress.go). Network is false then.
	Hosts []string
	// RunsCode declares a tool that runs the repository's own code (a
	// build or test runner: tool.Spec's RunsCode): its commands may execute
	// what they read or write, the workspace is not mounted noexec for
	// them, and they get the workspace's build cache, a scratch directory,
	// their toolchain's reads and environment and a data cap instead of an
	// address-space cap (see BuildCache, CodeRunners).
	RunsCode bool
}

// WithConfinement sets what happens where the kernel's Landlock cannot
// enforce a command's policy in full (see package sandbox and the package
// doc): sandbox.BestEffort (the default) runs it confined as far as
// possible, with a warning in its Result; sandbox.Strict refuses to run it
// (exit 126); sandbox.Off runs every command unconfined, silently. The
// child's environment, its private HOME, the descendant control and the
// resource limits apply in every mode. New rejects an unknown mode.
func WithConfinement(mode sandbox.Mode) Option { return func(c *config) { c.mode = mode } }

// WithReadable lets every confined command read (not execute) paths as
// well, e.g. the data of a toolchain outside /usr. Each must be absolute;
// one that does not exist when a command starts is skipped. Repeated calls
// accumulate.
func WithReadable(paths ...string) Option {
	return func(c *config) { c.read = append(c.read, paths...) }
}

// WithAccess returns a kernel that is k in every respect (workspace, limits,
// environment, confinement) except that its commands are granted a. It
// returns k itself when k already grants exactly a. A tool built on a shared
// kernel derives its own this way (package base does, from the tool's Spec).
func (k *Kernel) WithAccess(a Access) *Kernel {
	if k.access.equal(a) {
		return k
	}
	d := *k // every field is immutable after New: sharing them is safe
	d.access = a
	d.access.Hosts = slices.Clone(a.Hosts)
	return &d
}

// Access returns what k's commands are granted besides reading the
// workspace.
func (k *Kernel) Access() Access {
	a := k.access
	a.Hosts = slices.Clone(a.Hosts)
	return a
}

// Confinement returns the confinement mode set by WithConfinement.
func (k *Kernel) Confinement() sandbox.Mode { return k.mode }

// Policy returns the Landlock policy a command running the program at path
// (absolute, as resolved) gets: the workspace, the private HOME, the
// kernel's access and readable paths (WithReadable, then what the
// Programs hook says the programs read), and the execute set (ExecSet, with
// also: see RunAlso). A tool that runs code (Access.RunsCode) also writes
// its workspace's build cache, reads its toolchain's directories and may
// execute what it reads or writes.
//
// A command that reaches named hosts (Access.Hosts, with an egress proxy
// set) may also connect to its proxy's port, and execute the kernel's own
// executable: its egress shim, which executes the command.
func (k *Kernel) Policy(path string, also ...string) sandbox.Policy {
	p := sandbox.Policy{
		Workspace:  k.workspace,
		Home:       k.home,
		Write:      k.access.Write,
		Network:    k.access.Network,
		Read:       k.programRead(append([]string{path}, also...)...),
		Exec:       k.ExecSet(path, also...),
		SpawnFlags: k.spawnNamespaces(),
		Protect:    k.protect,
	}
	if k.access.RunsCode {
		p.RunsCode = true
		if cache := k.BuildCache(); cache != "" {
			p.WriteDirs = []string{cache}
		}
		_, read, _, _ := k.toolchain(path)
		for _, r := range read {
			if !slices.Contains(p.Read, r) {
				p.Read = append(p.Read, r)
			}
		}
	}
	if k.egressActive() {
		p.ProxyPort = egressPort
		for _, e := range shimExec() {
			if !slices.Contains(p.Exec, e) {
				p.Exec = append(p.Exec, e)
			}
		}
	}
	return p
}

// ExecSet returns the only files and directories a confined command running
// the program at path (absolute, as resolved) may execute: the program
// itself, its dynamic loader (the ELF interpreter it names) and the helper
// directories the Programs hook declares for it (git's exec-path, for
// one); and the same for each program of also (absolute, as resolved: what
// the command's template says it runs, see RunAlso). A shell or an
// interpreter is never in it unless also names one, so a script cannot run
// confined, nor can any program start another one it was not given.
func (k *Kernel) ExecSet(path string, also ...string) []string {
	set := k.execSetOf(path)
	for _, p := range also {
		for _, e := range k.execSetOf(p) {
			if !slices.Contains(set, e) {
				set = append(set, e)
			}
		}
	}
	return set
}

// checkMode rejects a mode sandbox does not define.
func checkMode(m sandbox.Mode) error {
	switch m {
	case sandbox.BestEffort, sandbox.Strict, sandbox.Off:
		return nil
	}
	return fmt.Errorf("kernel: unknown confinement mode %v", m)
}
