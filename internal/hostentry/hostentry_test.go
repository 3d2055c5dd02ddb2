package hostentry

import (
	"strings"
	"testing"
)

func TestParseAccepts(t *testing.T) {
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
		h, err := Parse(c.entry)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.entry, err)
			continue
		}
		if got := h.String(); got != c.want {
			t.Errorf("Parse(%q) = %s, want %s", c.entry, got, c.want)
		}
		if again, err := Parse(h.String()); err != nil || again != h {
			t.Errorf("Parse(%q) does not read back its canonical form: %v, %v", h.String(), again, err)
		}
	}
}

func TestParseRefuses(t *testing.T) {
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
		h, err := Parse(c.entry)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error about %q", c.entry, h, c.why)
			continue
		}
		if !strings.Contains(err.Error(), c.why) {
			t.Errorf("Parse(%q): %v; want it to mention %q", c.entry, err, c.why)
		}
		if !strings.HasPrefix(err.Error(), "network host ") || strings.ContainsAny(err.Error(), "\n\r\t") {
			t.Errorf("Parse(%q): %q is not one line naming the entry", c.entry, err)
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
		e, err := Parse(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		tg, err := parseAuthority(c.target, false, 0)
		if err != nil {
			t.Fatalf("target %q: %v", c.target, err)
		}
		if got := e.Matches(tg); got != c.want {
			t.Errorf("%s matches %s = %v, want %v", c.entry, c.target, got, c.want)
		}
	}
}

func TestOfURL(t *testing.T) {
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
		if got := OfURL(in); got != want {
			t.Errorf("OfURL(%q) = %q, want %q", in, got, want)
		}
	}
	if _, err := Parse("https://api.github.com/x"); err == nil || !strings.Contains(err.Error(), "write its host and port: api.github.com:443") {
		t.Errorf("ParseHost of a URL: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"api.github.com:443", "*.example.org:443", "[::1]:80", "10.0.0.5:443",
		"localhost:8080", "0x7f.1:80", "[fe80::1%eth0]:1", "ápple.com:443", "a..b:1", "A.B.:65535"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		h, err := Parse(entry)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\r\n\x00") {
				t.Fatalf("message %q is not one line", err)
			}
			return
		}
		if h.Port == 0 || (h.Name == "") == !h.Addr.IsValid() || h.Addr.Zone() != "" || h.Addr.Is4In6() {
			t.Fatalf("Parse(%q) = %+v: not one host:port", entry, h)
		}
		if h.Name != strings.ToLower(h.Name) || strings.HasSuffix(h.Name, ".") {
			t.Fatalf("Parse(%q): name %q is not canonical", entry, h.Name)
		}
		again, err := Parse(h.String())
		if err != nil || again != h {
			t.Fatalf("Parse(%q) = %s, which reads back as %+v, %v", entry, h, again, err)
		}
		if !h.Wildcard && !h.Matches(h) {
			t.Fatalf("%s does not match itself", h)
		}
	})
}
