package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeHTTPAccess: no token-less TCP by default (issue 22 item 2). On a
// shared host every local account can reach 127.0.0.1: serve --http on TCP
// without a token now generates one, in a 0600 file of the user's runtime
// directory whose path it prints; token-less local serving is a Unix
// socket of mode 0600, or the plainly named --no-token.
func TestServeHTTPAccess(t *testing.T) {
	bin, err := exec.LookPath("toolgen")
	if err != nil {
		bin = builtToolgen(t)
	}
	t.Run("generated-token", func(t *testing.T) {
		rt := filepath.Join(t.TempDir(), "run")
		require.NoError(t, os.Mkdir(rt, 0o700))
		s := startHTTP(t, bin, []string{"TOOLGEN_TOKEN=", "XDG_RUNTIME_DIR=" + rt}, "--workspace", t.TempDir())
		path := tokenPathFrom(t, s)
		assert.Equal(t, filepath.Join(rt, "toolgen"), filepath.Dir(path))
		assertMode(t, path, 0o600)
		assertMode(t, filepath.Dir(path), 0o700|fs.ModeDir)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		token := strings.TrimSpace(string(data))
		assert.GreaterOrEqual(t, len(token), 32)
		assert.NotContains(t, s.stderr.String(), token, "the token itself is not logged")

		code, _ := rawPost(t, s.endpoint, nil)
		assert.Equal(t, http.StatusUnauthorized, code, "another local account, without the token")
		code, body := rawPost(t, s.endpoint, map[string]string{"Authorization": "Bearer " + token})
		assert.Equal(t, http.StatusOK, code, body)

		assert.Equal(t, 0, s.exit(t, syscall.SIGTERM, 15*time.Second))
		assert.NoFileExists(t, path, "the token file is removed at exit")
	})
	t.Run("generated-token-config-dir", func(t *testing.T) {
		home := t.TempDir()
		s := startHTTP(t, bin, []string{"TOOLGEN_TOKEN=", "XDG_RUNTIME_DIR=", "XDG_CONFIG_HOME=", "HOME=" + home}, "--workspace", t.TempDir())
		path := tokenPathFrom(t, s)
		assert.Equal(t, filepath.Join(home, ".config", "toolgen"), filepath.Dir(path))
		assertMode(t, path, 0o600)
		code, _ := rawPost(t, s.endpoint, nil)
		assert.Equal(t, http.StatusUnauthorized, code)
	})
	t.Run("no-token", func(t *testing.T) {
		s := startHTTP(t, bin, []string{"TOOLGEN_TOKEN="}, "--no-token", "--workspace", t.TempDir())
		assert.Contains(t, s.stderr.String(), "every local account can call")
		code, body := rawPost(t, s.endpoint, nil)
		assert.Equal(t, http.StatusOK, code, body)
	})
	t.Run("unix-socket", func(t *testing.T) {
		dir := t.TempDir()
		sock := filepath.Join(dir, "mcp.sock")
		s := startServeHTTP(t, bin, []string{"TOOLGEN_TOKEN="}, "--http", "unix:"+sock, "--workspace", t.TempDir())
		assert.Equal(t, "unix:"+sock, s.endpoint)
		assertMode(t, sock, 0o600|fs.ModeSocket)
		code, body := unixPost(t, sock)
		assert.Equal(t, http.StatusOK, code, body)
		assert.Contains(t, body, `"serverInfo"`)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Len(t, entries, 1, "no temporary directory left beside the socket")

		// A second server on the same, live socket is refused.
		out, err := exec.Command(bin, "serve", "--http", "unix:"+sock, "--workspace", t.TempDir()).CombinedOutput()
		assert.Equal(t, 1, exitCode(err), "%s", out)
		assert.Contains(t, string(out), "a server already listens on this socket")

		assert.Equal(t, 0, s.exit(t, syscall.SIGTERM, 15*time.Second))
		assert.NoFileExists(t, sock, "the socket is removed at exit")
	})
	t.Run("unix-stale-socket", func(t *testing.T) {
		sock := filepath.Join(t.TempDir(), "mcp.sock")
		l, err := net.Listen("unix", sock)
		require.NoError(t, err)
		l.(*net.UnixListener).SetUnlinkOnClose(false)
		l.Close() // a socket left by a server that died
		s := startServeHTTP(t, bin, nil, "--http", "unix:"+sock, "--workspace", t.TempDir())
		code, body := unixPost(t, sock)
		assert.Equal(t, http.StatusOK, code, body)
		assertMode(t, sock, 0o600|fs.ModeSocket)
		s.exit(t, syscall.SIGTERM, 15*time.Second)
	})
	t.Run("unix-not-a-socket", func(t *testing.T) {
		dir := t.TempDir()
		for name, make := range map[string]func(string) error{
			"file":    func(p string) error { return os.WriteFile(p, []byte("keep me\n"), 0o644) },
			"dir":     func(p string) error { return os.Mkdir(p, 0o755) },
			"symlink": func(p string) error { return os.Symlink(filepath.Join(dir, "elsewhere"), p) },
		} {
			p := filepath.Join(dir, name)
			require.NoError(t, make(p))
			out, err := exec.Command(bin, "serve", "--http", "unix:"+p, "--workspace", t.TempDir()).CombinedOutput()
			assert.Equal(t, 1, exitCode(err), "%s: %s", name, out)
			assert.Contains(t, string(out), "exists and is not a socket", name)
			_, err = os.Lstat(p)
			assert.NoError(t, err, "%s is left alone", name)
		}
		data, err := os.ReadFile(filepath.Join(dir, "file"))
		require.NoError(t, err)
		assert.Equal(t, "keep me\n", string(data))
	})
}

