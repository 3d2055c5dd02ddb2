package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// unixPrefix starts an --http address that is a Unix socket path.
const unixPrefix = "unix:"

// socketPath returns the path of an --http unix:PATH address.
func socketPath(addr string) (string, bool) {
	p, ok := strings.CutPrefix(addr, unixPrefix)
	return p, ok
}

// listenUnix listens on a Unix socket at path, mode 0600, so that only this
// user can connect (connecting needs write permission on the socket). The
// socket is created in a private directory beside path and renamed into
// place, so it is never reachable with a wider mode. An existing socket at
// path is replaced when no server answers on it (a stale one); anything
// else there is refused: serve never removes a file that is not a socket.
// remove deletes the socket, if path still names it.
func listenUnix(path string) (ln net.Listener, remove func(), err error) {
	if err := freeSocketPath(path); err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), ".toolgen-sock-")
	if err != nil {
		return nil, nil, fmt.Errorf("--http unix:%s: %w", path, err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	l, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, nil, fmt.Errorf("--http unix:%s: %w", path, err)
	}
	ul := l.(*net.UnixListener)
	ul.SetUnlinkOnClose(false)
	if err := os.Chmod(tmp, 0o600); err != nil {
		l.Close()
		return nil, nil, fmt.Errorf("--http unix:%s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		l.Close()
		return nil, nil, fmt.Errorf("--http unix:%s: %w", path, err)
	}
	st, err := os.Lstat(path)
	if err != nil {
		l.Close()
		return nil, nil, fmt.Errorf("--http unix:%s: %w", path, err)
	}
	return l, func() {
		if now, err := os.Lstat(path); err == nil && os.SameFile(now, st) {
			os.Remove(path)
		}
	}, nil
}

// freeSocketPath makes sure path can take a new socket: nothing is there,
// or a socket no server answers on (removed).
func freeSocketPath(path string) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--http unix:%s: %w", path, err)
	case st.Mode().Type() != fs.ModeSocket:
		return fmt.Errorf("--http unix:%s: %s exists and is not a socket (%s); serve replaces only a stale socket: give another path", path, path, st.Mode().Type())
	}
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return fmt.Errorf("--http unix:%s: a server already listens on this socket", path)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("--http unix:%s: removing the stale socket: %w", path, err)
	}
	return nil
}

// generatedToken makes a bearer token for a TCP server given none, and
// writes it, mode 0600, to a file of its own in the user's runtime
// directory (tokenDir), as Jupyter does: the user's clients read it there,
// other local accounts cannot. remove deletes the file.
func generatedToken() (token, path string, remove func(), err error) {
	dir, err := tokenDir()
	if err != nil {
		return "", "", nil, err
	}
	token = rand.Text() + rand.Text() // 52 base32 characters, 260 bits
	path = filepath.Join(dir, "serve-"+strconv.Itoa(os.Getpid())+".token")
	os.Remove(path) // a file of an earlier process with this pid
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return "", "", nil, fmt.Errorf("writing the generated token: %w", err)
	}
	_, err = f.WriteString(token + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", "", nil, fmt.Errorf("writing the generated token: %w", err)
	}
	return token, path, func() { os.Remove(path) }, nil
}

// tokenDir returns the directory of generated tokens: toolgen/ in
// $XDG_RUNTIME_DIR, else in os.UserConfigDir(), else toolgen-UID in
// os.TempDir(). It is created mode 0700; an existing one must be a
// directory (not a symbolic link) of this user that no one else can enter.
func tokenDir() (string, error) {
	var dir string
	switch rt, cfg := os.Getenv("XDG_RUNTIME_DIR"), userConfigDir(); {
	case rt != "" && filepath.IsAbs(rt):
		dir = filepath.Join(rt, "toolgen")
	case cfg != "":
		dir = filepath.Join(cfg, "toolgen")
	default:
		dir = filepath.Join(os.TempDir(), "toolgen-"+strconv.Itoa(os.Getuid()))
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", fmt.Errorf("the token directory: %w", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("the token directory: %w", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("the token directory: %w", err)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return "", fmt.Errorf("the token directory %s is not a directory (%s)", dir, st.Mode().Type())
	case !ok || int(sys.Uid) != os.Getuid():
		return "", fmt.Errorf("the token directory %s belongs to another user", dir)
	case st.Mode().Perm()&0o077 != 0:
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", fmt.Errorf("the token directory %s is open to other users (mode %04o): %w", dir, st.Mode().Perm(), err)
		}
	}
	return dir, nil
}

// userConfigDir is os.UserConfigDir, or "" when it has none.
func userConfigDir() string {
	d, err := os.UserConfigDir()
	if err != nil || !filepath.IsAbs(d) {
		return ""
	}
	return d
}
