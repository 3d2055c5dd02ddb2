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
	probe := filepath.Join(dir, "probe-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return ""
	}
	os.Remove(probe)
	return dir
})

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

// callSeq numbers the cgroups of this process's calls.
var callSeq atomic.Uint64

// callCgroup is the pids cgroup of one call.
type callCgroup struct{ dir string }

// newCallCgroup makes a pids cgroup allowing max processes, or returns nil
// when there is no pids hierarchy to use.
func newCallCgroup(max int) (*callCgroup, error) {
	root := pidsRoot()
	if root == "" || max <= 0 {
		return nil, nil
	}
	dir := filepath.Join(root, strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(callSeq.Add(1), 10))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pids cgroup: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("pids cgroup: %w", err)
	}
	return &callCgroup{dir: dir}, nil
}

// openProcs opens the cgroup's cgroup.procs for writing: writing a pid to
// it moves that process in, and what it forks from then on is counted.
func (c *callCgroup) openProcs() (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(c.dir, "cgroup.procs"), os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("pids cgroup: %w", err)
	}
	return f, nil
}

// forkRefused reports that the cgroup refused a fork (pids.events "max").
func (c *callCgroup) forkRefused() bool {
	b, err := os.ReadFile(filepath.Join(c.dir, "pids.events"))
	if err != nil {
		return false
	}
	n, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "max ")
	return ok && n != "0"
}

// remove deletes the cgroup once its processes are gone (the kernel frees
// the last ones asynchronously, so it retries briefly).
func (c *callCgroup) remove() {
	for i := 0; i < 50; i++ {
		if err := os.Remove(c.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
