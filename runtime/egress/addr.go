package egress

import "net/netip"

// special is one range of addresses that a name entry never reaches: only
// an entry naming an address of it literally does.
type special struct {
	prefix netip.Prefix
	class  string
}

// specials lists the ranges that are not the public internet: this
// machine, this network, the networks behind it and the ones no host
// should be reached through (RFC 6890's special-purpose registries, the
// parts a connection can reach something through).
var specials = func() []special {
	table := []struct{ cidr, class string }{
		{"0.0.0.0/8", "unspecified (this host)"},
		{"10.0.0.0/8", "private"},
		{"100.64.0.0/10", "CGNAT shared"},
		{"127.0.0.0/8", "loopback"},
		{"169.254.0.0/16", "link-local"},
		{"172.16.0.0/12", "private"},
		{"192.0.0.0/24", "IETF protocol assignment"},
		{"192.168.0.0/16", "private"},
		{"198.18.0.0/15", "benchmarking"},
		{"224.0.0.0/4", "multicast"},
		{"240.0.0.0/4", "reserved"}, // 255.255.255.255, the broadcast address, included
		{"::/128", "unspecified (this host)"},
		{"::1/128", "loopback"},
		{"::/96", "IPv4-compatible"},
		{"100::/64", "discard-only"},
		{"64:ff9b:1::/48", "local-use NAT64"}, // RFC 8215: a network's own translator
		{"fc00::/7", "private (unique local)"},
		{"fe80::/10", "link-local"},
		{"fec0::/10", "site-local"},
		{"ff00::/8", "multicast"},
	}
	out := make([]special, len(table))
	for i, e := range table {
		out[i] = special{netip.MustParsePrefix(e.cidr), e.class}
	}
	return out
}()

// embedding lists the IPv6 ranges that carry an IPv4 address a gateway may
// forward to (well-known NAT64 and 6to4): such an address is judged by the IPv4
// address it embeds, at the bit offset given.
var embedding = []struct {
	prefix netip.Prefix
	offset int // byte offset of the embedded IPv4 address
}{
	{netip.MustParsePrefix("64:ff9b::/96"), 12},
	{netip.MustParsePrefix("2002::/16"), 2},
}

// Class names the kind of a special-purpose address: "loopback",
// "private", "link-local", "CGNAT shared", "unspecified (this host)",
// "multicast" and so on; "" for a public address. IPv4-mapped IPv6
// addresses (::ffff:127.0.0.1) are judged as the IPv4 address they map,
// and NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses by the IPv4
// address they embed. A name entry reaches public addresses only.
func Class(a netip.Addr) string {
	a = a.Unmap()
	if !a.IsValid() {
		return "invalid"
	}
	if a.Zone() != "" {
		return "zoned"
	}
	for _, s := range specials {
		if s.prefix.Contains(a) {
			return s.class
		}
	}
	if a.Is6() {
		b := a.As16()
		for _, e := range embedding {
			if e.prefix.Contains(a) {
				v4 := netip.AddrFrom4([4]byte(b[e.offset : e.offset+4]))
				if c := Class(v4); c != "" {
					return c + " (embedded in " + a.String() + ")"
				}
			}
		}
	}
	return ""
}
