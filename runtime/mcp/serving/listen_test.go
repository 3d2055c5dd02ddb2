//go:build linux

package serving

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testToken = "serving-test-token-0123456789"

// TestListenRefusesUnauthenticatedPublic: an address that is not loopback
// is never served without a token, whatever the config says; loopback ones
// are, with a generated token.
func TestListenRefusesUnauthenticatedPublic(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	refused := []string{
		"0.0.0.0:0", "[::]:0", ":0", // every interface
		"192.0.2.1:0", "10.0.0.1:0", // an interface of this host, maybe
		"example.com:0", "localhost.example.com:0", "127.0.0.1.nip.io:0",
		"localhost.:0",   // a name, resolved by DNS on some systems
		"0x7f.0.0.1:0",   // not an IP address to Go; a resolver may read it
		"[fe80::1%lo]:0", // link-local, reachable from the link
	}
	for _, addr := range refused {
		for _, optOut := range []bool{false, true} {
			l, err := Listen(Config{Addr: addr, AllowUnauthenticated: optOut})
			if l != nil {
				l.Close()
			}
			assert.ErrorIs(t, err, ErrNeedsToken, "%s (AllowUnauthenticated %v)", addr, optOut)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0", "localhost:0", "127.0.0.2:0"} {
		l, err := Listen(Config{Addr: addr})
		if errors.Is(err, ErrNeedsToken) || err != nil && strings.Contains(err.Error(), "token") {
			t.Errorf("%s: %v", addr, err)
			continue
		}
		if err != nil { // no such address on this machine (no IPv6)
			continue
		}
		assert.NotEmpty(t, l.TokenFile, addr)
		l.Close()
	}
}

// TestListenRefusesBadConfigs: malformed addresses, short tokens and a
// token beside the opt-out.
func TestListenRefusesBadConfigs(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Addr: "nonsense"}, "want host:port"},
		{Config{Addr: "unix:"}, "want unix:PATH"},
		{Config{Addr: "127.0.0.1:0", Token: "short"}, "at least 16"},
		{Config{Addr: "0.0.0.0:0", Token: "0123456789abcde"}, "at least 16"},
		{Config{Addr: "127.0.0.1:0", Token: testToken, AllowUnauthenticated: true}, "choose one"},
	} {
		l, err := Listen(c.cfg)
		if l != nil {
			l.Close()
		}
		if assert.Error(t, err, "%+v", c.cfg) {
			assert.Contains(t, err.Error(), c.want)
		}
	}
}

// TestGeneratedToken: a loopback TCP address without a token gets one, in a
// 0600 file of a 0700 directory in $XDG_RUNTIME_DIR; requests need it; the
// file goes with Close.
func TestGeneratedToken(t *testing.T) {
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	l, err := Listen(Config{Addr: "127.0.0.1:0"})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(rt, "toolgen"), filepath.Dir(l.TokenFile))
	st, err := os.Stat(l.TokenFile)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "token file mode")
	dir, err := os.Stat(filepath.Dir(l.TokenFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), dir.Mode().Perm(), "token directory mode")
	data, err := os.ReadFile(l.TokenFile)
	require.NoError(t, err)
	token := strings.TrimSpace(string(data))
	assert.GreaterOrEqual(t, len(token), 32)
	assert.Equal(t, token, l.token)
	assert.Contains(t, l.Auth, "bearer token required")

	srv := echoServer(t)
	stop := serveInBackground(t, l, srv)
	assert.Equal(t, http.StatusUnauthorized, initialize(t, l.Endpoint, ""), "no token")
	assert.Equal(t, http.StatusUnauthorized, initialize(t, l.Endpoint, "wrong-token-0123456789abcdef"), "a wrong token")
	assert.Equal(t, http.StatusOK, initialize(t, l.Endpoint, token), "the generated token")
	stop()
	assert.NoFileExists(t, l.TokenFile, "removed when the server stops")
}

