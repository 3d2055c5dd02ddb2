package programs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nanogpt/toolgen/internal/fileid"
	"github.com/nanogpt/toolgen/internal/shebang"
)

// maxInterpreterDepth is how many #! interpreters deep Program follows a
// script, as the Linux kernel does (BINPRM_MAX_RECURSION).
const maxInterpreterDepth = 4

// systemDirs are the directories whose denied programs Program knows by
// (device, inode), besides the directory of the file judged: the kernel's
// default PATH and the sbin directories.
var systemDirs = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// DeniedProgram reports whether the program file at resolvedPath (an
// absolute path, as the kernel's LookPath returns) is denied by the default
// deny list, and why, in a sentence for the model and the person. See
// DenyList.Program. ExecTool calls it on every call, for the binary the
// call would run.
func DeniedProgram(resolvedPath string) (reason string, denied bool) {
	return defaultDenyList().Program(resolvedPath)
}

// Program reports whether the program file at path (absolute) is denied,
// and why. A name is not enough to judge a file, so it is denied when
//
//   - its name, the name of every symlink on the way to the file, or the
//     file's own name is denied (Match: /usr/bin/vi -> /etc/alternatives/vi
//     -> /usr/bin/vim.basic, a versioned or multiarch name such as
//     python3.11 or perl5.36-x86_64-linux-gnu);
//   - it is the same file, by device and inode, as a denied program of its
//     own directory or of /usr/local/sbin, /usr/local/bin, /usr/sbin,
//     /usr/bin, /sbin and /bin (a hard link or symlink to python3
//     under an innocent name); pkill, killall and git's server names
//     count by name only, as their files also serve pgrep, pidof and git,
//     chosen by argv[0], and a denied symlink to the very file named
//     (gmake -> make) is another name of the program the caller named by
//     an allowed one;
//   - it is a script whose #! line names an interpreter that is denied
//     itself by these rules (pdb3 is a python3 script; "#!/usr/bin/env -S
//     perl -w" runs perl), following up to 4 interpreters deep as the kernel
//     does. A #!/usr/bin/env line is judged by the program env would run; a
//     line where that cannot be told for sure is denied, and so is a
//     relative interpreter ("#!bin/x"), which the kernel looks up in the
//     command's working directory: the workspace.
//
// A copy of a denied program under another name is not recognised; Landlock
// (package sandbox) is the guard against that where it is available. A
// path that does not exist or cannot be read is not denied here: the
// kernel fails to run it.
func (d DenyList) Program(path string) (reason string, denied bool) {
	return d.program(path, 0)
}

func (d DenyList) program(path string, depth int) (string, bool) {
	if entry, denied := d.Match(path); denied {
		return fmt.Sprintf("%s is on the deny list (entry %q)", path, entry), true
	}
	hops, real := linkChain(path)
	for _, hop := range hops {
		if entry, denied := d.Match(hop); denied && !byNameOnly[entry] {
			return fmt.Sprintf("%s resolves to %s, which is on the deny list (entry %q)", path, hop, entry), true
		}
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	if hit, ok := d.sameFile(info, real, filepath.Dir(path), filepath.Dir(real)); ok {
		return fmt.Sprintf("%s is the same file as %s, which is on the deny list (entry %q)", path, hit.path, hit.entry), true
	}
	sb, ok := shebang.Read(real)
	if !ok {
		return "", false
	}
	if depth >= maxInterpreterDepth {
		return fmt.Sprintf("%s is a script whose chain of #! interpreters is more than %d deep", path, maxInterpreterDepth), true
	}
	interp := sb.Interpreter
	if !strings.HasPrefix(interp, "/") {
		return fmt.Sprintf("%s is a script whose #! interpreter %q is a relative path, which the kernel resolves in the "+
			"command's working directory, the workspace", path, interp), true
	}
	if BinaryName(interp) == "env" {
		prog, ok := shebang.EnvProgram(sb.Arg)
		if !ok {
			return fmt.Sprintf("%s is a script whose #! line runs env in a way toolgen cannot follow (%q)", path, "#!"+sb.Interpreter+" "+sb.Arg), true
		}
		if entry, denied := d.Match(prog); denied {
			return fmt.Sprintf("%s is a script run by %s (through env), which is on the deny list (entry %q)", path, prog, entry), true
		}
		if strings.ContainsRune(prog, '/') && !strings.HasPrefix(prog, "/") {
			return fmt.Sprintf("%s is a script run through env by %q, a relative path, which names a file of the workspace", path, prog), true
		}
		found, ok := lookProgram(prog)
		if !ok {
			return "", false // env finds nothing to run
		}
		interp = found
	}
	if why, denied := d.program(interp, depth+1); denied {
		return fmt.Sprintf("%s is a script run by %s: %s", path, interp, why), true
	}
	return "", false
}

// linkChain follows the symlinks from path to the file, returning each
// link's target as met (made absolute) and the file reached. A path that
// cannot be followed to the end gives what was reached.
func linkChain(path string) (hops []string, real string) {
	cur := path
	for range maxSymlinks {
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		target, err := os.Readlink(cur)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(cur), target)
		}
		hops = append(hops, target)
		cur = target
	}
	if len(hops) == 0 {
		return nil, path // not a link: the file itself (its directory may be one, which Stat and Open follow)
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return hops, r
	}
	return hops, cur
}

