//go:build linux

package kernel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// helperReach tries what a command could do to process pid and prints
// one "name: ok" or "name: error" line per try, then "sockets: N", the
// sockets among its own descriptors.
func helperReach(arg string) int {
	pid, err := strconv.Atoi(arg)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	try := func(name string, err error) {
		if err == nil {
			fmt.Println(name + ": ok")
			return
		}
		fmt.Println(name+":", err)
	}
	try("kill", unix.Kill(pid, 0))
	fd, err := unix.PidfdOpen(pid, 0)
	if err == nil {
		unix.Close(fd)
	}
	try("pidfd_open", err)
	dir, err := unix.Open("/proc/"+arg, unix.O_DIRECTORY|unix.O_RDONLY, 0)
	if err == nil {
		err = unix.PidfdSendSignal(dir, 0, nil, 0)
		unix.Close(dir)
	}
	try("pidfd_send_signal", err)
	err = unix.PtraceSeize(pid)
	if err == nil {
		_ = unix.PtraceDetach(pid)
	}
	try("ptrace", err)
	mem, err := os.Open("/proc/" + arg + "/mem")
	if err == nil {
		mem.Close()
	}
	try("mem", err)
	n := 0
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	fmt.Println("sockets:", n)
	return 0
}

// currentSpawner returns the live spawner process, starting one.
func currentSpawner(t *testing.T) *spawnProc {
	t.Helper()
	p, err := liveSpawnProc()
	require.NoError(t, err)
	return p
}

// reachLines runs helper-reach on pid through k and returns its lines by
// name.
func reachLines(t *testing.T, k *Kernel, pid int) map[string]string {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	res := mustRun(t, k, self, "helper-reach", strconv.Itoa(pid))
	require.Equal(t, 0, res.ExitCode, res.Text())
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(res.Output), "\n") {
		name, v, _ := strings.Cut(line, ": ")
		out[name] = v
	}
	return out
}

// TestSpawnerUnreachable: nothing a call runs, in any mode, can signal,
// trace or open the spawner process, nor holds its socket; whatever the
// call can do to the spawner it could do to the host (no new way in).
// The spawner serves the next call unharmed.
func TestSpawnerUnreachable(t *testing.T) {
	if st, why := nsCurrent(); st == nsNone {
		guarantee.Missing(t, "no PID namespace here (%v): a call reaches the spawner as it reaches the host", why)
	}
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, t.TempDir(), mode, WithMemoryLimit(0)) // a Go program
		mustRun(t, k, "true")
		p := currentSpawner(t)
		spawner := reachLines(t, k, p.proc.Pid)
		host := reachLines(t, k, os.Getpid())
		for _, name := range []string{"kill", "pidfd_open", "pidfd_send_signal", "ptrace"} {
			assert.NotEqual(t, "ok", spawner[name], "%s reached the spawner process", name)
		}
		if spawner["mem"] == "ok" {
			assert.Equal(t, "ok", host["mem"], "the spawner's memory is open to the call, the host's is not")
		}
		assert.Equal(t, "0", spawner["sockets"], "the call holds a socket")
		assert.Same(t, p, currentSpawner(t), "the spawner process was replaced")
		require.NoError(t, syscall.Kill(p.proc.Pid, 0))
	})
}

// TestSpawnerKilledMidCall: a spawner process killed (SIGKILL) while a
// call runs takes the call with it; the call's Result says so (never a
// silent exit status), and the next call, in every mode, runs from a new
// spawner process.
func TestSpawnerKilledMidCall(t *testing.T) {
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, t.TempDir(), mode)
		mustRun(t, k, "true")
		p := currentSpawner(t)
		m := sleepMarker()
		go func() {
			waitSleeper(t, m)
			for { // the start answered: the call runs (a kill before is a failed start)
				p.mu.Lock()
				n := len(p.pending)
				p.mu.Unlock()
				if n == 0 {
					break
				}
				time.Sleep(time.Millisecond)
			}
			_ = p.proc.Signal(syscall.SIGKILL)
		}()
		res, err := k.Run(context.Background(), []string{"sleep", m})
		require.NoError(t, err)
		assert.Equal(t, 137, res.ExitCode, res.Text())
		assert.Contains(t, res.Notice, "spawner process ended during the call")
		assert.Contains(t, res.Notice, "killed")
		assertGone(t, m)
		next := mustRun(t, k, "echo", "again")
		assert.Equal(t, "again\n", next.Output)
		assert.Empty(t, next.Notice)
		assert.NotSame(t, p, currentSpawner(t), "the dead spawner process was not replaced")
	})
}

