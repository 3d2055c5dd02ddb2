package validate

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/programs"
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
//
// Like every check made before a command runs, this one judges the file
// system as it is now: the kernel resolves the binary again at every call.
// A pass is remembered for a second per (file found, workspace, deny list),
// so building many tools on one binary looks at it once.
func CheckBinary(bin, workspace string, lookPath func(string) (string, error), opts ...Option) error {
	o := options{deny: programs.DefaultDenyList()}
	for _, opt := range opts {
		opt(&o)
	}
	if err := relativeBinary(bin); err != nil {
		return err
	}
	o.deny = denyFor(o.runsCode, bin, o.deny)
	p := bin
	if !strings.HasPrefix(bin, "/") {
		found, err := lookPath(bin)
		if err != nil {
			return nil
		}
		p = found
	}
	key := passKey{path: p, workspace: workspace, list: o.deny.Key()}
	if passedRecently(key) {
		return nil
	}
	if err := checkBinary(bin, p, workspace, o); err != nil {
		return err
	}
	passes.Lock()
	if passes.m == nil || len(passes.m) > 4096 {
		passes.m = map[passKey]time.Time{}
	}
	passes.m[key] = time.Now()
	passes.Unlock()
	return nil
}

// passRecent is how long a binary that passed CheckBinary is not looked at
// again for the same workspace and deny list: a directory of 1,000
// descriptors running grep pays for one look, not 1,000. The check is one
// at construction time anyway; the kernel resolves the binary again at
// every call.
const passRecent = time.Second

// passKey names one CheckBinary question: the file lookPath found (or the
// absolute path written), the workspace and the deny list.
type passKey struct {
	path, workspace string
	list            uint64
}

var passes struct {
	sync.Mutex
	m map[passKey]time.Time
}

func passedRecently(key passKey) bool {
	passes.Lock()
	defer passes.Unlock()
	at, ok := passes.m[key]
	return ok && time.Since(at) < passRecent
}

// checkBinary is CheckBinary for bin found at p.
func checkBinary(bin, p, workspace string, o options) error {
	roots := []string{filepath.Clean(workspace)}
	if real, err := filepath.EvalSymlinks(workspace); err == nil && real != roots[0] {
		roots = append(roots, real)
	}
	inside := func(cur string) bool {
		for _, r := range roots {
			if within.Clean(r, cur) {
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
