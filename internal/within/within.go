// Package within answers one question for every package that asks it: does
// a path lie inside a directory? The workspace of a call, a tools directory,
// a descriptor's symlink target, an audit log's place and a token file's
// all ask it; each used to write its own filepath.Rel and prefix test.
//
// Three strengths, weakest first:
//
//   - Clean: both paths already absolute and clean; text only, no
//     allocation (the per-call path check uses it).
//   - Lexical: any two paths, made absolute and clean; no symlink resolved.
//   - Resolved: the directory's symlinks resolved, and those of the longest
//     prefix of the path that exists, the rest appended as written.
//
// A path equal to the directory counts as inside. None of them follows
// symlinks name by name with ".." applied after each (the kernel's view of
// a path that is opened later): internal/validate's physical walk does that
// for slot values, and os.Root does it for reads below a directory.
package within

import (
	"os"
	"path/filepath"
	"strings"
)

// Clean reports whether path is dir or lies below it. Both must be absolute
// and clean (filepath.Clean's form); nothing is resolved and nothing is
// allocated.
func Clean(dir, path string) bool {
	rest, ok := strings.CutPrefix(path, dir)
	if !ok {
		return false
	}
	return rest == "" || dir == string(filepath.Separator) || rest[0] == filepath.Separator
}

// Lexical reports whether path is dir or lies below it as written: both are
// made absolute (against the current directory) and clean, and no symlink
// is resolved. When either cannot be made absolute the answer is false.
func Lexical(dir, path string) bool {
	d, err1 := filepath.Abs(dir)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && filepath.IsLocal(rel)
}

// Resolved reports whether path is dir or lies below it once symlinks are
// resolved: dir's in full (as written when it cannot be resolved), path's
// along its longest existing prefix (see Resolve). A symlink that leads out
// of dir is outside; one that leads in from outside is inside.
func Resolved(dir, path string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if r, err := filepath.EvalSymlinks(d); err == nil {
		d = r
	}
	p, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	return Lexical(d, Resolve(p))
}

// Resolve returns the absolute path p, cleaned, with the symlinks of its
// longest prefix that resolves resolved and the rest appended as written:
// where p would lead if the missing names were created. A prefix that does
// not resolve is shortened until one does, except that a dangling symlink
// is followed to where its target would be (creating p would create the
// target). After 40 links (the kernel's limit) p is judged as written.
// p must be absolute.
func Resolve(p string) string {
	return resolve(filepath.Clean(p), 40)
}

func resolve(p string, hops int) string {
	rest := ""
	for q := p; ; {
		if real, err := filepath.EvalSymlinks(q); err == nil {
			return filepath.Join(real, rest)
		}
		if link, err := os.Readlink(q); err == nil { // dangling, or a loop
			if hops == 0 {
				return p
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(q), link)
			}
			return resolve(filepath.Join(link, rest), hops-1)
		}
		parent := filepath.Dir(q)
		if parent == q {
			return p
		}
		rest = filepath.Join(filepath.Base(q), rest)
		q = parent
	}
}
