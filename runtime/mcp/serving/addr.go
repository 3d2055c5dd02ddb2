package serving

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// UnixPrefix starts an address that is a Unix socket path: "unix:PATH".
const UnixPrefix = "unix:"

// ErrNeedsToken is the error (wrapped) of CheckAddr for a non-loopback TCP
// address without a token.
var ErrNeedsToken = errors.New("without a token the server listens on a loopback address only (127.0.0.1:PORT, [::1]:PORT, localhost:PORT)")

// SocketPath returns the PATH of a "unix:PATH" address, and whether addr is
// one.
func SocketPath(addr string) (string, bool) {
	return strings.CutPrefix(addr, UnixPrefix)
}

// CheckAddr reports an address Listen would refuse: one that is neither
// host:port nor unix:PATH, and a TCP address that is not loopback when
// haveToken is false (ErrNeedsToken). The error does not name addr; the
// caller says where it came from.
func CheckAddr(addr string, haveToken bool) error {
	if path, ok := SocketPath(addr); ok {
		if path == "" {
			return errors.New("want unix:PATH, such as unix:/run/user/1000/toolgen.sock")
		}
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want host:port, such as 127.0.0.1:8080 (%v)", err)
	}
	if haveToken || IsLoopbackHost(host) {
		return nil
	}
	return ErrNeedsToken
}

// IsLoopbackHost reports whether host (of a host:port) names this machine
// only: "localhost" or a loopback IP address. Any other name may resolve
// elsewhere, and is not loopback.
func IsLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