// TestSpawnerKilledBetweenCalls: a spawner process killed while idle is
// noticed and replaced: the next call runs as if nothing happened, and its
// guarantees are those of the new spawner.
func TestSpawnerKilledBetweenCalls(t *testing.T) {
	k := modeKernel(t, t.TempDir(), sandbox.Strict)
	mustRun(t, k, "true")
	p := currentSpawner(t)
	require.NoError(t, p.proc.Signal(syscall.SIGKILL))
	select {
	case <-p.dead:
	case <-time.After(5 * time.Second):
		t.Fatal("the spawner's death went unnoticed")
	}
	res := mustRun(t, k, "echo", "ran")
	assert.Equal(t, "ran\n", res.Output)
	assert.Empty(t, res.Notice)
	echo, err := k.resolve("echo")
	require.NoError(t, err)
	assert.Contains(t, k.Guarantees(echo).Spawner, "spawner process of toolgen's own")
	assert.NotSame(t, p, currentSpawner(t))
}

// TestNoSpawnerProcess: where the spawner process cannot be started, a
// call is forked from the host only with the missing guarantee said:
// Strict refuses it, best-effort and off run it with a warning, and
// Guarantees (what explain prints) names the path.
func TestNoSpawnerProcess(t *testing.T) {
	spawnProcs.Lock()
	saved, savedExe := spawnProcs.cur, spawnerExe
	spawnProcs.cur, spawnProcs.failed, spawnerExe = nil, nil, "/nonexistent/toolgen"
	spawnProcs.Unlock()
	defer func() {
		spawnProcs.Lock()
		spawnProcs.cur, spawnProcs.failed, spawnerExe = saved, nil, savedExe
		spawnProcs.Unlock()
	}()
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, t.TempDir(), mode)
		echo, err := k.resolve("echo")
		require.NoError(t, err)
		g := k.Guarantees(echo)
		assert.Contains(t, g.Spawner, "the agent's process itself: toolgen's spawner process could not be started")
		require.NotEmpty(t, g.Missing)
		assert.Contains(t, g.Missing[len(g.Missing)-1], "its own spawner process")
		res, err := k.Run(context.Background(), []string{echo, "ran"})
		if mode == sandbox.Strict {
			require.ErrorIs(t, err, ErrNotExecutable)
			assert.Equal(t, 126, res.ExitCode)
			assert.Contains(t, res.Output, "strict: not running without its own spawner process")
			return
		}
		require.NoError(t, err)
		assert.Equal(t, "ran\n", res.Output)
		assert.Contains(t, res.Notice, "warning: the call ran without its own spawner process")
	})
}

// TestSpawnerDiesWithHost: when the host dies by SIGKILL, its spawner
// process dies too (and with it the call: TestHostKilled).
func TestSpawnerDiesWithHost(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	m := sleepMarker()
	host := exec.Command(self, "helper-host", "off", "sleep", m)
	require.NoError(t, host.Start())
	waitSleeper(t, m)
	spawners := childrenNamed(host.Process.Pid, "toolgen-spawner")
	require.Len(t, spawners, 1, "the host has no spawner process")
	require.NoError(t, host.Process.Signal(syscall.SIGKILL))
	_ = host.Wait()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat("/proc/" + strconv.Itoa(spawners[0])); err != nil {
			break
		}
		require.True(t, time.Now().Before(deadline), "the spawner process outlived its host")
	}
	assertGone(t, m)
}

// childrenNamed returns the children of pid whose argv[0] is name.
func childrenNamed(pid int, name string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		c, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		cmd, err2 := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || err2 != nil {
			continue
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) && strings.TrimRight(string(cmd), "\x00") == name {
			out = append(out, c)
		}
	}
	return out
}
