package validate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// maxSymlinks bounds the symlinks followed while resolving one path, as the
// kernel does (Linux: 40).
const maxSymlinks = 40

// Path confines the path value v of slot to the workspace root, an absolute
// path with its symlinks already resolved (it is cleaned here, so a trailing
// separator does no harm). v must be relative and not empty; after cleaning
// it may not climb out of root, and after resolving symlinks along its
// longest existing prefix (the missing rest is taken lexically, as
// "realpath -m" does, so a dangling symlink is judged by its target) it must
// still lie inside root. A symlink loop is rejected.
//
// It returns the form to put in the argv: the cleaned relative path, with
// "./" in front when it would otherwise begin with '-' or a lookalike. The
// cleaned form is what must run: the kernel resolves "link/.." physically,
// the check lexically.
//
// Path checks confinement only; the characters of v are Value's job.
func Path(slot, v, root string) (string, *tool.Error) {
	if v == "" {
		return "", tool.ValueErrorf(slot, "path is empty (use . for the workspace itself)")
	}
	clean, err := cleanPath(slot, v)
	if err != nil {
		return "", err
	}
	if err := confine(slot, v, clean, filepath.Clean(root)); err != nil {
		return "", err
	}
	if r, _ := utf8.DecodeRuneInString(clean); dashLike(r) {
		clean = "./" + clean
	}
	return clean, nil
}

// cleanPath rejects absolute and climbing paths and returns v cleaned.
func cleanPath(slot, v string) (string, *tool.Error) {
	if filepath.IsAbs(v) || strings.HasPrefix(v, `\`) {
		return "", tool.ValueErrorf(slot, "path %q is absolute; give a path relative to the workspace (for example . or src/main.go)", v)
	}
	clean := filepath.Clean(v)
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", tool.ValueErrorf(slot, "path %q climbs out of the workspace with ..; give a path inside it", v)
	}
	return clean, nil
}

// confine resolves clean below root and requires the result to stay inside
// root.
func confine(slot, v, clean, root string) *tool.Error {
	if clean == "." {
		return nil
	}
	resolved, err := resolve(root, clean)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return tool.ValueErrorf(slot, "path %q cannot be resolved: too many levels of symlinks", v)
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the absolute path of the workspace is not the model's business
		}
		return tool.ValueErrorf(slot, "path %q cannot be checked: %v", v, err)
	case !within(resolved, root):
		return tool.ValueErrorf(slot, "path %q resolves through a symlink to a place outside the workspace; give a path inside it", v)
	}
	return nil
}

// resolve returns the physical form of root/rel: symlinks are followed along
// the part that exists, the rest is joined lexically. root must be resolved.
func resolve(root, rel string) (string, error) {
	cur := root
	rest := rel
	links := 0
	for rest != "" {
		var elem string
		elem, rest, _ = strings.Cut(rest, string(filepath.Separator))
		switch elem {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, elem)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				// Nothing below a missing name exists: the rest is lexical.
				return filepath.Join(next, rest), nil
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > maxSymlinks {
			return "", &fs.PathError{Op: "resolve", Path: next, Err: syscall.ELOOP}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			cur = string(filepath.Separator)
		}
		if rest == "" {
			rest = target
		} else {
			rest = target + string(filepath.Separator) + rest
		}
	}
	return cur, nil
}

// within reports whether p is root or lies below it.
func within(p, root string) bool {
	if p == root {
		return true
	}
	if root == string(filepath.Separator) {
		return strings.HasPrefix(p, root)
	}
	return strings.HasPrefix(p, root+string(filepath.Separator))
}
