package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nanogpt/toolgen/internal/regular"
	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/mcp/serving"
)

// checkHTTP reads the bearer token of --http into sf.token and reports a
// usage error in the HTTP flags: a bad token, a token beside --no-token, an
// address serving.Listen would refuse. Without --http it does nothing.
func (sf *serveFlags) checkHTTP(env *cmdEnv, f *toolFlags) error {
	if sf.httpAddr == "" {
		return nil
	}
	token, err := readToken(sf.tokenFile)
	if err != nil {
		return err
	}
	warnTokenFile(env, sf.tokenFile, f.workspace)
	if sf.noToken && token != "" {
		return fmt.Errorf("--no-token, but a token is given (--token-file or $%s): choose one", tokenEnv)
	}
	if err := serving.CheckAddr(sf.httpAddr, token != ""); errors.Is(err, serving.ErrNeedsToken) {
		return fmt.Errorf("--http %s: %v; give --token-file FILE or set %s to serve other hosts", sf.httpAddr, err, tokenEnv)
	} else if err != nil {
		return fmt.Errorf("--http %s: %v", sf.httpAddr, err)
	}
	if f.watch && sf.stateless {
		fmt.Fprintf(env.stderr, "toolgen serve: --stateless: clients are not told when tools change (no server-to-client stream); they see the new set on their next tools/list\n")
	}
	sf.token = token
	return nil
}

// readToken returns the bearer token from file, or from $TOOLGEN_TOKEN when
// file is "", or "" when neither gives one.
func readToken(file string) (string, error) {
	if file == "" {
		token := strings.TrimSpace(os.Getenv(tokenEnv))
		// Commands never see the server's environment (the kernel builds
		// theirs), but nothing else in this process needs it either.
		os.Unsetenv(tokenEnv)
		if token != "" && len(token) < serving.MinTokenLen {
			return "", fmt.Errorf("%s: the token is %d characters; use at least %d (e.g. openssl rand -hex 32)", tokenEnv, len(token), serving.MinTokenLen)
		}
		return token, nil
	}
	data, err := readSmall(file, maxTokenFile)
	if err != nil {
		return "", fmt.Errorf("--token-file: %v", err)
	}
	token := strings.TrimSpace(string(data))
	switch {
	case token == "":
		return "", fmt.Errorf("--token-file %s is empty", file)
	case strings.ContainsAny(token, " \t\r\n"):
		return "", fmt.Errorf("--token-file %s: the token must be one line without spaces", file)
	case len(token) < serving.MinTokenLen:
		return "", fmt.Errorf("--token-file %s: the token is %d characters; use at least %d (e.g. openssl rand -hex 32)", file, len(token), serving.MinTokenLen)
	}
	return token, nil
}

// maxTokenFile bounds what is read of a --token-file.
const maxTokenFile = 4 << 10

// readSmall reads a regular file of at most max bytes: a FIFO, a device
// (a symlink to /dev/zero) or a larger file is an error, found without
// blocking or reading on.
func readSmall(file string, max int64) ([]byte, error) {
	data, info, err := regular.Read(file, max)
	switch {
	case errors.Is(err, regular.ErrNotRegular):
		return nil, fmt.Errorf("%s is not a regular file (%s)", file, info.Mode().Type())
	case errors.Is(err, regular.ErrTooLarge):
		return nil, fmt.Errorf("%s is larger than %d bytes; a token file holds one line", file, max)
	}
	return data, err
}

// warnTokenFile warns on stderr about a --token-file that others can
// read: one readable by other users (its mode), or one inside the workspace,
// where every tool can read it and print it to the model. It is a warning,
// as serve's for an audit log in the workspace: the token still works.
func warnTokenFile(env *cmdEnv, file, workspace string) {
	if file == "" {
		return
	}
	if st, err := os.Stat(file); err == nil && st.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(env.stderr, "toolgen serve: warning: --token-file %s is readable by other users (mode %04o); chmod 600 %s\n",
			file, st.Mode().Perm(), file)
	}
	if within.Resolved(workspace, file) {
		fmt.Fprintf(env.stderr, "toolgen serve: warning: --token-file %s is inside the workspace, where the tools can read it "+
			"and show it to the model; keep it outside (e.g. ~/.config/toolgen/token)\n", file)
	}
}

// serveHTTP serves srv at /mcp with serving's defaults until ctx ends
// (SIGTERM), then shuts down gracefully: no new calls, running calls get
// --shutdown-timeout, then are killed; sessions and connections are closed.
func serveHTTP(ctx context.Context, env *cmdEnv, srv *mcp.Server, sf serveFlags) int {
	logf := func(format string, args ...any) { fmt.Fprintf(env.stderr, "toolgen serve: "+format+"\n", args...) }
	shutdown := sf.shutdownTimeout
	if shutdown <= 0 {
		shutdown = -1 // serving: killed at once
	}
	l, err := serving.Listen(serving.Config{Addr: sf.httpAddr, Token: sf.token, AllowUnauthenticated: sf.noToken,
		HTTP: mcp.HTTPOptions{Stateless: sf.stateless, MaxSessions: sf.maxSessions, SessionTimeout: sf.sessionTimeout,
			AllowedOrigins: splitList(sf.allowOrigins)},
		ShutdownTimeout: shutdown, Logf: logf})
	if err != nil {
		if _, ok := serving.SocketPath(sf.httpAddr); ok {
			err = fmt.Errorf("--http %v", err)
		} else if errors.Is(err, serving.ErrGeneratedToken) {
			err = fmt.Errorf("%v; give --token-file FILE, or --no-token to serve without one", err)
		}
		logf("%v", err)
		return exitFailure
	}
	auth, mode := l.Auth, "with sessions"
	if l.TokenFile != "" {
		logf("generated a bearer token, in %s (mode 0600, removed at exit); clients send Authorization: Bearer <the file's content>", l.TokenFile)
	}
	if sf.noToken {
		auth = "no token (--no-token): every local account can call"
	}
	if sf.stateless {
		mode = "stateless"
	}
	logf("listening on %s (%s; %s)", l.Endpoint, auth, mode)
	if err := l.Serve(ctx, srv); err != nil {
		logf("%v", err)
		return exitFailure
	}
	return exitOK
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
