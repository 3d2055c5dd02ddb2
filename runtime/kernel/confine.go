package kernel

import (
	"fmt"
	"path/filepath"
	"slices"
)

// Access is what a command may do besides reading the workspace, as its
// tool declares it (tool.Spec's Writes and Network). A Confiner enforces it;
// without one it is only recorded. The zero value is the least: read only,
// no network.
type Access struct {
	// Write lets the command create, change, rename and delete files inside
	// the workspace (and nowhere else).
	Write bool
	// Network lets the command open network connections and listen.
	Network bool
}

// A Confiner makes a command run confined: to the workspace, with the
// Access its kernel grants (see (*Kernel).WithAccess). Package sandbox
// provides one (Linux Landlock, through a re-exec trampoline).
//
// Confine gets a copy of the argv about to run (argv[0] absolute, after any
// WithWrapper hook), which it may modify, the kernel's workspace and the
// access. It returns the argv to execute instead, whose argv[0] must be an
// absolute path, and a note for the caller ("" for none), which Run puts in
// Result.Notice: e.g. that the command ran unconfined. An error means the
// command is not started: Run returns it, with exit code 126 and the
// error's text as the output. Concurrent Runs call Confine concurrently.
type Confiner interface {
	Confine(argv []string, workspace string, a Access) (confined []string, note string, err error)
}

// WithConfiner makes every command run through c (after the WithWrapper
// hook, so whatever the hook adds is confined too). nil means none.
func WithConfiner(c Confiner) Option { return func(cf *config) { cf.confiner = c } }

// WithAccess returns a kernel that is k in every respect (workspace, limits,
// environment, hooks) except that its commands are granted a. It returns k
// itself when k already grants exactly a. A tool built on a shared kernel
// derives its own this way (package base does, from the tool's Spec).
func (k *Kernel) WithAccess(a Access) *Kernel {
	if k.access == a {
		return k
	}
	d := *k // every field is immutable after New: sharing them is safe
	d.access = a
	return &d
}

// Access returns what k's commands are granted besides reading the
// workspace.
func (k *Kernel) Access() Access { return k.access }

// Confiner returns the Confiner set by WithConfiner, or nil.
func (k *Kernel) Confiner() Confiner { return k.confiner }

// confine applies the Confiner to a copy of argv.
func (k *Kernel) confine(argv []string) ([]string, string, error) {
	c, note, err := k.confiner.Confine(slices.Clone(argv), k.workspace, k.access)
	switch {
	case err != nil:
		return nil, "", fmt.Errorf("kernel: confine: %w", err)
	case len(c) == 0 || !filepath.IsAbs(c[0]):
		return nil, "", fmt.Errorf("kernel: confiner returned %q: argv[0] must be an absolute path", c)
	}
	return c, note, nil
}
