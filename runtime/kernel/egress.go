package kernel

import (
	"net"
	"slices"
)

// EgressFunc serves one call's egress proxy: it accepts the command's
// proxy connections on ln and lets them reach exactly hosts (host:port
// entries, as tool.Spec's network hosts spell them), calling refused with
// one line of text ("network: refused evil.example:443, not in hosts")
// for each connection or request it refuses. It returns when ln is closed,
// after closing every connection it opened; it closes ln itself on a bad
// entry and returns the error. refused may be called from several
// goroutines, never at once. Package egress's proxy is one (package
// preset sets it: egress.New(hosts, egress.WithRefused(refused)).Serve(ln)).
type EgressFunc func(ln net.Listener, hosts []string, refused func(line string)) error

// WithEgress sets the egress proxy of commands whose Access names Hosts.
// The contract with the spawn path: for such a command the kernel runs it
// in a network namespace of its own whose only route out is a listener ln
// it makes for the call and hands to serve, in a goroutine, with the
// command's Access.Hosts; the command's environment gets EgressEnv of
// ln's address; each line passed to refused goes into the call's Result
// (and so into the audit log); and ln is closed when the call ends, which
// ends serve. Until the kernel enforces that (EgressEnforced), a command
// with Hosts gets no network at all under confinement (Access.Network is
// false) and every host with confinement off. Without this option such a
// command cannot reach its hosts. A nil serve is ignored.
func WithEgress(serve EgressFunc) Option {
	return func(c *config) {
		if serve != nil {
			c.egress = serve
		}
	}
}

// Egress returns the function set by WithEgress, or nil.
func (k *Kernel) Egress() EgressFunc { return k.egress }

// EgressEnforced reports whether a confined command whose Access names
// Hosts (with an egress proxy set) is held to those hosts here: the kernel
// runs it in a network namespace of its own whose only route out is the
// proxy, as root and as an ordinary user. It is false outside Linux and
// where the system refuses the call namespaces; such a command then gets
// no network under confinement where Landlock can deny TCP (UDP stays
// open: Guarantees names what is missing), and every host with
// confinement off.
func EgressEnforced() bool { return egressEnforced() }

// EgressEnv returns the environment entries that send a command's HTTP
// traffic through the egress proxy listening at addr (host:port): HTTP,
// HTTPS and ALL proxy variables in both spellings (curl reads http_proxy
// in lower case only), and NO_PROXY set empty, so that no host (localhost
// included: it names the proxy's side, through an entry localhost:PORT)
// bypasses it.
func EgressEnv(addr string) []string {
	url := "http://" + addr
	var env []string
	for _, key := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"} {
		env = append(env, key+"="+url)
	}
	for _, key := range []string{"http_proxy", "https_proxy", "all_proxy"} {
		env = append(env, key+"="+url)
	}
	return append(env, "NO_PROXY=", "no_proxy=")
}

// equal reports whether a and b grant the same.
func (a Access) equal(b Access) bool {
	return a.Write == b.Write && a.Network == b.Network && a.RunsCode == b.RunsCode && slices.Equal(a.Hosts, b.Hosts)
}
