package egress

import (
	"context"
	"fmt"
	"net/netip"
	"slices"

	"github.com/nanogpt/toolgen/internal/hostentry"
)

// refusal is a request the policy refuses: the line for WithRefused and
// the client's 403 body.
type refusal struct{ line string }

// loopback are the addresses localhost:PORT reaches, in the order tried.
var loopback = []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}

// allow decides whether t (a target host:port, never a wildcard) may be
// reached and returns the addresses to connect to, in order. An address
// target reaches that address only through an entry naming it; localhost
// reaches the loopback addresses through the entry localhost:PORT, with no
// resolver asked; any other name is resolved here, once, and only its
// public addresses are kept: a special-purpose address (loopback, private,
// link-local …, see Class) is reached only through an entry naming it,
// never through a name (DNS rebinding). The proxy connects to the
// addresses returned, never to the name.
func (p *Proxy) allow(ctx context.Context, t hostentry.Host) ([]netip.AddrPort, *refusal, error) {
	i := slices.IndexFunc(p.hosts, func(h hostentry.Host) bool { return h.Matches(t) })
	if i < 0 {
		return nil, &refusal{fmt.Sprintf("network: refused %s, not in hosts", t)}, nil
	}
	entry := p.hosts[i]
	switch {
	case t.Addr.IsValid():
		return []netip.AddrPort{netip.AddrPortFrom(t.Addr, t.Port)}, nil, nil
	case entry.IsLocalhost():
		return addrPorts(loopback, t.Port), nil, nil
	}
	addrs, err := p.resolver.LookupNetIP(ctx, "ip", t.Name)
	if err != nil {
		return nil, nil, fmt.Errorf("network: %s does not resolve: %w", t, err)
	}
	var public []netip.Addr
	var first, class string
	for _, a := range addrs {
		a = a.Unmap()
		if c := Class(a); c != "" {
			if first == "" {
				first, class = a.String(), c
			}
			continue
		}
		if !slices.Contains(public, a) {
			public = append(public, a)
		}
	}
	if len(public) == 0 {
		if first == "" {
			return nil, nil, fmt.Errorf("network: %s resolves to no address", t)
		}
		return nil, &refusal{fmt.Sprintf("network: refused %s, it resolves to %s (%s), which only an entry naming that address reaches", t, first, class)}, nil
	}
	return addrPorts(public, t.Port), nil, nil
}

func addrPorts(addrs []netip.Addr, port uint16) []netip.AddrPort {
	out := make([]netip.AddrPort, len(addrs))
	for i, a := range addrs {
		out[i] = netip.AddrPortFrom(a, port)
	}
	return out
}
