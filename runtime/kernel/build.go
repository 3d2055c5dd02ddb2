package kernel

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A tool that runs the repository's own code (Access.RunsCode: a build or
// test runner) keeps every confinement of a call but two: it may execute
// what it reads or writes (the workspace's scripts, its tests, what it
// compiles), and the workspace is not mounted noexec for it. It also gets
// what a toolchain needs to work, as the Programs hook's CodeRunners says
// for its program: a build cache of its workspace's own (persistent,
// outside every workspace, the user's), a scratch directory per call
// (TMPDIR, inside the cache, removed after the call), the toolchain's
// installation and module caches to read, its forced environment, and a
// memory cap that fits a compiler (RLIMIT_DATA instead of RLIMIT_AS).

// CodeRunners is what a Programs hook that knows toolchains tells the
// kernel for a tool that runs code (programs.Hook does). A hook without it
// gives such a tool only the cache, the scratch directory and the memory
// cap.
type CodeRunners interface {
	// InstallDirs returns the directories outside PATH where the program
	// named name is installed by its toolchain (/usr/local/go/bin):
	// LookPath searches them after PATH for a tool that runs code.
	InstallDirs(name string) []string
	// Toolchain returns, for the program at path (absolute, resolved):
	// its toolchain's name ("" when none covers it), the directories it
	// reads (installation, module caches), the directories below the
	// workspace's build cache it writes, and the data cap of each process
	// in bytes (0: DefaultBuildMemory).
	Toolchain(path string) (name string, read, caches []string, memory int64)
	// BuildEnv returns the entries forced on the environment of a call of
	// the program at path with args in workspace, whose build cache and
	// scratch directory are cache and scratch; online reports that the
	// tool names hosts.
	BuildEnv(path string, args []string, workspace, cache, scratch string, online bool) []string
}

// DefaultBuildMemory is the data cap (RLIMIT_DATA) of each process of a
// call that runs code when the hook names none: 4 GiB.
const DefaultBuildMemory int64 = 4 << 30

// WithBuildCache sets the directory under which each workspace's build
// cache is made (one subdirectory per workspace, named by a hash of its
// resolved path). Default: BuildCacheRoot(). It must be absolute; it is
// made (0700) when missing, and must be owned by this user and writable
// by nobody else when a call uses it.
func WithBuildCache(dir string) Option { return func(c *config) { c.buildRoot = dir } }

// BuildCacheRoot returns the default root of the build caches:
// toolgen/build under the user's cache directory (os.UserCacheDir:
// $XDG_CACHE_HOME or ~/.cache). `toolgen cache clean` removes it.
func BuildCacheRoot() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("kernel: build cache: %w", err)
	}
	return filepath.Join(dir, "toolgen", "build"), nil
}

// buildRootOf is the root New records: dir cleaned (it must be
// absolute), or BuildCacheRoot's ("" when the user has no cache
// directory: a tool that runs code then fails to start, saying why).
func buildRootOf(dir string) (string, error) {
	if dir == "" {
		root, _ := BuildCacheRoot()
		return root, nil
	}
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("kernel: build cache %q is not absolute", dir)
	}
	return filepath.Clean(dir), nil
}

// BuildCache returns the workspace's build cache of a tool that runs code
// on k: one directory per workspace under the root (WithBuildCache), ""
// when there is no root. It need not exist yet: a call makes it.
func (k *Kernel) BuildCache() string {
	if k.buildRoot == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(k.workspace))
	return filepath.Join(k.buildRoot, hex.EncodeToString(sum[:8]))
}

// toolchain returns what the hook says of the program at path for a tool
// that runs code, its reads cleaned of what a call must never read.
func (k *Kernel) toolchain(path string) (name string, read, caches []string, memory int64) {
	cr, ok := k.programs.(CodeRunners)
	if !ok {
		return "", nil, nil, DefaultBuildMemory
	}
	name, read, caches, memory = cr.Toolchain(path)
	if memory <= 0 {
		memory = DefaultBuildMemory
	}
	return name, k.safeReads(read), caches, memory
}

