// Package egress is toolgen's egress proxy: it lets one call's command reach
// exactly the hosts its tool names ("network": {"hosts": [...]}) and nothing
// else. It is a leaf: it imports no other toolgen package.
//
//	p, err := egress.New([]string{"api.github.com:443", "*.example.org:443"},
//		egress.WithRefused(func(line string) { log.Print(line) }))
//	go p.Serve(ln) // the command gets HTTPS_PROXY=http://ln.Addr() …; nothing else routes out
//
// # Entries
//
// An entry is host:port (package internal/hostentry): a name (api.github.com:443), a wildcard
// (*.example.org:443: every name one or more labels below example.org, never
// example.org itself, whose own entry says so; the domain needs two labels
// or more, so *.com is refused), an IPv4 address in dotted decimal
// (10.0.0.5:443), an IPv6 address in brackets ([2001:db8::1]:443; zones are
// refused) or localhost:port. Each entry opens one port. Names are compared
// in lower case without their trailing dot, as ASCII: an internationalised
// name is written in its xn-- form, and a lookalike in another script is
// another name. A name ending in a number (127.1, 0x7f.1, 2130706433) is
// refused in an entry and in a request, since resolvers read it as an
// address.
//
// # What the proxy does
//
// It speaks HTTP/1.1 to the command: CONNECT host:port opens a tunnel (HTTPS
// and anything else over TCP), and a plain request with an absolute URI
// (GET http://host/path) is forwarded. Every request is checked on its own,
// a kept-alive connection's second request too, and a redirect is the
// client's next request, checked again. For each request it
//
//  1. reads the request head (at most MaxHeadBytes) and refuses any shape
//     it does not pass on: a request that is not CONNECT or an absolute
//     http:// URI, a URI with a user name (http://allowed@evil.example/), a
//     backslash or a percent escape in its host, a Host header that names
//     another host or port than the target (domain fronting), two Host
//     headers, folded header lines, bare CR and NUL bytes; then net/http
//     reads the same bytes, and the two readings must agree;
//  2. finds the entry the target matches (same port; a name matches a name
//     or a wildcard, an address only an entry with that address);
//  3. resolves a name itself, once, and keeps its public addresses only: an
//     address that is loopback, private, link-local, CGNAT, unspecified,
//     multicast or otherwise special (Class, IPv4-mapped, NAT64 and 6to4
//     forms judged by the IPv4 address inside) is reached only through an
//     entry that names it literally (127.0.0.1:8080, 10.0.0.5:443), or
//     localhost:PORT for the loopback addresses, never through a name, so a
//     listed name that resolves to one is refused (DNS rebinding);
//  4. connects to the address it checked, never to the name (no second
//     resolution), and for a plain request sends the request it parsed,
//     re-written, with the checked host as its Host and hop-by-hop headers
//     removed, on a connection of its own that closes after the response.
//
// A refusal answers the client 403 (400 for a request the proxy cannot
// read, 431 for a head too large) with one line of text, and tells the
// WithRefused function the same line, e.g. "network: refused
// evil.example:443, not in hosts" or "network: refused rebind.test:80, it
// resolves to 127.0.0.1 (loopback), which only an entry naming that
// address reaches". A name that does not resolve, or a host that does not
// answer, is a 502, not a refusal.
//
// # Bounds
//
// At most MaxConns client connections at a time; a request head within
// HeadTimeout (the same for a kept-alive connection's next request);
// resolving and connecting within DialTimeout; a response head within
// ResponseTimeout and MaxResponseHeadBytes. Bodies and tunnels are streamed with fixed buffers; they
// last until either side closes or the listener is closed, which ends every
// connection the proxy opened. Serve's caller bounds the whole: toolgen's
// kernel closes the listener when the call ends.
//
// # What it does not do
//
// It does not look inside a tunnel: CONNECT api.github.com:443 reaches
// api.github.com's address, and what the command sends there (a TLS name,
// an HTTP Host) is between it and that server. It does not speak SOCKS or
// UDP: ALL_PROXY helps only programs that use HTTP proxies for every
// protocol. It is not what keeps a command from going around it: that is
// the network namespace the kernel runs the command in, where the proxy is
// the only route out (package kernel, WithEgress).
package egress
