package serving

import (
	"errors"
	"net"
	"testing"
)

// FuzzCheckAddr: an address accepted without a token is a unix:PATH or a
// host:port whose host is "localhost" or a loopback IP address; a token
// never makes an address less acceptable; CheckAddr never panics.
func FuzzCheckAddr(f *testing.F) {
	for _, s := range []string{"127.0.0.1:0", "[::1]:8080", "localhost:1", "0.0.0.0:0", ":0", "[::]:0",
		"unix:/run/s.sock", "unix:", "nonsense", "localhost.:0", "0x7f.0.0.1:0", "[::ffff:127.0.0.1]:0",
		"127.0.0.1.nip.io:0", "[fe80::1%lo]:0", "[::1%lo]:0", "LOCALHOST:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		open, authed := CheckAddr(addr, false), CheckAddr(addr, true)
		if open == nil && authed != nil {
			t.Fatalf("%q: accepted without a token, refused with one: %v", addr, authed)
		}
		if authed == nil && open != nil && !errors.Is(open, ErrNeedsToken) {
			t.Fatalf("%q: refused without a token for another reason: %v", addr, open)
		}
		if open != nil {
			return
		}
		if _, ok := SocketPath(addr); ok {
			return
		}
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			t.Fatalf("%q accepted, but is not host:port: %v", addr, err)
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			t.Fatalf("%q accepted without a token, but %q is not loopback", addr, host)
		}
	})
}
