package kernel

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// privateHome returns the children's HOME: one directory per user, reused
// by every kernel and process of that user, that must be empty, a real
// directory (not a symlink), owned by this user and not writable by anyone
// else; it is created with mode 0500 when missing. When the shared one
// fails those checks (someone planted a file in it, say), this process makes
// a fresh one of its own with os.MkdirTemp and uses that instead.
// The answer is computed once per process.
var privateHome = sync.OnceValues(func() (string, error) {
	shared := filepath.Join(os.TempDir(), "toolgen-home-"+strconv.Itoa(os.Geteuid()))
	err := os.Mkdir(shared, 0o500)
	if err == nil || errors.Is(err, fs.ErrExist) {
		if err = checkHome(shared); err == nil {
			return shared, nil
		}
	}
	dir, merr := os.MkdirTemp("", "toolgen-home-*")
	if merr != nil {
		return "", fmt.Errorf("kernel: private HOME: %w (and %s: %v)", merr, shared, err)
	}
	if merr = os.Chmod(dir, 0o500); merr != nil {
		return "", fmt.Errorf("kernel: private HOME: %w", merr)
	}
	return dir, nil
})

// checkHome says why dir cannot serve as the children's HOME, nil if it can.
func checkHome(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return errors.New("not a directory")
	case !ok || int(st.Uid) != os.Geteuid():
		return errors.New("not owned by this user")
	case fi.Mode().Perm()&0o022 != 0:
		return errors.New("writable by others")
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); !errors.Is(err, io.EOF) {
		return errors.New("not empty")
	}
	return nil
}
