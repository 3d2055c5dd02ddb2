package validate

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Path confines the path value v of slot to the workspace root, an absolute
// path with its symlinks already resolved (it is cleaned here, so a trailing
// separator does no harm). v must be relative and not empty, and may not
// climb out of root lexically (".." past its start). Then v is resolved as
// the kernel will resolve it when the command runs (see walk): name by name,
// following symlinks, with ".." applied after resolution, so "link/.." is
// the parent of the link's target, and names that do not exist yet taken as
// directories (mkdir -p would create them). Every place v reaches after
// each of its names must lie inside root; a symlink loop is rejected. A name
// that cannot be looked at (no search permission) is rejected too: what
// cannot be checked cannot be vouched for.
//
// It returns what goes into the argv: v itself, exactly as the model wrote
// it, so what runs is the path that was checked; "./" is put in front when
// v would otherwise begin with '-' or a lookalike.
//
// Path checks confinement only; the characters of v are Value's job.
func Path(slot, v, root string) (string, *tool.Error) {
	if v == "" {
		return "", tool.ValueErrorf(slot, "path is empty (use . for the workspace itself)")
	}
	if _, err := cleanPath(slot, v); err != nil {
		return "", err
	}
	if err := confine(slot, v, filepath.Clean(root)); err != nil {
		return "", err
	}
	if r, _ := utf8.DecodeRuneInString(v); dashLike(r) {
		return "./" + v, nil
	}
	return v, nil
}

// cleanPath rejects absolute and climbing paths and returns v cleaned.
func cleanPath(slot, v string) (string, *tool.Error) {
	if filepath.IsAbs(v) || strings.HasPrefix(v, `\`) {
		return "", tool.ValueErrorf(slot, "path %q is absolute; give a path relative to the workspace (for example . or src/main.go)", v)
	}
	clean := filepath.Clean(v)
	if !filepath.IsLocal(clean) {
		return "", tool.ValueErrorf(slot, "path %q climbs out of the workspace with ..; give a path inside it", v)
	}
	return clean, nil
}

// confine walks v below root as the kernel will and requires every place
// it reaches after one of v's names to stay inside root.
func confine(slot, v, root string) *tool.Error {
	_, err := walk(root, v, func(cur string, boundary bool) bool {
		return !boundary || within.Clean(root, cur)
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errStopped):
		return tool.ValueErrorf(slot, "path %q resolves through a symlink to a place outside the workspace; give a path inside it", v)
	case errors.Is(err, syscall.ELOOP):
		return tool.ValueErrorf(slot, "path %q cannot be resolved: too many levels of symlinks", v)
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the absolute path of the workspace is not the model's business
		}
		return tool.ValueErrorf(slot, "path %q cannot be checked: %v", v, err)
	}
}

// resolve returns the physical form of root/rel, as the kernel would
// resolve it (see walk). root must be resolved.
func resolve(root, rel string) (string, error) { return walk(root, rel, nil) }
