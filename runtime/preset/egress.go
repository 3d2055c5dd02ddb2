package preset

import (
	"errors"
	"net"
	"slices"

	"github.com/nanogpt/toolgen/runtime/egress"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// egressConfig is what WithEgressOptions and WithExecHosts ask for.
type egressConfig struct {
	opts      []egress.Option // given to every call's proxy
	execHosts []string        // ExecTool's hosts (exec.WithHosts)
}

// WithEgressOptions adds options to the egress proxy each call of a tool
// with network hosts gets (package egress; a Spec's "network": {"hosts":
// [...]}). Every preset's kernel runs that proxy (kernel.WithEgress):
// the options only adjust it, e.g. egress.WithResolver for a test's names.
// egress.WithRefused is the kernel's: the one given here is replaced.
func WithEgressOptions(opts ...egress.Option) Option {
	return func(c *config) { c.egress.opts = append(c.egress.opts, opts...) }
}

// WithExecHosts gives ExecTool the network hosts its commands may reach
// (host:port entries, as a descriptor's "network": {"hosts": [...]}),
// through the same egress proxy; without it ExecTool has no network.
// Repeated options accumulate. New fails with a 613 on a bad entry, and
// with an error when WithExec grants no binary: hosts are for the exec
// tool, and a descriptor names its own.
func WithExecHosts(hosts ...string) Option {
	return func(c *config) { c.egress.execHosts = append(c.egress.execHosts, hosts...) }
}

// kernelOptions returns kopts plus the kernel's egress proxy.
func (e egressConfig) kernelOptions(kopts []kernel.Option) []kernel.Option {
	return append(kopts, kernel.WithEgress(Egress(e.opts...)))
}

// checkExecHosts refuses hosts for an exec tool that is not there.
func (e egressConfig) checkExecHosts(execBinaries []string) error {
	if len(e.execHosts) > 0 && len(execBinaries) == 0 {
		return errors.New("preset: WithExecHosts gives the exec tool network hosts, but WithExec grants it no binary")
	}
	return nil
}

// Egress returns the kernel.EgressFunc that runs package egress's proxy
// for one call: the call's hosts, the kernel's refusal function, and opts.
// Every preset's kernel has it; a Go program assembling its own kernel
// passes it to kernel.WithEgress.
func Egress(opts ...egress.Option) kernel.EgressFunc {
	opts = slices.Clip(opts)
	return func(ln net.Listener, hosts []string, refused func(line string)) error {
		p, err := egress.New(hosts, append(opts, egress.WithRefused(refused))...)
		if err != nil {
			ln.Close()
			return err
		}
		return p.Serve(ln)
	}
}
