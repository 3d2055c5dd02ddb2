package kernel

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestBuildCachePerWorkspace: each workspace gets a cache of its own
// under the root, outside it; a root inside the workspace is refused.
func TestBuildCachePerWorkspace(t *testing.T) {
	root := t.TempDir()
	a, b := t.TempDir(), t.TempDir()
	ka, err := New(a, WithBuildCache(root))
	if err != nil {
		t.Fatal(err)
	}
	kb, err := New(b, WithBuildCache(root))
	if err != nil {
		t.Fatal(err)
	}
	ka, kb = ka.WithAccess(Access{RunsCode: true}), kb.WithAccess(Access{RunsCode: true})
	if ka.BuildCache() == kb.BuildCache() || filepath.Dir(ka.BuildCache()) != root {
		t.Fatalf("caches %s and %s: want two distinct directories of %s", ka.BuildCache(), kb.BuildCache(), root)
	}
	if err := ka.prepareBuild("/bin/true"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(ka.BuildCache())
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("cache %s: %v %v, want a 0700 directory", ka.BuildCache(), fi, err)
	}
	p := ka.Policy("/bin/true")
	if !p.RunsCode || !slices.Equal(p.WriteDirs, []string{ka.BuildCache()}) || p.WorkspaceNoExec() {
		t.Errorf("policy %+v: want RunsCode, the cache writable, no noexec workspace", p)
	}
	inside, err := New(a, WithBuildCache(filepath.Join(a, ".cache")))
	if err != nil {
		t.Fatal(err)
	}
	err = inside.WithAccess(Access{RunsCode: true}).prepareBuild("/bin/true")
	if err == nil || !strings.Contains(err.Error(), "inside the workspace") {
		t.Errorf("a cache root inside the workspace: %v, want refused", err)
	}
	if _, err := New(a, WithBuildCache("relative")); err == nil {
		t.Error("a relative cache root was accepted")
	}
}

// TestBuildCacheRootOthersWritable: a root another user could write is
// refused (it could plant objects there).
func TestBuildCacheRootOthersWritable(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	if err := os.Mkdir(root, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	k, err := New(t.TempDir(), WithBuildCache(root))
	if err != nil {
		t.Fatal(err)
	}
	err = k.WithAccess(Access{RunsCode: true}).prepareBuild("/bin/true")
	if err == nil || !strings.Contains(err.Error(), "writable by others") {
		t.Errorf("a root writable by others: %v, want refused", err)
	}
}

// TestSafeReads: a toolchain's reads never hold the user's HOME, the
// root, the workspace's parents or another workspace's cache.
func TestSafeReads(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	root := t.TempDir()
	ws := t.TempDir()
	k, err := New(ws, WithBuildCache(root))
	if err != nil {
		t.Fatal(err)
	}
	got := k.safeReads([]string{"/", home, filepath.Dir(home), filepath.Join(home, "go", "pkg", "mod"), "relative",
		filepath.Dir(ws), ws, root, filepath.Join(root, "abcd"), "/usr/local/go", "/usr/local/go/"})
	want := []string{filepath.Join(home, "go", "pkg", "mod"), ws, "/usr/local/go"}
	if !slices.Equal(got, want) {
		t.Errorf("safeReads = %v, want %v", got, want)
	}
}

// TestRemoveBuildCaches removes read-only trees (the go command leaves
// its module copies read-only) and is no error when nothing is there.
func TestRemoveBuildCaches(t *testing.T) {
	root := filepath.Join(t.TempDir(), "build")
	ro := filepath.Join(root, "x", "mod", "pkg")
	if err := os.MkdirAll(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ro, "f.go"), []byte("package p\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if err := RemoveBuildCaches(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(root); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", root, err)
	}
	if err := RemoveBuildCaches(root); err != nil {
		t.Errorf("removing what is not there: %v", err)
	}
	if err := RemoveBuildCaches("rel"); err == nil {
		t.Error("a relative root was accepted")
	}
}

// TestBuildLimits: a tool that runs code gets a data cap instead of an
// address-space cap, and none when the kernel caps no memory.
func TestBuildLimits(t *testing.T) {
	k, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if l := k.buildLimits("/bin/true"); l.Memory != DefaultMemoryLimit || l.Data != 0 {
		t.Errorf("an ordinary tool's limits %+v changed", l)
	}
	l := k.WithAccess(Access{RunsCode: true}).buildLimits("/bin/true")
	if l.Memory != 0 || l.Data != DefaultBuildMemory {
		t.Errorf("runs_code limits %+v: want no address-space cap, a data cap of %d", l, DefaultBuildMemory)
	}
	if runtime.GOOS == "linux" && !strings.Contains(l.String(), "of data per process") {
		t.Errorf("limits line %q does not name the data cap", l.String())
	}
	k0, err := New(t.TempDir(), WithMemoryLimit(0))
	if err != nil {
		t.Fatal(err)
	}
	if l := k0.WithAccess(Access{RunsCode: true}).buildLimits("/bin/true"); l.Memory != 0 || l.Data != 0 {
		t.Errorf("no memory cap asked, runs_code got %+v", l)
	}
}
