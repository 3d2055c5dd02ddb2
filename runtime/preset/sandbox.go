package preset

import (
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// confinement is what WithConfinement asks for.
type confinement struct {
	mode sandbox.Mode
}

// WithConfinement sets how the preset's kernel confines the commands its
// tools start (package sandbox, Linux Landlock): each may read the workspace
// and the system files programs need, write only inside the workspace and
// only when its Spec says it writes, use the network only when its Spec says
// so (only the hosts it names, through the egress proxy, when it names
// them: egress.go), and execute only its own program. ExecTool's commands
// get the least: read only, no network (or the hosts of WithExecHosts). mode says what happens where Landlock cannot
// enforce that (sandbox.Strict: the call is refused; sandbox.BestEffort: it
// runs with a warning in its result; sandbox.Off: no confinement). Without
// this option the kernel's default applies: sandbox.BestEffort. New fails
// on an unknown mode.
func WithConfinement(mode sandbox.Mode) Option {
	return func(c *config) { c.confine = &confinement{mode: mode} }
}

// kernelOptions returns kopts plus the option that sets the confinement
// mode, if one was asked for.
func (cf *confinement) kernelOptions(kopts []kernel.Option) ([]kernel.Option, error) {
	if cf == nil {
		return kopts, nil
	}
	return append(kopts, kernel.WithConfinement(cf.mode)), nil
}