var tokenPathLine = regexp.MustCompile(`generated a bearer token, in (\S+) \(mode 0600`)

// tokenPathFrom returns the token file path the server printed.
func tokenPathFrom(t *testing.T, s *httpServer) string {
	t.Helper()
	m := tokenPathLine.FindStringSubmatch(s.stderr.String())
	require.NotNil(t, m, "no token path on stderr:\n%s", s.stderr)
	return m[1]
}

func assertMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Lstat(path)
	require.NoError(t, err)
	assert.Equal(t, want, st.Mode(), "mode of %s", path)
}

// exitCode is the exit code of a command that ended with err.
func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}

// unixPost posts an initialize request over the Unix socket sock.
func unixPost(t *testing.T, sock string) (int, string) {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}, Timeout: 20 * time.Second}
	req, err := http.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestServeHTTPClientGone: through the real binary, a client that cuts its
// request mid-call (curl -m) takes the call with it: the command's process
// group is killed and the only --max-calls slot is free for the next call.
func TestServeHTTPClientGone(t *testing.T) {
	bin, err := exec.LookPath("toolgen")
	if err != nil {
		bin = builtToolgen(t)
	}
	ws, tools := e2eDirs(t)
	s := startHTTP(t, bin, []string{"TOOLGEN_TOKEN="}, "--no-token", "--stateless", "--max-calls", "1",
		"--tools", tools, "--workspace", ws)
	secs := fmt.Sprint(uniqueSecs())
	ctx, cut := context.WithCancel(context.Background())
	defer cut()
	errc := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoint, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nap","arguments":{"secs":`+secs+`}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		errc <- err
	}()
	pid := findProcess(t, "sleep", secs)
	cut()
	require.Error(t, <-errc)
	assert.True(t, eventually(10*time.Second, func() bool { return !groupAlive(pid) }),
		"the command (process group %d) outlived its client", pid)

	req, err := http.NewRequest(http.MethodPost, s.endpoint, strings.NewReader(
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nap","arguments":{"secs":0}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	require.NoError(t, err, "the slot is still held")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), `exit: 0`)
}
