//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/unix"
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
