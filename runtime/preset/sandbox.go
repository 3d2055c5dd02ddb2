package preset

import (
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// confinement is what WithConfinement asks for.
type confinement struct {
	mode sandbox.Mode
	opts []sandbox.Option
}

// WithConfinement runs every command the preset's tools start confined by
// the Linux kernel (package sandbox, Landlock): each may read the workspace
// and the system files programs need, write only inside the workspace and
// only when its Spec says it writes, and use the network only when its Spec
// says so. ExecTool's commands get the least: read only, no network. mode
// says what happens where Landlock cannot enforce that (sandbox.Strict: the
// call is refused; sandbox.BestEffort: it runs with a warning in its result;
// sandbox.Off: no confinement). Without this option nothing is confined.
//
// The program confines commands by re-executing itself as the trampoline,
// so its main must call sandbox.Init first thing (otherwise every call fails
// with an error saying so), unless opts name another trampoline
// (sandbox.WithTrampoline). New fails when sandbox.New rejects mode or opts.
func WithConfinement(mode sandbox.Mode, opts ...sandbox.Option) Option {
	return func(c *config) { c.confine = &confinement{mode: mode, opts: opts} }
}

// kernelOptions returns kopts plus the option that confines the kernel's
// commands, if any was asked for.
func (cf *confinement) kernelOptions(kopts []kernel.Option) ([]kernel.Option, error) {
	if cf == nil || cf.mode == sandbox.Off {
		return kopts, nil
	}
	c, err := sandbox.New(cf.mode, cf.opts...)
	if err != nil {
		return nil, err
	}
	return append(kopts, kernel.WithConfiner(c)), nil
}
