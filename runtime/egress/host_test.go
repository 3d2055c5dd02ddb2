package egress

import (
	"net/netip"
	"strings"
	"testing"
)

func TestParseHostAccepts(t *testing.T) {
	cases := []struct{ entry, want string }{
		{"api.github.com:443", "api.github.com:443"},
		{"API.GitHub.COM:443", "api.github.com:443"},  // case is ignored
		{"api.github.com.:443", "api.github.com:443"}, // one trailing dot dropped
		{"*.example.org:443", "*.example.org:443"},
		{"*.Example.Org.:8443", "*.example.org:8443"},
		{"localhost:8080", "localhost:8080"},
		{"127.0.0.1:8080", "127.0.0.1:8080"},
		{"10.0.0.5:443", "10.0.0.5:443"},
		{"[::1]:80", "[::1]:80"},
		{"[2001:DB8::1]:443", "[2001:db8::1]:443"},
		{"[::ffff:127.0.0.1]:80", "127.0.0.1:80"}, // IPv4-mapped: the IPv4 address
		{"xn--bcher-kva.example:443", "xn--bcher-kva.example:443"},
		{"1.example.com:65535", "1.example.com:65535"}, // a numeric label that is not the last
		{"a-b.example:1", "a-b.example:1"},
	}
	for _, c := range cases {
		h, err := ParseHost(c.entry)
		if err != nil {
			t.Errorf("ParseHost(%q): %v", c.entry, err)
			continue
		}
		if got := h.String(); got != c.want {
			t.Errorf("ParseHost(%q) = %s, want %s", c.entry, got, c.want)
		}
		if again, err := ParseHost(h.String()); err != nil || again != h {
			t.Errorf("ParseHost(%q) does not read back its canonical form: %v, %v", h.String(), again, err)
		}
	}
}

func TestParseHostRefuses(t *testing.T) {
	cases := []struct{ entry, why string }{
		{"", "names no host"},
		{"api.github.com", "has no port"},
		{"api.github.com:", "port"},
		{"api.github.com:0", "port"},
		{"api.github.com:0443", "leading zeros"},
		{"api.github.com:+443", "port"},
		{"api.github.com:65536", "1 to 65535"},
		{"api.github.com:443 ", "space or control"},
		{"api.github.com\u3000:443", "non-ASCII"},
		{"api.github.com\t:443", "space or control"},
		{"ápple.com:443", "xn--"},
		{"аpple.com:443", "U+0430"}, // Cyrillic а
		{"ａpi.github.com:443", "non-ASCII"},
		{"*:443", "whole leading label"},
		{"*.com:443", "top-level"},
		{"*.*.example.org:443", "wildcard is a whole leading label"},
		{"a*.example.org:443", "wildcard is a whole leading label"},
		{"api.*.org:443", "wildcard is a whole leading label"},
		{"0x7f.1:80", "ends in the number"},
		{"0x7f000001:80", "ends in the number"},
		{"2130706433:80", "ends in the number"},
		{"127.1:80", "ends in the number"},
		{"127.0.0.1.:80", "ends in the number"},
		{"0127.0.0.1:80", "ends in the number"},
		{"::1:80", "brackets"},
		{"[::1]80", "text after the ]"},
		{"[::1:80", "no ]"},
		{"[fe80::1%eth0]:443", "zone"},
		{"[fe80::1%25eth0]:443", "zone"},
		{"[127.0.0.1]:80", "not an IPv6 address"},
		{"evil.example@api.github.com:443", "letters, digits"},
		{"api.github.com/x:443", "letters, digits"},
		{"a..b:443", "empty label"},
		{".a.b:443", "empty label"},
		{"-a.b:443", "starts or ends with '-'"},
		{"a_b.example:443", "letters, digits"},
		{strings.Repeat("a", 64) + ".example:443", "at most 63"},
		{strings.Repeat("a.", 140) + "example:443", "bytes long"},
		{"https://api.github.com:443", "is a URL; write its host and port: api.github.com:443"},
		{"ftp://api.github.com:443", "more than one ':'"},
	}
	for _, c := range cases {
		h, err := ParseHost(c.entry)
		if err == nil {
			t.Errorf("ParseHost(%q) = %v, want an error about %q", c.entry, h, c.why)
			continue
		}
		if !strings.Contains(err.Error(), c.why) {
			t.Errorf("ParseHost(%q): %v; want it to mention %q", c.entry, err, c.why)
		}
		if !strings.HasPrefix(err.Error(), "network host ") || strings.ContainsAny(err.Error(), "\n\r\t") {
			t.Errorf("ParseHost(%q): %q is not one line naming the entry", c.entry, err)
		}
	}
}

