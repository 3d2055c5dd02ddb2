package validate

import (
	"fmt"
	"strings"
	"testing"
)

func TestSpecNetworkHosts(t *testing.T) {
	s := grepSpec()
	s.Hosts = []string{"api.github.com:443", "*.example.org:443", "127.0.0.1:8080", "[::1]:8080", "localhost:8080"}
	if _, err := Spec(&s); err != nil {
		t.Fatalf("valid hosts refused: %v", err)
	}
	cases := []struct {
		hosts   []string
		network bool
		field   string
		msg     string
	}{
		{[]string{"api.github.com:443"}, true, "network", "both true (every host) and a list of hosts"},
		{[]string{"ok.example:443", "api.github.com"}, false, "network.hosts.1", "has no port"},
		{[]string{"0x7f.1:80"}, false, "network.hosts.0", "ends in the number"},
		{[]string{"evil.example@api.github.com:443"}, false, "network.hosts.0", "entries look like"},
		{[]string{"a.example:443", "A.example.:443"}, false, "network.hosts.1", "is entry 0 again"},
		{[]string{"https://api.github.com/"}, false, "network.hosts.0", "write its host and port: api.github.com:443"},
		{[]string{"api.github.com:443\u2028"}, false, "network.hosts.0", "non-ASCII"},
	}
	for _, c := range cases {
		s := grepSpec()
		s.Hosts, s.Network = c.hosts, c.network
		_, err := Spec(&s)
		errs := specErrors(t, err)
		if len(errs) != 1 || errs[0].Field != c.field || !strings.Contains(errs[0].Msg, c.msg) {
			t.Errorf("hosts %q network %v: %v; want one 613 on %s about %q", c.hosts, c.network, err, c.field, c.msg)
		}
	}
	s = grepSpec()
	for i := range MaxHosts + 1 {
		s.Hosts = append(s.Hosts, fmt.Sprintf("h%d.example:443", i))
	}
	if _, err := Spec(&s); err == nil || !strings.Contains(err.Error(), "at most 64") {
		t.Errorf("%d hosts: %v", len(s.Hosts), err)
	}
}
