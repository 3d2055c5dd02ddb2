//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/internal/guarantee"
)

// TestKeptFlags: a bind remount repeats read-only and the atime policy of
// the mount it covers, strictatime when the mount has neither noatime nor
// relatime.
func TestKeptFlags(t *testing.T) {
	for _, tc := range []struct {
		statfs int64
		want   uintptr
	}{
		{unix.ST_RELATIME, unix.MS_RELATIME},
		{unix.ST_RDONLY | unix.ST_RELATIME, unix.MS_RDONLY | unix.MS_RELATIME},
		{unix.ST_NOATIME | unix.ST_NODIRATIME, unix.MS_NOATIME | unix.MS_NODIRATIME},
		{0, unix.MS_STRICTATIME},
		{unix.ST_RDONLY | unix.ST_NOSUID | unix.ST_NODEV, unix.MS_RDONLY | unix.MS_STRICTATIME},
		{stNoSymFollow | unix.ST_RELATIME, unix.MS_NOSYMFOLLOW | unix.MS_RELATIME},
	} {
		assert.Equal(t, tc.want, keptFlags(tc.statfs), "statfs flags %#x", tc.statfs)
	}
}

// TestNoExecAvailableNamesTheCause: where no mount namespace can be made,
// the answer says why; where one can, a read-only workspace keeps being
// read-only (the remount repeats its flags) and the host is left as it was.
func TestNoExecAvailableNamesTheCause(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile("/proc/self/mountinfo")
	ok, why := NoExecAvailable(dir)
	after, _ := os.ReadFile("/proc/self/mountinfo")
	assert.Equal(t, string(before), string(after), "the trial changed the host's mounts")
	if !ok {
		assert.True(t, strings.Contains(why, "noexec workspace"), "why: %q", why)
		return
	}
	again, _ := NoExecAvailable(dir)
	assert.True(t, again)
	ok, why = NoExecAvailable(filepath.Join(dir, "missing"))
	assert.False(t, ok)
	assert.Contains(t, why, "no such file")
}

// TestNoExecSubmounts: the mounts below the workspace are made noexec,
// nosuid and nodev with it, and keep their other flags (read-only,
// nosymfollow), through mount_setattr and through the remount fallback
// used where it is missing; the host's mounts are left as they were.
func TestNoExecSubmounts(t *testing.T) {
	guarantee.AsRoot(t, "mounting a tmpfs, and the noexec workspace outside a call's user namespace")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := NoExecAvailable(dir); !ok {
		guarantee.Missing(t, "%s", why)
	}
	rw, ro := filepath.Join(dir, "rw"), filepath.Join(dir, "a b", "ro")
	for _, p := range []string{rw, ro} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Mount("toolgen-test", rw, "tmpfs", 0, "size=1m"); err != nil {
		guarantee.Missing(t, "cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(rw, unix.MNT_DETACH) })
	if err := unix.Mount("toolgen-test", ro, "tmpfs", unix.MS_RDONLY|unix.MS_NOSYMFOLLOW, "size=1m"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Unmount(ro, unix.MNT_DETACH) })

	const noExec = unix.ST_NOEXEC | unix.ST_NOSUID | unix.ST_NODEV
	for _, fallback := range []bool{false, true} {
		t.Run(map[bool]string{false: "mount_setattr", true: "remount"}[fallback], func(t *testing.T) {
			if fallback {
				old := mountSetattr
				mountSetattr = func(int, string, uint, *unix.MountAttr) error { return unix.ENOSYS }
				defer func() { mountSetattr = old }()
			}
			before, _ := os.ReadFile("/proc/self/mountinfo")
			got := make(chan map[string]int64, 1)
			GoThread(func() {
				m := map[string]int64{}
				if err := NoExecWorkspace(dir); err != nil {
					t.Error(err)
				}
				for _, p := range []string{dir, rw, ro} {
					var st unix.Statfs_t
					if err := unix.Statfs(p, &st); err != nil {
						t.Error(err)
					}
					m[p] = st.Flags
				}
				got <- m
			})
			m := <-got
			for _, p := range []string{dir, rw, ro} {
				assert.Equal(t, int64(noExec), m[p]&noExec, "%s: flags %#x", p, m[p])
			}
			assert.Zero(t, m[rw]&unix.ST_RDONLY, "rw became read-only")
			assert.NotZero(t, m[ro]&unix.ST_RDONLY, "ro lost read-only")
			assert.NotZero(t, m[ro]&stNoSymFollow, "ro lost nosymfollow")
			after, _ := os.ReadFile("/proc/self/mountinfo")
			assert.Equal(t, string(before), string(after), "the host's mounts changed")
		})
	}
}