func TestHostMatches(t *testing.T) {
	cases := []struct {
		entry, target string
		want          bool
	}{
		{"api.github.com:443", "api.github.com:443", true},
		{"api.github.com:443", "API.GITHUB.COM.:443", true},
		{"api.github.com:443", "api.github.com:80", false},
		{"api.github.com:443", "github.com:443", false},
		{"api.github.com:443", "evil.api.github.com:443", false},
		{"api.github.com:443", "api.github.com.evil.example:443", false},
		{"*.example.org:443", "a.example.org:443", true},
		{"*.example.org:443", "a.b.example.org:443", true},
		{"*.example.org:443", "example.org:443", false}, // the apex needs its own entry
		{"*.example.org:443", "badexample.org:443", false},
		{"*.example.org:443", "a.example.org.evil.example:443", false},
		{"*.example.org:443", "a.example.org:80", false},
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "[::ffff:127.0.0.1]:8080", true},
		{"127.0.0.1:8080", "127.0.0.2:8080", false},
		{"127.0.0.1:8080", "localhost:8080", false}, // a name is not an address
		{"localhost:8080", "127.0.0.1:8080", false},
		{"localhost:8080", "localhost:8080", true},
		{"[::1]:80", "[0:0::1]:80", true},
	}
	for _, c := range cases {
		e, err := ParseHost(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		tg, err := parseAuthority(c.target, false, 0)
		if err != nil {
			t.Fatalf("target %q: %v", c.target, err)
		}
		if got := e.matches(tg); got != c.want {
			t.Errorf("%s matches %s = %v, want %v", c.entry, c.target, got, c.want)
		}
	}
}

func TestClass(t *testing.T) {
	cases := map[string]string{
		"127.0.0.1":                "loopback",
		"127.255.0.9":              "loopback",
		"::1":                      "loopback",
		"::ffff:127.0.0.1":         "loopback",
		"::ffff:10.1.2.3":          "private",
		"10.0.0.5":                 "private",
		"172.16.0.1":               "private",
		"192.168.1.1":              "private",
		"fd00::1":                  "private (unique local)",
		"169.254.169.254":          "link-local", // cloud metadata
		"fe80::1":                  "link-local",
		"100.64.0.1":               "CGNAT shared",
		"0.0.0.0":                  "unspecified (this host)",
		"0.1.2.3":                  "unspecified (this host)",
		"::":                       "unspecified (this host)",
		"224.0.0.1":                "multicast",
		"ff02::1":                  "multicast",
		"255.255.255.255":          "reserved",
		"::127.0.0.1":              "IPv4-compatible",
		"64:ff9b::7f00:1":          "loopback (embedded in 64:ff9b::7f00:1)",
		"2002:a00:1::":             "private (embedded in 2002:a00:1::)",
		"8.8.8.8":                  "",
		"203.0.113.7":              "",
		"2606:4700:4700::1111":     "",
		"64:ff9b::808:808":         "",
		"2002:808:808::":           "",
		"192.0.2.1":                "",
		"2001:db8::1":              "",
		"100.128.0.1":              "",
		"172.32.0.1":               "",
		"::ffff:8.8.8.8":           "",
		"fe80::1%eth0":             "zoned",
		"64:ff9b:1:7f00:0001::":    "local-use NAT64",
		"64:ff9b::ffff:ffff":       "reserved (embedded in 64:ff9b::ffff:ffff)",
		"2002:a9fe:a9fe::1":        "link-local (embedded in 2002:a9fe:a9fe::1)",
		"::ffff:169.254.169.254":   "link-local",
		"::ffff:100.64.0.1":        "CGNAT shared",
		"::ffff:0.0.0.0":           "unspecified (this host)",
		"::ffff:224.0.0.1":         "multicast",
		"fec0::1":                  "site-local",
		"100::1":                   "discard-only",
		"198.18.0.1":               "benchmarking",
		"192.0.0.8":                "IETF protocol assignment",
		"2001:4860:4860::8888":     "",
		"::ffff:192.168.0.1":       "private",
		"64:ff9b::192.168.0.1":     "private (embedded in 64:ff9b::c0a8:1)",
		"64:ff9b::169.254.169.254": "link-local (embedded in 64:ff9b::a9fe:a9fe)",
	}
	for s, want := range cases {
		if got := Class(netip.MustParseAddr(s)); got != want {
			t.Errorf("Class(%s) = %q, want %q", s, got, want)
		}
	}
}

func TestHostOfURL(t *testing.T) {
	cases := map[string]string{
		"https://api.github.com/repos/x":   "api.github.com:443",
		"HTTPS://API.GitHub.com":           "api.github.com:443",
		"http://example.org:8080/?q#f":     "example.org:8080",
		"http://127.0.0.1/":                "127.0.0.1:80",
		"https://[::1]:8443/":              "[::1]:8443",
		"https://user@api.github.com/":     "",
		"https://api.github.com\\@evil/":   "",
		"https://%61pi.github.com/":        "",
		"ftp://example.org/":               "",
		"api.github.com:443":               "",
		"https://{host}/x":                 "",
		"https://api.{domain}.com/":        "",
		"https://0x7f.1/":                  "",
		"https://bücher.example/":          "",
		"https:///path":                    "",
		"https://api.github.com:0443/":     "",
		"https://api.github.com:99999/":    "",
		"https://api.github.com.:443/repo": "api.github.com:443",
	}
	for in, want := range cases {
		if got := HostOfURL(in); got != want {
			t.Errorf("HostOfURL(%q) = %q, want %q", in, got, want)
		}
	}
	if _, err := ParseHost("https://api.github.com/x"); err == nil || !strings.Contains(err.Error(), "write its host and port: api.github.com:443") {
		t.Errorf("ParseHost of a URL: %v", err)
	}
}
