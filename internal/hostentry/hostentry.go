// Package hostentry is the grammar of a network allow-list entry
// ("api.github.com:443", "*.example.org:443", "[::1]:8080") and of the
// host:port a proxy request names: the descriptor validator checks a
// tool's "network" hosts with it, and the egress proxy matches requests
// against them with it, so both read an entry alike.
package hostentry

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Host is one parsed entry of an allow-list: a host name, a wildcard over
// the names below a domain, or an IP address, and the one port it opens.
type Host struct {
	// Name is the host name, lower case, without a trailing dot; for a
	// wildcard entry it is the domain below which the entry matches
	// ("example.org" for "*.example.org"). Empty for an address entry.
	Name string
	// Wildcard means the entry matches every name of one or more labels
	// below Name (a.example.org, a.b.example.org), never Name itself.
	Wildcard bool
	// Addr is the address an address entry names, an IPv4-mapped IPv6 form
	// unmapped to IPv4; the zero Addr for a name entry.
	Addr netip.Addr
	// Port is the port the entry opens, 1 to 65535.
	Port uint16
}

// maxEntry bounds an entry's length: a 253-byte name, "*.", ":65535" and a
// trailing dot fit.
const maxEntry = 264

// Parse parses one allow-list entry: "host:port" (api.github.com:443),
// "*.domain:port" (*.example.org:443: every name of one or more labels below
// example.org, not example.org itself; the domain needs two labels or
// more), an IPv4 address in dotted decimal (10.0.0.5:443), an IPv6 address
// in brackets ([2001:db8::1]:443, no zone) or localhost:port. The port is
// required, in decimal without leading zeros. Names are ASCII letters,
// digits and hyphens in dot-separated labels; case is ignored and one
// trailing dot is dropped. An internationalised name is written in its
// ASCII (xn--) form; a name whose last label is a number (0x7f.1,
// 2130706433, 127.1) is refused, since resolvers read it as an address.
// The error says what is wrong and how to write the entry instead.
func Parse(entry string) (Host, error) {
	if u := OfURL(entry); u != "" {
		return Host{}, fmt.Errorf("network host %s: is a URL; write its host and port: %s", Show(entry), u)
	}
	h, err := parseAuthority(entry, true, 0)
	if err != nil {
		return Host{}, fmt.Errorf("network host %s: %w", Show(entry), err)
	}
	return h, nil
}

// OfURL returns the entry that opens an absolute http:// or https:// URL
// written in full ("https://api.github.com/repos" → "api.github.com:443",
// "http://Example.org:8080/" → "example.org:8080"), or "" when rawURL is
// not one, names a user, or its host is not one an entry can name.
func OfURL(rawURL string) string {
	scheme, rest, ok := strings.Cut(rawURL, "://")
	var port uint16
	switch {
	case !ok:
		return ""
	case strings.EqualFold(scheme, "https"):
		port = 443
	case strings.EqualFold(scheme, "http"):
		port = 80
	default:
		return ""
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if strings.ContainsAny(authority, "@\\%") {
		return ""
	}
	h, err := parseAuthority(authority, false, port)
	if err != nil {
		return ""
	}
	return h.String()
}

// String returns the entry in its canonical form: "api.github.com:443",
// "*.example.org:443", "10.0.0.5:443", "[::1]:8080".
func (h Host) String() string {
	port := strconv.Itoa(int(h.Port))
	switch {
	case h.Addr.IsValid() && h.Addr.Is6():
		return "[" + h.Addr.String() + "]:" + port
	case h.Addr.IsValid():
		return h.Addr.String() + ":" + port
	case h.Wildcard:
		return "*." + h.Name + ":" + port
	}
	return h.Name + ":" + port
}

// IsLocalhost reports whether h is the entry localhost:PORT, which names the
// loopback addresses without asking a resolver.
func (h Host) IsLocalhost() bool { return h.Name == "localhost" && !h.Wildcard }

// Matches reports whether the entry h allows the target t (never a wildcard).
func (h Host) Matches(t Host) bool {
	if h.Port != t.Port {
		return false
	}
	if h.Addr.IsValid() || t.Addr.IsValid() {
		return h.Addr == t.Addr
	}
	if h.Wildcard {
		return strings.HasSuffix(t.Name, "."+h.Name)
	}
	return h.Name == t.Name
}

// ParseTarget parses the host:port a request names (a CONNECT target, the
// authority of an http:// URI, a Host header) by the grammar of an entry
// without a wildcard; defaultPort, when not zero, is the port of an
// authority that names none (http://host/). The error says what is wrong,
// to follow "the target " or "its host ".
func ParseTarget(s string, defaultPort uint16) (Host, error) {
	return parseAuthority(s, false, defaultPort)
}

// parseAuthority parses "host:port". A wildcard host is accepted only when
// wildcard is set (entries, never requests); defaultPort, when not zero,
// is the port of an authority that names none (http://host/).
func parseAuthority(s string, wildcard bool, defaultPort uint16) (Host, error) {
	if len(s) > maxEntry {
		return Host{}, fmt.Errorf("is %d bytes long; a host name has at most 253", len(s))
	}
	if err := checkASCII(s); err != nil {
		return Host{}, err
	}
	host, port, err := splitPort(s, defaultPort)
	if err != nil {
		return Host{}, err
	}
	var h Host
	if strings.HasPrefix(host, "[") {
		h.Addr, err = parseBracketed(host)
	} else if a, perr := netip.ParseAddr(host); perr == nil && a.Is4() {
		h.Addr = a
	} else {
		h.Name, h.Wildcard, err = parseName(host, wildcard)
	}
	if err != nil {
		return Host{}, err
	}
	h.Port = port
	return h, nil
}

// checkASCII refuses what cannot be in a host:port at all.
func checkASCII(s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			return errors.New("is not valid UTF-8")
		case r > 0x7e:
			return fmt.Errorf("holds the non-ASCII character %U; write an internationalised name in its ASCII form (xn--…, as `idn2` prints it)", r)
		case r <= ' ':
			return fmt.Errorf("holds a space or control character at byte %d", i)
		}
	}
	return nil
}

