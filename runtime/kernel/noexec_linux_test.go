//go:build linux

package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// sharedLibrary returns a real shared library of this system, or skips.
func sharedLibrary(t *testing.T) string {
	t.Helper()
	for _, pattern := range []string{"/lib/*/libm.so.6", "/usr/lib/*/libm.so.6", "/lib64/libm.so.6", "/usr/lib64/libm.so.6"} {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return m[0]
		}
	}
	guarantee.Missing(t, "no libm.so.6 to copy into the workspace")
	return ""
}

// requireNoExec skips the test where a confined call in ws would not get
// the noexec workspace (Guarantees, the spawn path's own account; another
// test checks that such a call is refused or warned about), or fails it
// where TOOLGEN_REQUIRE_GUARANTEES is set: CI sets it, as root and as an
// ordinary user, so that a guarantee lost on the machine that should have
// it is a failure, not a skip.
func requireNoExec(t *testing.T, ws string) {
	t.Helper()
	k := modeKernel(t, ws, sandbox.BestEffort)
	echo, err := k.resolve("echo")
	require.NoError(t, err)
	g := k.Guarantees(echo)
	if len(g.Missing) == 0 {
		require.Contains(t, g.WorkspaceCode, "mounted noexec")
		return
	}
	guarantee.Missing(t, "a confined call here misses: %q", g.Missing)
}

// TestWorkspaceLibraryNotLoaded is the attack Landlock alone lets through:
// a granted program told to load a library (here through LD_PRELOAD, the
// dynamic loader's own way; openssl engines, linker plugins and dlopen map
// a file the same way) runs code from a file of the workspace, as Landlock
// checks execve but not mmap. Confined, the workspace is mounted noexec for
// the command, so the loader cannot map it; unconfined the same call loads
// it, which shows the attack is real.
func TestWorkspaceLibraryNotLoaded(t *testing.T) {
	lib := sharedLibrary(t)
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	requireNoExec(t, ws)
	data, err := os.ReadFile(lib)
	require.NoError(t, err)
	evil := filepath.Join(ws, "evil.so")
	require.NoError(t, os.WriteFile(evil, data, 0o755))

	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, ws, mode, WithEnv("LD_PRELOAD="+evil))
		res := mustRun(t, k, "echo", "ran")
		assert.Equal(t, 0, res.ExitCode, res.Output)
		assert.Contains(t, res.Output, "ran")
		refused := strings.Contains(res.Output, "cannot be preloaded")
		if mode == sandbox.Off {
			assert.False(t, refused, "unconfined, the library loads (the attack works): %s", res.Output)
			return
		}
		assert.True(t, refused, "confined, the library must not be mapped: %s", res.Output)
		assert.Contains(t, res.Output, "failed to map segment")
	})
}

// TestNoExecStaysInside: the noexec mount of a confined call is made in a
// mount namespace of the spawner's own; the host's mount table is unchanged
// (TestWorkspaceLibraryNotLoaded shows the mount is there for the command).
func TestNoExecStaysInside(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	requireNoExec(t, ws)
	k := modeKernel(t, ws, sandbox.BestEffort)
	before, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	res := mustRun(t, k, "echo", "ran")
	require.Equal(t, 0, res.ExitCode, res.Output)
	after, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the host's mount table changed")
	assert.NotContains(t, string(after), " "+ws+" ")
}

// TestWorkspaceSubmountLibraryNotLoaded: a file system mounted below the
// workspace (a volume, a tmpfs for build output) is part of it for
// Landlock, so it must be noexec for the command too. The bind mount of the
// workspace carries its submounts with their own flags, and only the top
// was remounted noexec: a library on the submount loaded. It also keeps a
// read-only submount read-only.
func TestWorkspaceSubmountLibraryNotLoaded(t *testing.T) {
	guarantee.AsRoot(t, "mounting a tmpfs below the workspace")
	lib := sharedLibrary(t)
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sub := filepath.Join(ws, "vol")
	require.NoError(t, os.Mkdir(sub, 0o755))
	if err := unix.Mount("toolgen-test", sub, "tmpfs", 0, "size=8m"); err != nil {
		guarantee.Missing(t, "cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(sub, unix.MNT_DETACH) })
	requireNoExec(t, ws) // after the mount: the spawner's namespace is made from the host's
	data, err := os.ReadFile(lib)
	require.NoError(t, err)
	evil := filepath.Join(sub, "evil.so")
	require.NoError(t, os.WriteFile(evil, data, 0o755))

	forModes(t, []sandbox.Mode{sandbox.Strict, sandbox.BestEffort}, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, ws, mode, WithEnv("LD_PRELOAD="+evil))
		res := mustRun(t, k, "echo", "ran")
		assert.Contains(t, res.Output, "ran")
		assert.Contains(t, res.Output, "failed to map segment", "a library on a submount of the workspace was mapped: %s", res.Output)
	})
}
