package validate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxSymlinks bounds the symlinks followed while resolving one path, as the
// kernel does (Linux: 40).
const maxSymlinks = 40

// walkStep is one name still to be walked, and where it comes from.
type walkStep struct {
	name     string
	fromLink bool // it comes from a symlink's target, not from the path walked
}

// walk resolves rel below the directory start as the kernel resolves a path
// (path_resolution(7)): name by name, each symlink met replaced by its
// target (an absolute target restarts at /), and ".." applied to the
// physical directory reached so far — so "link/.." is the parent of the
// link's target, not the directory holding the link. A name that does not
// exist is taken as a plain directory (mkdir -p would create one), so what
// follows it is walked too. start must be absolute and symlink-free.
//
// visit, if not nil, is called with the physical position after each step:
// boundary is true when the step finished a name of rel (the expansion of a
// symlink included), false inside a symlink's target. A false return stops
// the walk; walk then returns that position and errStopped. It returns the
// final position; a symlink loop (more than maxSymlinks links) is ELOOP, a
// name that cannot be looked at (EACCES …) a *fs.PathError.
func walk(start, rel string, visit func(cur string, boundary bool) bool) (string, error) {
	cur := start
	queue := split(rel, false)
	links := 0
	for len(queue) > 0 {
		step := queue[0]
		queue = queue[1:]
		switch step.name {
		case ".":
		case "..":
			cur = filepath.Dir(cur)
		default:
			next := filepath.Join(cur, step.name)
			fi, err := os.Lstat(next)
			switch {
			case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
				cur = next // missing: a plain name from here on
			case err != nil:
				return "", err
			case fi.Mode()&fs.ModeSymlink == 0:
				cur = next
			default:
				if links++; links > maxSymlinks {
					return "", &fs.PathError{Op: "resolve", Path: next, Err: syscall.ELOOP}
				}
				target, err := os.Readlink(next)
				if err != nil {
					return "", err
				}
				if strings.HasPrefix(target, "/") {
					cur = "/"
				}
				// The target's names stand where the link stood; the link's
				// own boundary is reached once they are walked ("/" has none).
				if names := split(target, true); len(names) > 0 {
					queue = append(names, queue...)
					continue
				}
			}
		}
		if visit != nil && !visit(cur, len(queue) == 0 || !queue[0].fromLink) {
			return cur, errStopped
		}
	}
	return cur, nil
}

// errStopped is walk's error when visit stopped it.
var errStopped = errors.New("walk stopped")

// split returns the names of p, empty ones dropped.
func split(p string, fromLink bool) []walkStep {
	var out []walkStep
	for name := range strings.SplitSeq(p, "/") {
		if name != "" {
			out = append(out, walkStep{name: name, fromLink: fromLink})
		}
	}
	return out
}
