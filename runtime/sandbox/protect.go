package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ProtectedNames are the names, relative to the workspace, that no command
// may change, whatever its tool's "writes" says: what runs later outside
// any sandbox. Git's hooks, configuration and info directory (and, through
// Policy.Protection, the same in every git directory of the workspace:
// submodules' under .git/modules, and the one a .git file points to), and
// the configuration editors and coding agents load or run without asking.
// Objects, refs and the index stay writable, so a tool that commits works.
func ProtectedNames() []string {
	return []string{".git/hooks", ".git/config", ".git/info",
		".vscode", ".idea", ".envrc", ".mcp.json", ".claude", ".codex", ".cursor", ".gemini"}
}

// editorNames are ProtectedNames but git's.
func editorNames() []string {
	return slices.DeleteFunc(ProtectedNames(), func(n string) bool { return strings.HasPrefix(n, ".git/") })
}

// gitParts are the files and directories of a git directory kept
// read-only; config.worktree too, where worktrees have their own.
var gitParts = []string{"hooks", "config", "info", "config.worktree"}

// gitCreatable are the git parts whose creation, where missing, a call
// must not get away with.
var gitCreatable = []string{"hooks", "config", "info"}

// Protection is what the protected paths of a policy are on disk now.
type Protection struct {
	// ReadOnly are the existing protected paths inside the workspace: each
	// is bound onto itself read-only in the command's mount namespace, so
	// a write fails with EROFS, and, being a mount point, it cannot be
	// renamed or removed (EBUSY).
	ReadOnly []string
	// Pinned are the git directories inside the workspace (.git and each
	// submodule's): bound onto themselves, still writable, so that they
	// cannot be renamed away and replaced by a directory of the command's.
	Pinned []string
	// Outside are the protected paths outside the workspace (the git
	// directory a .git file points to, the tools directory, the trust
	// store): no command may write outside the workspace at all.
	Outside []string
	// Absent are the protected names inside the workspace that do not
	// exist: a mount needs something to mount on, so a call that creates
	// one is caught afterwards (see package kernel): what it created there
	// is removed and its result says so.
	Absent []string
	// Links are protected names that are symbolic links: not mounted (a
	// mount follows the link), but watched; what each names is protected
	// instead (ReadOnly, Outside or Absent).
	Links []string
	// Masked are the daemon sockets that exist (DaemonSockets): the null
	// device is bound over each in the command's mount namespace.
	Masked []string
}

// Protection returns p's protected paths as they are on disk now: the
// ProtectedNames in p.Workspace, the parts of every git directory of the
// workspace, and p.Protect.
func (p Policy) Protection() Protection {
	var pr Protection
	ws := p.Workspace
	var add func(path string)
	add = func(path string) {
		if target, ok := linkTarget(path); ok {
			// A symbolic link: it is watched (Key; kernel's after-call
			// check), and what it names is protected in its place, or,
			// while it names nothing, that name is absent.
			pr.Links = append(pr.Links, path)
			switch {
			case target == "" || !within(ws, target) && !exists(target):
			case exists(target):
				add(target)
			default:
				pr.Absent = append(pr.Absent, target)
			}
			return
		}
		switch {
		case !exists(path):
		case within(ws, path):
			pr.ReadOnly = append(pr.ReadOnly, path)
		default:
			pr.Outside = append(pr.Outside, path)
		}
	}
	for _, n := range editorNames() {
		path := filepath.Join(ws, n)
		if exists(path) {
			add(path)
		} else {
			pr.Absent = append(pr.Absent, path)
		}
	}
	for _, g := range gitDirs(ws, &pr) {
		for _, part := range gitParts {
			path := filepath.Join(g, part)
			switch {
			case exists(path):
				add(path)
			case within(ws, path) && slices.Contains(gitCreatable, part):
				pr.Absent = append(pr.Absent, path)
			}
		}
	}
	for _, e := range p.Protect {
		add(filepath.Clean(e))
	}
	for _, s := range daemonSockets() {
		if fi, err := os.Stat(s); err == nil && fi.Mode().Type() == os.ModeSocket {
			pr.Masked = append(pr.Masked, s)
		}
	}
	slices.Sort(pr.ReadOnly)
	pr.ReadOnly = slices.Compact(pr.ReadOnly)
	slices.Sort(pr.Outside)
	pr.Outside = slices.Compact(pr.Outside)
	return pr
}

