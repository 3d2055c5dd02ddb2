package serving

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
)

// listenUnix listens on a Unix socket at path, mode 0600, so that only this
// user can connect (connecting needs write permission on the socket). The
// socket is created in a private directory beside path and renamed into
// place, so it is never reachable with a wider mode. An existing socket at
// path is replaced when no server answers on it (a stale one); anything
// else there is refused: a file that is not a socket is never removed.
// remove deletes the socket, if path still names it.
func listenUnix(path string) (ln net.Listener, remove func(), err error) {
	if err := freeSocketPath(path); err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), ".toolgen-sock-")
	if err != nil {
		return nil, nil, fmt.Errorf("unix:%s: %w", path, err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	l, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, nil, fmt.Errorf("unix:%s: %w", path, err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	st, err := placeSocket(tmp, path)
	if err != nil {
		l.Close()
		return nil, nil, fmt.Errorf("unix:%s: %w", path, err)
	}
	return l, func() {
		if now, err := os.Lstat(path); err == nil && os.SameFile(now, st) {
			os.Remove(path)
		}
	}, nil
}

// placeSocket makes the socket tmp mode 0600 and renames it to path,
// returning what path then names.
func placeSocket(tmp, path string) (fs.FileInfo, error) {
	if err := os.Chmod(tmp, 0o600); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	return os.Lstat(path)
}

// freeSocketPath makes sure path can take a new socket: nothing is there,
// or a socket no server answers on (removed).
func freeSocketPath(path string) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("unix:%s: %w", path, err)
	case st.Mode().Type() != fs.ModeSocket:
		return fmt.Errorf("unix:%s: %s exists and is not a socket (%s); only a stale socket is replaced: give another path", path, path, st.Mode().Type())
	}
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return fmt.Errorf("unix:%s: a server already listens on this socket", path)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("unix:%s: removing the stale socket: %w", path, err)
	}
	return nil
}
