package serving

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// generatedToken makes a bearer token for a TCP server given none, and
// writes it, mode 0600, to a file of its own in TokenDir, as Jupyter does:
// the user's clients read it there, other local accounts cannot. remove
// deletes the file.
func generatedToken() (token, path string, remove func(), err error) {
	dir, err := TokenDir()
	if err != nil {
		return "", "", nil, err
	}
	token = rand.Text() + rand.Text() // 52 base32 characters, 260 bits
	path = filepath.Join(dir, "serve-"+strconv.Itoa(os.Getpid())+".token")
	os.Remove(path) // a file of an earlier process with this pid
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|openNoFollow, 0o600)
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

// TokenDir returns the directory of generated tokens: toolgen/ in
// $XDG_RUNTIME_DIR, else in os.UserConfigDir(), else toolgen-UID in
// os.TempDir(). It is created mode 0700; an existing one must be a
// directory (not a symbolic link) of this user, and is made 0700 when
// others could enter it.
func TokenDir() (string, error) {
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
	switch {
	case !st.IsDir():
		return "", fmt.Errorf("the token directory %s is not a directory (%s)", dir, st.Mode().Type())
	case !ownedByMe(st): // owner_unix.go, owner_other.go
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
