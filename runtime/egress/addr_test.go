package egress

import (
	"net/netip"
	"testing"
)

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
