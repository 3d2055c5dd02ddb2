package exec

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nanogpt/toolgen/internal/validate"
)

// Defences 1 and 2: the first word names a granted binary, which resolves
// through the kernel's PATH, and neither its name nor the file it resolves
// to is on the deny list.

// binary is the resolved first word.
type binary struct {
	name   string // as written, and granted
	path   string // absolute: what runs
	target string // normalised name of the file path resolves to through symlinks, when it differs from name
}

// multiCall are binaries that act as the program named by argv[0]: the
// name they resolve to says nothing about what runs.
var multiCall = []string{"busybox", "toybox"}

// allowlist applies defence 1 to the first word.
func (t *Tool) allowlist(w word) (binary, *refusal) {
	name := w.text
	granted := t.granted
	switch {
	case !w.plain:
		return binary{}, refuse(0, "the binary must be written as a plain name, without quotes or backslashes (%s); granted: %s", w.src, granted)
	case strings.ContainsAny(name, `/\`):
		return binary{}, refuse(0, "the binary must be a bare name from the granted list, not a path (%q); granted: %s", name, granted)
	case !slices.Contains(t.allow, name):
		return binary{}, refuse(0, "%q is not a granted binary; granted: %s", name, granted)
	}
	path, err := t.kernel.LookPath(name)
	if err != nil {
		return binary{}, refuse(0, "%q is granted but cannot be run: %v", name, err)
	}
	b := binary{name: name, path: path}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			if tn := validate.BinaryName(real); tn != validate.BinaryName(name) && !slices.Contains(multiCall, tn) {
				b.target = tn
			}
		}
	}
	return b, nil
}

// targetDenied reports whether the file path resolves to is denied.
func (t *Tool) targetDenied(path string) (target, entry string, denied bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", "", false
	}
	if slices.Contains(multiCall, validate.BinaryName(real)) {
		return "", "", false
	}
	entry, denied = t.deny.Match(real)
	return real, entry, denied
}

// denyList applies defence 2.
func (t *Tool) denyList(b binary) *refusal {
	if entry, denied := t.deny.Match(b.name); denied {
		return refuse(0, "%q is on the deny list (entry %q): it destroys data, changes privileges, is a shell, "+
			"runs its arguments as a command or runs code given on its command line", b.name, entry)
	}
	if b.target != "" {
		if entry, denied := t.deny.Match(b.target); denied {
			return refuse(0, "%q resolves to %q, which is on the deny list (entry %q)", b.name, b.target, entry)
		}
	}
	// The file itself: a hard link of a denied program, a versioned or
	// multiarch name, or a script whose #! names one. A multi-call binary
	// acts as the name it is run by, which was judged above.
	if real, err := filepath.EvalSymlinks(b.path); err == nil && slices.Contains(multiCall, validate.BinaryName(real)) {
		return nil
	}
	if why, denied := t.deny.Program(b.path); denied {
		return refuse(0, "%q is denied: %s", b.name, why)
	}
	return nil
}
