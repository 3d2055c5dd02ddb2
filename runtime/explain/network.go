package explain

import (
	"strings"

	"github.com/nanogpt/toolgen/internal/hostentry"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// network describes the network a call on k gets (k's Access, from the
// tool's Spec or ExecTool's grant) and what enforces it.
func network(k *kernel.Kernel) string {
	a := k.Access()
	off := k.Confinement() == sandbox.Off
	switch {
	case len(a.Hosts) > 0:
		policy := "only " + canonicalHosts(a.Hosts) + ", through toolgen's egress proxy (it resolves names itself, once, " +
			"and reaches loopback, private and link-local addresses only through an entry naming them)"
		switch {
		case off:
			return policy + "; NOT enforced (--confine off): the command can reach every host"
		case kernel.EgressEnforced():
			return policy + "; enforced by a network namespace whose only route out is the proxy (HTTP_PROXY, HTTPS_PROXY " +
				"and ALL_PROXY point at it; Landlock allows TCP to the proxy's port only)"
		}
		return policy + "; NOT enforced here (the system refuses the call's namespaces): the command gets no network " +
			"where Landlock denies TCP, so the hosts are not reached either"
	case a.Network:
		return "every host (\"network\": true); nothing restricts where the command connects"
	case off:
		return "none declared; NOT enforced (--confine off): the command can reach every host"
	}
	return "none; a network namespace of the call's own, with only a loopback that is down (no TCP, UDP, DNS or abstract Unix socket " +
		"of the host answers), and Landlock denies TCP connect and bind where the confinement above applies"
}

// canonicalHosts lists hosts in their canonical form (hostentry.Host.String).
func canonicalHosts(hosts []string) string {
	out := make([]string, len(hosts))
	for i, h := range hosts {
		if p, err := hostentry.Parse(h); err == nil {
			out[i] = p.String()
		} else {
			out[i] = h
		}
	}
	return strings.Join(out, ", ")
}
