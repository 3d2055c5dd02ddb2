package kernel

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// privateHome returns the children's HOME: one directory per user, reused
// by every kernel and process of that user, that must be empty, a real
// directory (not a symlink), owned by this user and not writable by anyone
// else; it is created with mode 0500 when missing. When the shared one
// fails those checks (someone planted a file in it, say), this process makes
// a fresh one of its own with os.MkdirTemp and uses that instead.
// The answer is computed once per process.
var privateHome = sync.OnceValues(func() (string, error) {
	return privateDir("toolgen-home-", nil)
})

// privateDir returns the per-user directory os.TempDir()/prefix+euid
// holding exactly the empty files named by files (none for an empty
// directory), made read-only (directory 0500, files 0400) when missing.
// When the shared one is this user's but holds something else (a child run
// unconfined wrote there), it is emptied and refilled; when it is not this
// user's own (a symlink, another owner, writable by others), this process
// makes a fresh one of its own.
// A shared one keeps a long-running agent's many processes from leaving a
// directory each behind.
func privateDir(prefix string, files []string) (string, error) {
	shared := filepath.Join(os.TempDir(), prefix+strconv.Itoa(os.Geteuid()))
	if _, err := os.Lstat(shared); errors.Is(err, fs.ErrNotExist) {
		if tmp, err := fillDir(prefix, files); err == nil {
			if os.Rename(tmp, shared) != nil { // another process won the race
				_ = os.Chmod(tmp, 0o700)
				_ = os.RemoveAll(tmp)
			}
		}
	}
	err := checkDir(shared, files)
	if err != nil && checkOwned(shared, true) == nil {
		// Ours, but something was left in it (an unconfined child may write
		// there, and root ignores the mode): empty it and use it again.
		err = refill(shared, files)
	}
	if err == nil {
		return shared, nil
	}
	dir, merr := fillDir(prefix, files)
	if merr != nil {
		return "", fmt.Errorf("kernel: private directory: %w (and %s: %v)", merr, shared, err)
	}
	return dir, nil
}

// refill empties dir (a directory of this user's, not writable by others)
// and puts back the empty files, read-only.
func refill(dir string, files []string) error {
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil { // never follows a symlink
			return err
		}
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o400); err != nil {
			return err
		}
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		return err
	}
	return checkDir(dir, files)
}

// fillDir makes a fresh directory holding the empty files, read-only.
func fillDir(prefix string, files []string) (string, error) {
	dir, err := os.MkdirTemp("", prefix+"*")
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o400); err != nil {
			_ = os.RemoveAll(dir)
			return "", err
		}
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// checkDir says why dir is not a private directory holding exactly the
// empty files, nil if it is.
func checkDir(dir string, files []string) error {
	if err := checkOwned(dir, true); err != nil {
		return err
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return err
	}
	if len(names) != len(files) {
		return fmt.Errorf("holds %d entries, want %d", len(names), len(files))
	}
	for _, name := range files {
		if err := checkOwned(filepath.Join(dir, name), false); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// checkOwned says why path is not a directory (dir) or an empty regular
// file, owned by this user and writable by nobody else; nil if it is.
func checkOwned(path string, dir bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	uid, ok := ownerOf(fi)
	switch {
	case dir && !fi.IsDir():
		return errors.New("not a directory")
	case !dir && (!fi.Mode().IsRegular() || fi.Size() != 0):
		return errors.New("not an empty regular file")
	case !ok || uid != os.Geteuid():
		return errors.New("not owned by this user")
	case fi.Mode().Perm()&0o022 != 0:
		return errors.New("writable by others")
	}
	return nil
}
