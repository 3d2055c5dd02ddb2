//go:build linux

package kernel

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// pidsRoot is the directory under which calls get a pids cgroup of their
// own (cgroup v1 pids hierarchy, this process's cgroup in it, then
// "toolgen"), or "" when there is none this process may create groups in.
// It is what bounds a call's process count as root, whom RLIMIT_NPROC does
// not bind. (A delegated cgroup v2 subtree is not used yet.)
var pidsRoot = sync.OnceValue(func() string {
	const mount = "/sys/fs/cgroup/pids"
	if _, err := os.Stat(filepath.Join(mount, "cgroup.procs")); err != nil {
		return ""
	}
	own := ownCgroup("pids")
	dir := filepath.Join(mount, own, "toolgen")
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return ""
	}
	removeStale(dir)
	// PID-probe, so that removeStale takes it when a kill left it behind.
	probe := filepath.Join(dir, strconv.Itoa(os.Getpid())+"-probe")
	if err := os.Mkdir(probe, 0o755); err != nil {
		return ""
	}
	os.Remove(probe)
	return dir
})

// removeStale removes the idle cgroups that processes no longer running
// left in dir (PID-SEQ, PID-probe), as a killed host does, and the
// probe-PID ones of earlier versions.
func removeStale(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		pid, rest, ok := strings.Cut(e.Name(), "-")
		if pid == "probe" {
			pid = rest
		}
		if n, err := strconv.Atoi(pid); ok && err == nil && n != os.Getpid() {
			if _, err := os.Stat("/proc/" + pid); errors.Is(err, os.ErrNotExist) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}

// ownCgroup returns this process's cgroup path in the v1 hierarchy of
// controller, "/" when not found.
func ownCgroup(controller string) string {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "/"
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) == 3 && parts[1] == controller {
			return parts[2]
		}
	}
	return "/"
}

// cgroupSeq numbers the cgroups of this process's spawners.
var cgroupSeq atomic.Uint64

// threadCgroup is the pids cgroup of one spawner thread. The thread joins
// it before it forks anything, so every process it starts is born inside
// (a cgroup v1 controller takes single threads, and a fork lands in the
// cgroup of the thread that forks): no per-call attach, which costs a
// fraction of a millisecond on cgroup v1.
type threadCgroup struct {
	dir    string
	events *os.File // pids.events, kept open: read twice per call
}

// newThreadCgroup makes a pids cgroup for one spawner whose children may
// have max processes at once, or returns nil when there is no pids
// hierarchy to use. The spawner thread counts as one.
func newThreadCgroup(max int) (*threadCgroup, error) {
	if max <= 0 {
		return nil, nil
	}
	c, err := makeThreadCgroup()
	if c == nil || err != nil {
		return nil, err
	}
	if err := c.setMax(max); err != nil {
		c.events.Close()
		os.Remove(c.dir)
		return nil, err
	}
	return c, nil
}

// makeThreadCgroup makes a pids cgroup for one spawner with no limit set
// yet (setMax sets it), or returns nil when there is no pids hierarchy to
// use.
func makeThreadCgroup() (*threadCgroup, error) {
	root := pidsRoot()
	if root == "" {
		return nil, nil
	}
	dir := filepath.Join(root, strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(cgroupSeq.Add(1), 10))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pids cgroup: %w", err)
	}
	events, err := os.Open(filepath.Join(dir, "pids.events"))
	if err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("pids cgroup: %w", err)
	}
	return &threadCgroup{dir: dir, events: events}, nil
}

// setMax lets the spawner's children have max processes at once (the
// spawner thread counts as one). It must run before the spawner forks.
func (c *threadCgroup) setMax(max int) error {
	if err := os.WriteFile(filepath.Join(c.dir, "pids.max"), []byte(strconv.Itoa(max+1)), 0); err != nil {
		return fmt.Errorf("pids cgroup: %w", err)
	}
	return nil
}

// join moves the calling thread into the cgroup. It writes "0" (the
// writer itself), not its thread id: for any id the kernel takes the
// global threadgroup lock, whose write side waits for an RCU grace period
// (~10 ms when no other move happened lately), while a thread moving
// itself cannot exit or exec meanwhile, so the kernel skips that lock
// (cgroup_procs_write_start; the move then costs ~0.1 ms).
func (c *threadCgroup) join() error {
	err := os.WriteFile(filepath.Join(c.dir, "tasks"), []byte("0"), 0)
	if err != nil {
		return fmt.Errorf("pids cgroup: %w", err)
	}
	return nil
}

// refusals is the cgroup's count of refused forks (pids.events "max").
func (c *threadCgroup) refusals() uint64 {
	if c == nil {
		return 0
	}
	var buf [64]byte
	m, _ := c.events.ReadAt(buf[:], 0)
	n, _ := strings.CutPrefix(strings.TrimSpace(string(buf[:m])), "max ")
	v, _ := strconv.ParseUint(n, 10, 64)
	return v
}

// remove deletes the cgroup once its thread and processes are gone (the
// kernel frees them asynchronously, so it retries for a while).
func (c *threadCgroup) remove() {
	c.events.Close()
	for i := 0; i < 100; i++ {
		if err := os.Remove(c.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
