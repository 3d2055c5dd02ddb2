package loader

import (
	"github.com/nanogpt/toolgen/internal/descdir"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// MaxFileSize is the default size limit of one descriptor file: 1 MiB. A
// descriptor is a few hundred bytes; a file near this size is not one.
const MaxFileSize = descdir.MaxFileSize

// readFile reads the file name of d under the descriptor-directory rule
// that gen shares (package descdir: a symlink only to a file inside the
// directory, only a regular file, opened without blocking, at most max
// bytes) and returns its contents or a 613 naming the file
// (descdir.ErrGone when it does not exist). When trusted is set, the file
// opened must also be owned by root or the running user and not writable by
// group or others (trust.go), and so must every directory a symlink leads
// through below real, the directory with its symlinks resolved.
func readFile(d *descdir.Dir, real, name string, max int64, trusted bool) ([]byte, error) {
	data, info, err := d.Read(name, max)
	if err != nil {
		return nil, err
	}
	if trusted {
		if err := checkFileTrust(d.File(name), info); err != nil {
			return nil, err
		}
		if err := checkLinkTrust(real, name, d.File(name)); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// fileErr is a 613 about the file as a whole (no position).
func fileErr(file, format string, args ...any) error {
	e := tool.SpecErrorf("", "file "+format, args...)
	e.File = file
	return e
}
