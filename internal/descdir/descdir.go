// Package descdir reads a directory of descriptor files (*.tool.json) under
// one rule, for the generator (gen.ReadDir, behind toolgen generate and go
// generate) and the runtime loader (toolgen check, list, call, serve) alike.
// They used to read with two rules: gen followed any symlink and read hidden
// files, the loader did neither.
//
// A directory of a repository is hostile input. The rule:
//
//   - A descriptor file's name ends in the kind's extension, has something
//     before it, and does not start with '.' (editor lock, swap and backup
//     files are never read). Subdirectories are not read.
//   - A symlink is followed only when its target lies inside the directory
//     (both with their symlinks resolved); the open itself goes through an
//     os.Root, so a link swapped or a directory renamed between a look and
//     the open cannot lead out either.
//   - Only a regular file is read: the open does not block (a FIFO opens at
//     once and is refused) and the type is judged on the file opened, so a
//     device, a socket or a directory is refused too.
//   - A file larger than the limit is refused from its size, and the read
//     stops one byte past the limit, so a file that grows meanwhile is
//     refused as well.
//
// A refused file is a 613 naming it (FILE: error 613: file …); the caller
// decides whether the others still load (the loader) or nothing is
// generated (gen).
package descdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// MaxFileSize is the default size limit of one descriptor file: 1 MiB. A
// descriptor is a few hundred bytes; a file near this size is not one.
const MaxFileSize = 1 << 20

// ErrGone is Read's error for a file that does not exist: it was removed or
// renamed away since the directory was listed.
var ErrGone = errors.New("descdir: file is gone")

// Accepts reports whether name (a base name) is a descriptor file name of
// the kind whose extension is ext (such as ".tool.json").
func Accepts(name, ext string) bool {
	return strings.HasSuffix(name, ext) && len(name) > len(ext) && !strings.HasPrefix(name, ".")
}

// Dir is a descriptor directory opened for reading. It holds the directory
// open (an os.Root) until Close; open one per scan, so that a directory
// replaced in between is read anew. It is safe for concurrent use.
type Dir struct {
	name string // as the caller gave it, for messages
	real string // absolute, symlinks resolved
	root *os.Root
}

// Open opens the directory dir. Its errors are the os package's.
func Open(dir string) (*Dir, error) {
	real, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Dir{name: dir, real: real, root: root}, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// File returns the path that names file name in messages: the directory as
// the caller gave it, joined with name.
func (d *Dir) File(name string) string { return filepath.Join(d.name, name) }

// Names returns the descriptor file names of kind ext in the directory,
// sorted (see Accepts). A name's type is not looked at: Read judges it.
func (d *Dir) Names(ext string) ([]string, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	all, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range all {
		if Accepts(n, ext) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// Exists reports whether the directory holds an entry called name, of any
// type (a dangling symlink included).
func (d *Dir) Exists(name string) bool {
	_, err := d.root.Lstat(name)
	return !errors.Is(err, fs.ErrNotExist)
}

// Size returns the size of the regular file Read would open for name, and
// false when Read would refuse it or it cannot be looked at. It reads
// nothing and never blocks.
func (d *Dir) Size(name string) (int64, bool) {
	info, err := d.root.Stat(name)
	if err != nil || !info.Mode().IsRegular() {
		return 0, false
	}
	return info.Size(), true
}

// Read reads the descriptor file name under the package's rule and returns
// its contents and the FileInfo of the file opened. A refusal is a 613
// naming the file; a file that does not exist is ErrGone.
func (d *Dir) Read(name string, max int64) ([]byte, fs.FileInfo, error) {
	f, err := d.open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	file := d.File(name)
	info, err := f.Stat()
	if err != nil {
		return nil, nil, fileErr(file, "cannot be read: %v", unwrapPath(err))
	}
	if !info.Mode().IsRegular() {
		return nil, info, fileErr(file, "is not a regular file (%s); a descriptor is a plain JSON file", info.Mode().Type())
	}
	if info.Size() > max {
		return nil, info, tooLarge(file, info.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, info, fileErr(file, "cannot be read: %v", unwrapPath(err))
	}
	if int64(len(data)) > max {
		return nil, info, tooLarge(file, int64(len(data)), max)
	}
	return data, info, nil
}

// open opens name below the root without blocking. When the root refuses
// a symlink that does lead inside (an absolute one, or one that climbs out
// and back in), the target is opened by its place in the directory instead.
func (d *Dir) open(name string) (*os.File, error) {
	const flags = os.O_RDONLY | syscall.O_NONBLOCK
	f, err := d.root.OpenFile(name, flags, 0)
	if err == nil {
		return f, nil
	}
	file := d.File(name)
	info, lerr := d.root.Lstat(name)
	switch {
	case errors.Is(lerr, fs.ErrNotExist):
		return nil, ErrGone
	case lerr != nil:
		return nil, fileErr(file, "cannot be read: %v", unwrapPath(lerr))
	case info.Mode()&fs.ModeSymlink == 0:
		return nil, fileErr(file, "cannot be read: %v", unwrapPath(err))
	}
	target, eerr := filepath.EvalSymlinks(filepath.Join(d.real, name))
	switch {
	case errors.Is(eerr, fs.ErrNotExist):
		return nil, fileErr(file, "is a symlink to a file that does not exist")
	case eerr != nil:
		return nil, fileErr(file, "is a symlink that cannot be resolved: %v", unwrapPath(eerr))
	case !within.Clean(d.real, target):
		return nil, fileErr(file, "is a symlink to %s, outside %s; a symlinked descriptor must stay inside the directory", target, d.real)
	}
	rel, _ := filepath.Rel(d.real, target)
	if f, err = d.root.OpenFile(rel, flags, 0); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fileErr(file, "is a symlink to a file that does not exist")
		}
		return nil, fileErr(file, "cannot be read: %v", unwrapPath(err))
	}
	return f, nil
}

func tooLarge(file string, size, max int64) error {
	return fileErr(file, "is %d bytes, larger than the limit of %d bytes (%s); a descriptor is a small JSON file", size, max, Human(max))
}

// Human writes a size limit for messages: "1 MiB", "64 KiB", "512 B".
func Human(n int64) string {
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