// gitDirs returns the git directories of the workspace ws: .git (or where
// a .git file points, and its common directory) and every submodule's
// below their modules directories. It records in pr a .git that is a file
// (read-only), one that is missing (absent: a call must not create a
// repository's configuration either) and the directories to pin.
func gitDirs(ws string, pr *Protection) []string {
	dotgit := filepath.Join(ws, ".git")
	fi, err := os.Stat(dotgit)
	var dirs []string
	switch {
	case err != nil:
		pr.Absent = append(pr.Absent, dotgit)
		return nil
	case fi.IsDir():
		dirs = append(dirs, dotgit)
	default:
		pr.ReadOnly = append(pr.ReadOnly, dotgit)
		g := pointedGitDir(dotgit, ws)
		if g == "" {
			return nil
		}
		dirs = append(dirs, g)
		if c := pointedGitDir(filepath.Join(g, "commondir"), g); c != "" {
			dirs = append(dirs, c)
		}
	}
	budget := maxModules
	for i := 0; i < len(dirs); i++ {
		dirs = append(dirs, moduleDirs(filepath.Join(dirs[i], "modules"), 0, &budget)...)
	}
	for _, d := range dirs {
		if within(ws, d) {
			pr.Pinned = append(pr.Pinned, d)
		}
	}
	return dirs
}

// maxModules bounds the submodule git directories looked at, so that a
// hostile tree cannot make every call walk a huge one.
const maxModules = 256

// moduleDirs returns the git directories below dir (a modules directory):
// the directories holding a HEAD file, looked for up to 8 levels down
// (submodule names may hold slashes), not below one found.
func moduleDirs(dir string, depth int, budget *int) []string {
	if depth > 8 {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() || *budget <= 0 {
			continue
		}
		*budget--
		d := filepath.Join(dir, e.Name())
		if exists(filepath.Join(d, "HEAD")) {
			out = append(out, d)
			continue
		}
		out = append(out, moduleDirs(d, depth+1, budget)...)
	}
	return out
}

// pointedGitDir reads a "gitdir: PATH" file (.git) or a commondir file
// (a path alone), PATH relative to base, and returns the directory it
// names, "" when it names none.
func pointedGitDir(file, base string) string {
	b, err := os.ReadFile(file)
	if err != nil || len(b) > 4096 {
		return ""
	}
	s := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
	if s == "" {
		return ""
	}
	if !filepath.IsAbs(s) {
		s = filepath.Join(base, s)
	}
	if fi, err := os.Stat(s); err != nil || !fi.IsDir() {
		return ""
	}
	if r, err := filepath.EvalSymlinks(s); err == nil {
		s = r
	}
	return s
}

// Key identifies pr with the identity (device and inode) of each path, so
// that a protected path replaced or made since is told apart.
func (pr Protection) Key() string {
	var b strings.Builder
	for _, list := range [][]string{pr.ReadOnly, {"pinned"}, pr.Pinned, {"absent"}, pr.Absent, {"links"}, pr.Links, {"masked"}, pr.Masked} {
		for _, path := range list {
			b.WriteString(path)
			if id := FileID(path); id != "" {
				b.WriteByte('@')
				b.WriteString(id)
			}
			b.WriteByte(0)
		}
	}
	return b.String()
}

// String lists pr for explain, workspace paths relative to ws.
func (pr Protection) String(ws string) string {
	rel := func(paths []string) string {
		out := make([]string, len(paths))
		for i, p := range paths {
			if r, err := filepath.Rel(ws, p); err == nil && within(ws, p) {
				p = r
			}
			out[i] = p
		}
		return strings.Join(out, ", ")
	}
	var parts []string
	if len(pr.ReadOnly) > 0 {
		parts = append(parts, "read-only mounts: "+rel(pr.ReadOnly))
	}
	if len(pr.Absent) > 0 {
		parts = append(parts, "absent, created by a call: removed after it: "+rel(pr.Absent))
	}
	if len(pr.Outside) > 0 {
		parts = append(parts, "outside the workspace, where nothing is writable: "+rel(pr.Outside))
	}
	if len(pr.Masked) > 0 {
		parts = append(parts, "daemon sockets masked: "+strings.Join(pr.Masked, ", "))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// linkTarget reports whether path is a symbolic link, and the clean
// absolute path it names (one level, its directories resolved), "" when
// that cannot be told.
func linkTarget(path string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().Type() != os.ModeSymlink {
		return "", false
	}
	if t, err := filepath.EvalSymlinks(path); err == nil {
		return t, true
	}
	t, err := os.Readlink(path)
	if err != nil {
		return "", true
	}
	if !filepath.IsAbs(t) {
		t = filepath.Join(filepath.Dir(path), t)
	}
	return filepath.Clean(t), true
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// within reports that path is dir or below it (both clean).
func within(dir, path string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// idString formats a file identity for FileID.
func idString(dev, ino uint64, birth int64) string {
	return strconv.FormatUint(dev, 10) + ":" + strconv.FormatUint(ino, 10) + ":" + strconv.FormatInt(birth, 10)
}