// safeReads drops the reads a call must never get: a relative path, the
// root, the user's HOME or a directory holding it, the workspace's
// parents, and anything inside the build cache root (another workspace's
// cache).
func (k *Kernel) safeReads(read []string) []string {
	home, _ := os.UserHomeDir()
	var out []string
	for _, r := range read {
		r = filepath.Clean(r)
		switch {
		case !filepath.IsAbs(r), r == "/",
			home != "" && within(r, filepath.Clean(home)),
			within(r, k.workspace) && r != k.workspace,
			k.buildRoot != "" && (within(k.buildRoot, r) || within(r, k.buildRoot)):
			continue
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// within reports whether path is dir or lies below it (both clean and
// absolute).
func within(dir, path string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// installDirs returns the hook's install directories of name that lie
// outside the workspace.
func (k *Kernel) installDirs(name string) []string {
	cr, ok := k.programs.(CodeRunners)
	if !ok || !k.access.RunsCode {
		return nil
	}
	var out []string
	for _, d := range cr.InstallDirs(name) {
		if d = filepath.Clean(d); filepath.IsAbs(d) && !within(k.workspace, d) {
			out = append(out, d)
		}
	}
	return out
}

// buildEnv returns the entries a call of a tool that runs code gets on
// top of the child environment: TMPDIR (the call's scratch directory),
// PATH starting with the directory of a program found outside PATH, and
// the hook's forced environment.
func (k *Kernel) buildEnv(argv []string) []string {
	cache := k.BuildCache()
	scratch := k.scratch
	if scratch == "" { // explain: no call, no scratch directory yet
		scratch = filepath.Join(cache, "tmp", "call-*")
	}
	env := []string{"TMPDIR=" + scratch}
	if dir := filepath.Dir(argv[0]); !slices.Contains(k.dirs, dir) {
		env = append(env, "PATH="+dir+string(filepath.ListSeparator)+k.path)
	}
	if cr, ok := k.programs.(CodeRunners); ok {
		env = append(env, cr.BuildEnv(argv[0], argv[1:], k.workspace, cache, scratch, len(k.access.Hosts) > 0 || k.access.Network)...)
	}
	return env
}

// prepared caches the build caches made ready in this process.
var prepared sync.Map // string (cache dir) → struct{}

// prepareBuild makes the workspace's build cache ready for a call of the
// program at path: the root and the cache owned by this user and writable
// by nobody else, outside the workspace, with the toolchain's cache
// directories and tmp in it.
func (k *Kernel) prepareBuild(path string) error {
	cache := k.BuildCache()
	if cache == "" {
		return errors.New("kernel: no build cache directory (WithBuildCache, or a user cache directory): a tool that runs code needs one")
	}
	if within(k.workspace, cache) || within(cache, k.workspace) {
		return fmt.Errorf("kernel: the build cache %s would lie inside the workspace %s (or hold it): set another cache root", cache, k.workspace)
	}
	_, _, caches, _ := k.toolchain(path)
	key := cache + "\x00" + strings.Join(caches, "\x00")
	if _, ok := prepared.Load(key); ok {
		return nil
	}
	if err := makePrivateDirs(k.buildRoot); err != nil {
		return fmt.Errorf("kernel: build cache root: %w", err)
	}
	for _, sub := range append([]string{"", "tmp"}, caches...) {
		d := filepath.Join(cache, sub)
		if !within(cache, d) {
			continue // a hook's cache name that climbs out
		}
		if err := makePrivateDirs(d); err != nil {
			return fmt.Errorf("kernel: build cache: %w", err)
		}
	}
	prepared.Store(key, struct{}{})
	return nil
}

// makePrivateDirs makes dir and its missing parents (0700) and checks
// that dir is a directory of this user's that nobody else may write.
func makePrivateDirs(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	uid, ok := ownerOf(fi)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case !ok || uid != os.Geteuid():
		return fmt.Errorf("%s is not owned by this user (uid %d)", dir, os.Geteuid())
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s is writable by others (%v)", dir, fi.Mode().Perm())
	}
	return nil
}

// newScratch makes a call's scratch directory in the build cache.
func (k *Kernel) newScratch() (string, error) {
	d, err := os.MkdirTemp(filepath.Join(k.BuildCache(), "tmp"), "call-")
	if err != nil {
		return "", fmt.Errorf("kernel: scratch directory: %w", err)
	}
	return d, nil
}

// removeTree removes dir and everything in it, making read-only
// directories writable first (the go command leaves its module copies
// read-only). It never follows a symlink.
func removeTree(dir string) error {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}

// RemoveBuildCaches removes root, the directory of every workspace's
// build cache (BuildCacheRoot by default), and everything in it: the
// next call of a tool that runs code starts cold. A root that does not
// exist is no error.
func RemoveBuildCaches(root string) error {
	if !filepath.IsAbs(root) {
		return fmt.Errorf("kernel: build cache root %q is not absolute", root)
	}
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := removeTree(root); err != nil {
		return fmt.Errorf("kernel: removing the build caches: %w", err)
	}
	prepared.Clear()
	return nil
}

// buildLimits returns the limits of a call of the program at path on a
// kernel that runs code: no address-space cap (a compiler reserves far
// more than it uses) but a data cap of the toolchain's (or none when the
// kernel caps no memory at all).
func (k *Kernel) buildLimits(path string) Limits {
	l := k.limits
	if !k.access.RunsCode {
		return l
	}
	if l.Memory > 0 {
		_, _, _, l.Data = k.toolchain(path)
	}
	l.Memory = 0
	return l
}

// BuildInfo is what explain says of a call of a tool that runs code.
type BuildInfo struct {
	// Toolchain names the profile that covers the program ("" for none).
	Toolchain string
	// Cache is the workspace's build cache.
	Cache string
	// Read are the toolchain's directories the call reads.
	Read []string
	// Limits are the call's limits (a data cap, no address-space cap).
	Limits Limits
}

// Build returns what a call of the program at path (absolute, resolved)
// gets as a tool that runs code; ok is false when k's tools run no code.
func (k *Kernel) Build(path string) (BuildInfo, bool) {
	if !k.access.RunsCode {
		return BuildInfo{}, false
	}
	name, read, _, _ := k.toolchain(path)
	return BuildInfo{Toolchain: name, Cache: k.BuildCache(), Read: read, Limits: k.buildLimits(path)}, true
}