// TestTokenDirAttacks: a token directory planted by someone else (a symlink,
// a file) is refused; one open to others is closed first.
func TestTokenDirAttacks(t *testing.T) {
	t.Run("symlink", func(t *testing.T) {
		rt, elsewhere := t.TempDir(), t.TempDir()
		t.Setenv("XDG_RUNTIME_DIR", rt)
		require.NoError(t, os.Symlink(elsewhere, filepath.Join(rt, "toolgen")))
		_, err := Listen(Config{Addr: "127.0.0.1:0"})
		require.ErrorIs(t, err, ErrGeneratedToken)
		assert.Contains(t, err.Error(), "not a directory")
		entries, _ := os.ReadDir(elsewhere)
		assert.Empty(t, entries, "nothing written through the link")
	})
	t.Run("file", func(t *testing.T) {
		rt := t.TempDir()
		t.Setenv("XDG_RUNTIME_DIR", rt)
		require.NoError(t, os.WriteFile(filepath.Join(rt, "toolgen"), []byte("x"), 0o600))
		_, err := Listen(Config{Addr: "127.0.0.1:0"})
		require.ErrorIs(t, err, ErrGeneratedToken)
	})
	t.Run("open-directory", func(t *testing.T) {
		rt := t.TempDir()
		t.Setenv("XDG_RUNTIME_DIR", rt)
		dir := filepath.Join(rt, "toolgen")
		require.NoError(t, os.Mkdir(dir, 0o777))
		require.NoError(t, os.Chmod(dir, 0o777))
		l, err := Listen(Config{Addr: "127.0.0.1:0"})
		require.NoError(t, err)
		defer l.Close()
		st, err := os.Stat(dir)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	})
}

// TestOptOutIsNamed: only AllowUnauthenticated serves loopback TCP without
// a token; the handler then lets a request in without one.
func TestOptOutIsNamed(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	l, err := Listen(Config{Addr: "127.0.0.1:0", AllowUnauthenticated: true})
	require.NoError(t, err)
	assert.Empty(t, l.TokenFile)
	assert.Contains(t, l.Auth, "no token")
	stop := serveInBackground(t, l, echoServer(t))
	defer stop()
	assert.Equal(t, http.StatusOK, initialize(t, l.Endpoint, ""))
}

// TestUnixSocket: the socket is mode 0600 from the start, no temporary
// directory is left beside it, a live socket is not taken over, a stale one
// is replaced, and a file that is not a socket is never removed.
func TestUnixSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.sock")
	l, err := Listen(Config{Addr: "unix:" + sock})
	require.NoError(t, err)
	assert.Equal(t, "unix:"+sock, l.Endpoint)
	st, err := os.Lstat(sock)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSocket, st.Mode().Type())
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "socket mode")
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary directory left beside the socket")

	_, err = Listen(Config{Addr: "unix:" + sock})
	require.Error(t, err, "a live socket is not taken over")
	assert.Contains(t, err.Error(), "a server already listens")

	stop := serveInBackground(t, l, echoServer(t))
	code := unixInitialize(t, sock)
	assert.Equal(t, http.StatusOK, code, "the socket's user connects without a token")
	stop()
	assert.NoFileExists(t, sock, "removed when the server stops")

	// A stale socket (its server died) is replaced.
	ln, err := net.Listen("unix", sock)
	require.NoError(t, err)
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	l, err = Listen(Config{Addr: "unix:" + sock})
	require.NoError(t, err, "a stale socket is replaced")
	l.Close()
	assert.NoFileExists(t, sock)
}

// TestUnixSocketNeverRemovesOtherFiles: whatever else is at PATH stays.
func TestUnixSocketNeverRemovesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	require.NoError(t, os.WriteFile(target, []byte("keep me"), 0o600))
	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.Listen("unix", stale)
	require.NoError(t, err)
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	for name, plant := range map[string]func(path string) error{
		"file":              func(p string) error { return os.WriteFile(p, []byte("data"), 0o600) },
		"directory":         func(p string) error { return os.Mkdir(p, 0o700) },
		"symlink-to-file":   func(p string) error { return os.Symlink(target, p) },
		"symlink-to-socket": func(p string) error { return os.Symlink(stale, p) },
		"dangling-symlink":  func(p string) error { return os.Symlink(filepath.Join(dir, "none"), p) },
		"fifo":              func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		path := filepath.Join(dir, name)
		require.NoError(t, plant(path), name)
		before, err := os.Lstat(path)
		require.NoError(t, err)
		l, err := Listen(Config{Addr: "unix:" + path})
		if l != nil {
			l.Close()
		}
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), "is not a socket", name)
		}
		after, err := os.Lstat(path)
		if assert.NoError(t, err, "%s removed", name) {
			assert.True(t, os.SameFile(before, after), "%s replaced", name)
		}
	}
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "keep me", string(data))
	_, err = os.Lstat(stale)
	assert.NoError(t, err, "the socket behind a symlink stays")
}

// initialize posts an MCP initialize to endpoint with token (none when "")
// and returns the status.
func initialize(t *testing.T, endpoint, token string) int {
	t.Helper()
	return doInitialize(t, http.DefaultClient, endpoint, token)
}

// unixInitialize posts an MCP initialize over the Unix socket at path.
func unixInitialize(t *testing.T, path string) int {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", path)
	}}}
	return doInitialize(t, hc, "http://socket/mcp", "")
}

func doInitialize(t *testing.T, hc *http.Client, endpoint, token string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
