//go:build linux

package kernel

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/internal/guarantee"
)

// deadPID returns the id of a process that has exited and been reaped.
func deadPID(t testing.TB) string {
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	pid := strconv.Itoa(cmd.Process.Pid)
	if _, err := os.Stat("/proc/" + pid); err == nil {
		t.Skipf("pid %s was reused at once", pid)
	}
	return pid
}

// TestRemoveStale: the cgroups of processes that are gone are removed,
// probes included (a kill between a probe's mkdir and rmdir left them);
// those of running processes, this one's, and foreign names stay.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	dead, live, own := deadPID(t), strconv.Itoa(os.Getppid()), strconv.Itoa(os.Getpid())
	gone := []string{dead + "-1", dead + "-probe", "probe-" + dead}
	kept := []string{live + "-2", own + "-3", own + "-probe", "probe-" + own, "other", "x-1"}
	for _, n := range append(append([]string{}, gone...), kept...) {
		require.NoError(t, os.Mkdir(filepath.Join(dir, n), 0o755))
	}
	removeStale(dir)
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	assert.ElementsMatch(t, kept, left)
}

// lockedThread runs f on a locked OS thread that exits afterwards (so a
// thread moved into a cgroup does not go back to the runtime's pool).
func lockedThread(f func()) {
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		defer close(done)
		f()
	}()
	<-done
}

// TestThreadCgroupJoin: join moves the calling thread, and only it, into
// the cgroup.
func TestThreadCgroupJoin(t *testing.T) {
	guarantee.AsRoot(t, "only root writes the pids cgroup hierarchy")
	if pidsRoot() == "" {
		guarantee.Missing(t, "no writable pids cgroup hierarchy here")
	}
	c, err := makeThreadCgroup()
	require.NoError(t, err)
	require.NotNil(t, c)
	defer c.remove()
	var tid int
	var tasks []byte
	lockedThread(func() {
		tid = unix.Gettid()
		require.NoError(t, c.join())
		tasks, err = os.ReadFile(filepath.Join(c.dir, "tasks"))
	})
	require.NoError(t, err)
	assert.Equal(t, []string{strconv.Itoa(tid)}, strings.Fields(string(tasks)))
}

// BenchmarkThreadCgroupJoin compares join (the thread writes "0") with
// writing its thread id, which makes the kernel wait for an RCU grace
// period (cgroup v1).
func BenchmarkThreadCgroupJoin(b *testing.B) {
	if pidsRoot() == "" {
		b.Skip("no writable pids cgroup hierarchy here")
	}
	for _, v := range []struct {
		name string
		join func(*threadCgroup) error
	}{
		{"self", (*threadCgroup).join},
		{"tid", func(c *threadCgroup) error {
			return os.WriteFile(filepath.Join(c.dir, "tasks"), []byte(strconv.Itoa(unix.Gettid())), 0)
		}},
	} {
		b.Run(v.name, func(b *testing.B) {
			var d time.Duration
			for b.Loop() {
				c, err := makeThreadCgroup()
				if err != nil || c == nil {
					b.Fatal(err)
				}
				lockedThread(func() {
					start := time.Now()
					if err := v.join(c); err != nil {
						b.Error(err)
					}
					d += time.Since(start)
				})
				c.remove()
			}
			b.ReportMetric(float64(d.Microseconds())/float64(b.N), "join-µs")
		})
	}
}
