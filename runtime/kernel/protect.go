package kernel

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// WithProtected keeps paths (absolute) from being changed by any confined
// command, besides sandbox.ProtectedNames in the workspace: the tools
// directory and the trust store, say. Inside the workspace each is bound
// read-only in the call's mount namespace; outside it no confined command
// may write anyway. Repeated calls accumulate.
func WithProtected(paths ...string) Option {
	return func(c *config) { c.protect = append(c.protect, paths...) }
}

// Protected returns the paths WithProtected added.
func (k *Kernel) Protected() []string { return append([]string(nil), k.protect...) }

// maxProtectedFile bounds the bytes of one protected file kept to be put
// back after a call.
const maxProtectedFile = 1 << 20

// protectSnapshot is what the protected paths inside the workspace were
// as a writing call started: the read-only mounts stop writes into them,
// but cannot stop everything (a name that does not exist has nothing to
// mount on; an ordinary user's call, which sees the mounts through the
// noexec holder's root, may rename a protected path away, since it is not
// a mount point in the call's own mount namespace). After the call each is
// checked: what the call created at an absent name is removed; a protected
// file it replaced gets its content back; a directory it replaced loses
// the replacement. The call is over by then (every process of it gone,
// where it had a PID namespace), so nothing of it runs meanwhile.
type protectSnapshot struct {
	ws      string
	entries []protectEntry
}

type protectEntry struct {
	path string
	id   string // sandbox.Protection's identity; "" when absent
	data []byte // a regular file's content (nil for anything else)
	mode os.FileMode
	file bool
}

// snapshotProtected records the protected paths of pol for a confined
// writing call (d), nil for any other call.
func snapshotProtected(pol sandbox.Policy, d sandbox.Decision) *protectSnapshot {
	if !d.Apply || !pol.Write {
		return nil
	}
	pr := pol.Protection()
	s := &protectSnapshot{ws: pol.Workspace}
	for _, p := range append(append(append(pr.ReadOnly, pr.Pinned...), pr.Absent...), pr.Links...) {
		e := protectEntry{path: p, id: sandbox.FileID(p)}
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxProtectedFile {
			e.data, _ = os.ReadFile(p)
			e.mode, e.file = fi.Mode().Perm(), e.data != nil
		}
		s.entries = append(s.entries, e)
	}
	return s
}

// restore undoes what the call did to the protected paths and returns the
// one-line notice that says what, "" when it did nothing to them.
func (s *protectSnapshot) restore() string {
	if s == nil {
		return ""
	}
	var created, restored, replaced, failed []string
	for _, e := range s.entries {
		if sandbox.FileID(e.path) == e.id {
			continue
		}
		rel, _ := filepath.Rel(s.ws, e.path)
		if err := os.RemoveAll(e.path); err != nil {
			failed = append(failed, rel+" ("+err.Error()+")")
			continue
		}
		switch {
		case e.id == "":
			created = append(created, rel)
		case e.file:
			f, err := os.OpenFile(e.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, e.mode)
			if err == nil {
				_, err = f.Write(e.data)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				failed = append(failed, rel+" ("+err.Error()+")")
				continue
			}
			restored = append(restored, rel)
		default:
			replaced = append(replaced, rel)
		}
	}
	var notes []string
	say := func(names []string, what string) {
		if len(names) > 0 {
			notes = append(notes, "warning: the command "+what+": "+strings.Join(names, ", "))
		}
	}
	say(created, "created protected paths (code there runs outside any sandbox later), removed")
	say(restored, "replaced protected files, their content restored")
	say(replaced, "moved or removed protected directories; what it put in their place was removed, the originals are where the command moved them")
	say(failed, "changed protected paths that could not be restored; check them before running git or an editor there")
	return strings.Join(notes, "; ")
}
