package validate

import (
	"strconv"
	"strings"

	"github.com/nanogpt/toolgen/internal/hostentry"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// MaxHosts bounds a Spec's network hosts: an allow-list longer than this is
// not a list of the hosts one command needs.
const MaxHosts = 64

// checkNetwork checks a Spec's network hosts: each entry in the form
// package hostentry reads (hostentry.Parse), none twice (in canonical form),
// at most MaxHosts, and not together with Network (every host). Each
// problem is a 613 on field network.hosts.N (network for the whole).
func checkNetwork(s *tool.Spec) []error {
	if len(s.Hosts) == 0 {
		return nil
	}
	var errs []error
	if s.Network {
		errs = append(errs, tool.SpecErrorf("network", `network is both true (every host) and a list of hosts; `+
			`keep one: {"hosts": [...]} lets the command reach only those`))
	}
	if len(s.Hosts) > MaxHosts {
		errs = append(errs, tool.SpecErrorf("network.hosts", "network lists %d hosts; at most %d", len(s.Hosts), MaxHosts))
		return errs
	}
	seen := map[string]int{}
	for i, entry := range s.Hosts {
		field := "network.hosts." + strconv.Itoa(i)
		h, err := hostentry.Parse(entry)
		if err != nil {
			errs = append(errs, tool.SpecErrorf(field, "%s", hostProblem(err)))
			continue
		}
		if j, dup := seen[h.String()]; dup {
			errs = append(errs, tool.SpecErrorf(field, "network host %q is entry %d again (%s)", entry, j, h))
			continue
		}
		seen[h.String()] = i
	}
	return errs
}

// hostProblem is hostentry.Parse's message, with what an entry looks like.
func hostProblem(err error) string {
	msg := err.Error()
	if strings.Contains(msg, "port") || strings.Contains(msg, "names no host") {
		return msg
	}
	return msg + " (entries look like api.github.com:443, *.example.org:443, 10.0.0.5:443, [2001:db8::1]:443, localhost:8080)"
}