// splitPort splits host and port. An IPv6 address must be in brackets.
func splitPort(s string, defaultPort uint16) (string, uint16, error) {
	var host, port string
	hasPort := false
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", 0, errors.New("has no ] closing its [")
		}
		host, port = s[:end+1], s[end+1:]
		if port != "" {
			if port[0] != ':' {
				return "", 0, errors.New("has text after the ] of its address; write [ADDRESS]:PORT")
			}
			port, hasPort = port[1:], true
		}
	} else {
		i := strings.LastIndexByte(s, ':')
		if i >= 0 {
			host, port, hasPort = s[:i], s[i+1:], true
		} else {
			host = s
		}
		if strings.Contains(host, ":") {
			return "", 0, errors.New("holds more than one ':'; an IPv6 address goes in brackets: [2001:db8::1]:443")
		}
	}
	if host == "" {
		return "", 0, errors.New("names no host; write HOST:PORT")
	}
	if !hasPort {
		if defaultPort == 0 {
			return "", 0, errors.New("has no port; write HOST:PORT, e.g. api.github.com:443")
		}
		return host, defaultPort, nil
	}
	p, err := parsePort(port)
	return host, p, err
}

// parsePort reads a decimal port from 1 to 65535, without sign or leading
// zero.
func parsePort(s string) (uint16, error) {
	if s == "" || len(s) > 5 || s[0] == '0' || strings.Trim(s, "0123456789") != "" {
		return 0, fmt.Errorf("has the port %s; a port is a number from 1 to 65535, written without leading zeros", Show(s))
	}
	n, _ := strconv.Atoi(s)
	if n > 65535 {
		return 0, fmt.Errorf("has the port %s; a port is a number from 1 to 65535", s)
	}
	return uint16(n), nil
}

// parseBracketed reads "[IPv6]".
func parseBracketed(s string) (netip.Addr, error) {
	inner := s[1 : len(s)-1]
	if strings.Contains(inner, "%") {
		return netip.Addr{}, errors.New("names an IPv6 zone (%…); a zone names a local interface and is not allowed")
	}
	a, err := netip.ParseAddr(inner)
	if err != nil || !a.Is6() {
		return netip.Addr{}, fmt.Errorf("has %s in brackets, which is not an IPv6 address", Show(inner))
	}
	return a.Unmap(), nil
}

// parseName checks a host name (and a leading "*." when wildcard is set)
// and returns it lower case, without its trailing dot.
func parseName(s string, wildcard bool) (string, bool, error) {
	wild := false
	if rest, ok := strings.CutPrefix(s, "*."); ok {
		if !wildcard {
			return "", false, errors.New("is a wildcard; a request names one host")
		}
		s, wild = rest, true
	}
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return "", false, errors.New("is longer than the 253 bytes of a host name")
	}
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if err := checkLabel(l); err != nil {
			return "", false, err
		}
	}
	last := labels[len(labels)-1]
	if numeric(last) {
		return "", false, fmt.Errorf("ends in the number %s, which resolvers read as an IPv4 address; write an address as four decimal numbers (127.0.0.1)", Show(last))
	}
	if wild && len(labels) < 2 {
		return "", false, fmt.Errorf("is a wildcard over the top-level domain %s; name a domain of two labels or more (*.example.org)", Show(s))
	}
	return strings.ToLower(s), wild, nil
}

// checkLabel checks one label of a host name: 1 to 63 letters, digits and
// hyphens, not starting or ending with a hyphen.
func checkLabel(l string) error {
	switch {
	case l == "":
		return errors.New("has an empty label (two dots in a row, or a leading dot)")
	case len(l) > 63:
		return fmt.Errorf("has a label of %d bytes; a label has at most 63", len(l))
	case strings.Contains(l, "*"):
		return errors.New("has a '*' inside the name; a wildcard is a whole leading label: *.example.org:443")
	case l[0] == '-' || l[len(l)-1] == '-':
		return fmt.Errorf("has the label %s, which starts or ends with '-'", Show(l))
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf("holds %q; a host name is letters, digits, '-' and '.'", c)
		}
	}
	return nil
}

// numeric reports whether a last label makes a name look like an address
// to a resolver or URL parser: all decimal digits, or 0x followed by hex
// digits (the WHATWG URL standard's "ends in a number").
func numeric(l string) bool {
	if strings.Trim(l, "0123456789") == "" {
		return true
	}
	if hex, ok := strings.CutPrefix(strings.ToLower(l), "0x"); ok {
		return strings.Trim(hex, "0123456789abcdef") == ""
	}
	return false
}

// Show quotes a text from outside for a one-line message: printable ASCII
// as it is, anything else escaped, at most 128 bytes.
func Show(s string) string {
	if len(s) > 128 {
		s = s[:128] + "…"
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > 0x7e || s[i] == '"' || s[i] == '\\' {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}

// ParseAll parses every entry and returns them in order; the error joins
// the problem of every bad entry.
func ParseAll(entries []string) ([]Host, error) {
	hosts := make([]Host, 0, len(entries))
	var errs []error
	for _, e := range entries {
		h, err := Parse(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		hosts = append(hosts, h)
	}
	return hosts, errors.Join(errs...)
}
