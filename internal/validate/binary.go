package validate

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// CheckBinary checks, where the workspace and the PATH are known (a tool's
// construction, a descriptor's load), the binary a template runs: bin, its
// first word. The error is a 613 *tool.Error on field "command" when
//
//   - bin is a relative path (Spec refuses that already);
//   - the file bin names lies inside the workspace, or the way to it passes
//     through the workspace: a bare name is looked up with lookPath (the
//     kernel's LookPath, on its PATH), and the result, or an absolute bin,
//     is walked name by name as the kernel would (see walk), so a PATH entry
//     inside the workspace, or a symlink in a PATH directory that points
//     into it, is caught — the repository (or a model that writes) could
//     put any program there;
//   - the file is a denied program (DenyList.Program with the deny list of
//     opts: same file as a denied one, a script of a denied interpreter …).
//
// A bare name lookPath does not find is not an error here: the call fails
// with exit 127 when it runs. workspace must be absolute; it is compared
// both as given and with its symlinks resolved.
func CheckBinary(bin, workspace string, lookPath func(string) (string, error), opts ...Option) error {
	o := options{deny: DefaultDenyList()}
	for _, opt := range opts {
		opt(&o)
	}
	if err := relativeBinary(bin); err != nil {
		return err
	}
	p := bin
	if !strings.HasPrefix(bin, "/") {
		found, err := lookPath(bin)
		if err != nil {
			return nil
		}
		p = found
	}
	roots := []string{filepath.Clean(workspace)}
	if real, err := filepath.EvalSymlinks(workspace); err == nil && real != roots[0] {
		roots = append(roots, real)
	}
	inside := func(cur string) bool {
		for _, r := range roots {
			if within(cur, r) {
				return true
			}
		}
		return false
	}
	where := p
	if inside(filepath.Clean(p)) {
		return insideErr(bin, where)
	}
	_, err := walk("/", p, func(cur string, _ bool) bool {
		where = cur
		return !inside(cur)
	})
	switch {
	case errors.Is(err, errStopped):
		return insideErr(bin, where)
	case errors.Is(err, syscall.ELOOP):
		return tool.SpecErrorf("command", "binary %q cannot be resolved: too many levels of symlinks", bin)
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return tool.SpecErrorf("command", "binary %q (%s) cannot be checked: %v", bin, p, err)
	}
	if why, denied := o.deny.Program(p); denied {
		return tool.SpecErrorf("command", "binary %q is denied: %s", bin, why)
	}
	return nil
}

func insideErr(bin, where string) error {
	return tool.SpecErrorf("command", "binary %q resolves inside the workspace (%s): a program of the workspace is the "+
		"repository's, not a trusted binary; install it outside the workspace and name it by an absolute path, "+
		"or put it on the kernel's PATH", bin, where)
}
