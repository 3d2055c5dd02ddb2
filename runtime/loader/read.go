package loader

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// MaxFileSize is the default size limit of one descriptor file: 1 MiB. A
// descriptor is a few hundred bytes; a file near this size is not one.
const MaxFileSize = 1 << 20

// errGone means the file no longer exists: it was removed or renamed away.
var errGone = errors.New("loader: file is gone")

// readFile reads dir/name under the loader's rules and returns its contents
// or a 613 naming the file (errGone when it does not exist):
//
//   - a symlink is followed only when its target lies inside the directory
//     (real is the directory with its own symlinks resolved);
//   - only a regular file is opened, so a FIFO or device never blocks or
//     streams into the loader;
//   - a file larger than max is refused from its size, without reading it,
//     and the read itself stops after max+1 bytes, so a file that grows
//     after the check is refused too;
//   - the file opened must be the file checked (os.SameFile), so swapping
//     it for a symlink in between is caught;
//   - when trusted is set, the file must be owned by the running user and
//     not writable by group or others (trust.go).
func readFile(real, dir, name string, max int64, trusted bool) ([]byte, error) {
	file := filepath.Join(dir, name)
	path := filepath.Join(real, name)
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errGone
	}
	if err != nil {
		return nil, fileErr(file, "cannot be read: %v", unwrapPath(err))
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		if path, info, err = followLink(real, file, path); err != nil {
			return nil, err
		}
	}
	if !info.Mode().IsRegular() {
		return nil, fileErr(file, "is not a regular file (%s); a descriptor is a plain JSON file", info.Mode().Type())
	}
	if info.Size() > max {
		return nil, tooLarge(file, info.Size(), max)
	}
	beforeOpen(path)
	// O_NONBLOCK: a FIFO swapped in since the check opens at once (and then
	// fails the SameFile check) instead of blocking until a writer comes;
	// on a regular file it changes nothing.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errGone
	}
	if err != nil {
		return nil, fileErr(file, "cannot be read: %v", unwrapPath(err))
	}
	defer f.Close()
	// The same file, and still a regular one: a FIFO made in its place may
	// get the freed inode number.
	if opened, err := f.Stat(); err != nil || !os.SameFile(info, opened) || !opened.Mode().IsRegular() {
		return nil, fileErr(file, "changed while it was being read; it is read again on its next change")
	}
	if trusted {
		if err := checkFileTrust(file, info); err != nil {
			return nil, err
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fileErr(file, "cannot be read: %v", unwrapPath(err))
	}
	if int64(len(data)) > max {
		return nil, tooLarge(file, int64(len(data)), max)
	}
	return data, nil
}

// beforeOpen runs between readFile's check of a file and its open: a test
// swaps the file there.
var beforeOpen = func(path string) {}

// followLink resolves the symlink at path and refuses a target outside real.
func followLink(real, file, path string) (string, fs.FileInfo, error) {
	target, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, fileErr(file, "is a symlink to a file that does not exist")
	}
	if err != nil {
		return "", nil, fileErr(file, "is a symlink that cannot be resolved: %v", unwrapPath(err))
	}
	rel, err := filepath.Rel(real, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", nil, fileErr(file, "is a symlink to %s, outside %s; a symlinked descriptor must stay inside the directory", target, real)
	}
	info, err := os.Stat(target)
	if err != nil {
		return "", nil, fileErr(file, "is a symlink that cannot be resolved: %v", unwrapPath(err))
	}
	return target, info, nil
}

func tooLarge(file string, size, max int64) error {
	return fileErr(file, "is %d bytes, larger than the limit of %d bytes (%s); a descriptor is a small JSON file", size, max, human(max))
}

func human(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// fileErr is a 613 about the file as a whole (no position).
func fileErr(file, format string, args ...any) error {
	e := tool.SpecErrorf("", "file "+format, args...)
	e.File = file
	return e
}

// unwrapPath drops the operation and path of a *fs.PathError: the message
// already names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