// lookProgram finds a bare program name in systemDirs, as env would on
// the kernel's PATH; a name holding '/' is taken as it is.
func lookProgram(name string) (string, bool) {
	if strings.ContainsRune(name, '/') {
		return name, true
	}
	for _, dir := range systemDirs {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// byNameOnly are entries denied for what the program does under that name
// only: procps's pkill is the same file as pgrep, sysvinit's killall5 the
// target of pidof, and git-receive-pack, git-upload-pack and
// git-upload-archive are links to git, each choosing what it does from
// argv[0], so sharing their file says nothing about a program invoked
// under another name (git, once anything else links its file: a second
// hard link, as perf's build-id cache or a packager makes, must not deny
// git).
var byNameOnly = map[string]bool{"pkill": true, "killall": true,
	"git-receive-pack": true, "git-upload-pack": true, "git-upload-archive": true}

// denyHit is a denied program found in a directory: its path, the deny
// list's entry, and, when the name is a symlink, the file it resolves to.
type denyHit struct{ path, entry, alias string }

// denies reports whether hit denies the program whose file, by its own
// path resolved, is real: a name denied by name only (byNameOnly) never
// does, nor a symlink to that very path (gmake -> make, cc -> gcc,
// git-receive-pack -> git), which is another name for the program the
// caller named by an allowed one. A hard link under a denied name, or a
// symlink to another name of the file, does.
func (hit denyHit) denies(real string) bool {
	if byNameOnly[hit.entry] {
		return false
	}
	if hit.alias == "" {
		return true
	}
	resolved, err := filepath.EvalSymlinks(real)
	return err != nil || resolved != hit.alias
}

// dirIndex maps the files of one directory that a deny list denies by name
// to where they are; it is valid while the directory's mtime is unchanged.
type dirIndex struct {
	mtime   time.Time
	checked time.Time // when mtime was last compared with the directory's (guarded by indexes)
	files   map[fileid.Key][]denyHit
}

// indexKey names a dirIndex: the deny list's key and the directory.
type indexKey struct {
	list uint64
	dir  string
}

// indexes caches a dirIndex per (deny list, directory).
var indexes struct {
	sync.Mutex
	m map[indexKey]*dirIndex
}

// maxSymlinks bounds the symlinks followed while resolving one program's
// path, as the Linux kernel does (MAXSYMLINKS).
const maxSymlinks = 40

// programDirs is systemDirs with symlinks resolved and duplicates dropped
// (/bin is /usr/bin on a merged-/usr system), worked out once.
var programDirs = sync.OnceValue(func() []string {
	var out []string
	seen := map[string]bool{}
	for _, dir := range systemDirs {
		if real, err := filepath.EvalSymlinks(dir); err == nil && !seen[real] {
			seen[real] = true
			out = append(out, real)
		}
	}
	return out
})

// sameFile looks info, the file real, up among the denied programs of dirs
// and systemDirs, and returns the first that denies it (denyHit.denies).
func (d DenyList) sameFile(info fs.FileInfo, real string, dirs ...string) (denyHit, bool) {
	key, ok := fileid.Of(info)
	if !ok {
		return denyHit{}, false
	}
	if fileid.SingleLink(info) {
		// One directory entry only: no other name (denied or not) shares
		// the file, so the directories need not be indexed.
		return denyHit{}, false
	}
	search := programDirs()
	system := len(search)
	for _, dir := range dirs {
		if slices.Contains(search, dir) {
			continue
		}
		if real, err := filepath.EvalSymlinks(dir); err == nil && !slices.Contains(search, real) {
			search = append(slices.Clip(search), real)
		}
	}
	for i, dir := range search {
		for _, hit := range d.index(dir, i < system).files[key] {
			if hit.denies(real) {
				return hit, true
			}
		}
	}
	return denyHit{}, false
}

// systemRecheck is how long the index of a system directory (systemDirs)
// is trusted before its mtime is looked at again: only root changes those,
// and a call should not pay a stat per directory. Other directories are
// looked at every time.
const systemRecheck = time.Second

// index returns the index of dir for d, building it when the directory
// changed since it was last built.
func (d DenyList) index(dir string, system bool) *dirIndex {
	cacheKey := indexKey{d.Key(), dir}
	now := time.Now()
	indexes.Lock()
	idx := indexes.m[cacheKey]
	fresh := idx != nil && system && now.Sub(idx.checked) < systemRecheck
	indexes.Unlock()
	if fresh {
		return idx
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return &dirIndex{}
	}
	if idx != nil && idx.mtime.Equal(fi.ModTime()) {
		indexes.Lock()
		idx.checked = now
		indexes.Unlock()
		return idx
	}
	idx = &dirIndex{mtime: fi.ModTime(), checked: now, files: map[fileid.Key][]denyHit{}}
	d.indexInto(idx, dir)
	indexes.Lock()
	if indexes.m == nil {
		indexes.m = map[indexKey]*dirIndex{}
	}
	indexes.m[cacheKey] = idx
	indexes.Unlock()
	return idx
}

// indexInto adds the denied programs of dir to idx. Only the names are
// listed (no sorting or type of every entry); the denied ones are sorted,
// so the first name of a file is the one reported, and looked at relative
// to the open directory, following symlinks as os.Stat does.
func (d DenyList) indexInto(idx *dirIndex, dir string) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	type named struct{ name, entry string }
	var denied []named
	for _, name := range names {
		if entry, ok := d.Match(name); ok {
			denied = append(denied, named{name, entry})
		}
	}
	slices.SortFunc(denied, func(a, b named) int { return strings.Compare(a.name, b.name) })
	for _, n := range denied {
		k, ok := fileid.RegularAt(f, n.name)
		if !ok {
			continue
		}
		hit := denyHit{path: filepath.Join(dir, n.name), entry: n.entry}
		if fi, err := os.Lstat(hit.path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if hit.alias, err = filepath.EvalSymlinks(hit.path); err != nil {
				hit.alias = ""
			}
		}
		idx.files[k] = append(idx.files[k], hit)
	}
}
