//go:build linux

package kernel

import (
	"bytes"
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

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// helperHostIn runs argv through a kernel on workspace ws (best-effort).
func helperHostIn(ws string, argv []string) int {
	k, err := New(ws, withPrograms, WithTimeout(time.Minute))
	if err != nil {
		fmt.Println(err)
		return 1
	}
	res, err := k.Run(context.Background(), argv)
	fmt.Println(res.Text(), err)
	return 0
}

// lookProcesses returns the pids of the git config looks running in ws.
func lookProcesses(ws string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if cwd == ws && bytes.Contains(cmd, []byte("--get-regexp")) {
			out = append(out, pid)
		}
	}
	return out
}

// TestGitLookDiesWithHost: the look at a repository's configuration is a
// process of the host's too, and must not outlive it. A configuration
// whose includes nest (eight levels, each file included 50 times) keeps
// git config parsing for ever; killed by SIGKILL, the host left it running
// as an orphan, a core busy, and the look's own timeout died with the host.
// It also runs under the kernel's memory limit and a CPU limit.
func TestGitLookDiesWithHost(t *testing.T) {
	guarantee.Program(t, "git")
	ws := gitRepo(t)
	for i := range 8 {
		body := fmt.Sprintf("[alias]\n\tx%d = log\n[include]\n", i)
		for range 50 {
			body += fmt.Sprintf("\tpath = c%d\n", i+1)
		}
		writeFile(t, ws, fmt.Sprintf(".git/c%d", i), body, 0o644)
	}
	writeFile(t, ws, ".git/c8", "[alias]\n\ty = log\n", 0o644)
	f, err := os.OpenFile(filepath.Join(ws, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("[include]\n\tpath = c0\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	t.Cleanup(func() {
		for _, pid := range lookProcesses(ws) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})

	self, err := os.Executable()
	require.NoError(t, err)
	host := exec.Command(self, "helper-host-in", ws, "git", "status")
	require.NoError(t, host.Start())
	var looks []int
	for deadline := time.Now().Add(10 * time.Second); len(looks) == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		looks = lookProcesses(ws)
	}
	require.NotEmpty(t, looks, "the look never started")
	require.NoError(t, host.Process.Signal(syscall.SIGKILL))
	_ = host.Wait()
	var left []int
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		if left = lookProcesses(ws); len(left) == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	assert.Empty(t, left, "the look outlived the host")
}

// TestGitLookLimited: the look runs under the kernel's memory limit, set
// before git runs.
func TestGitLookLimited(t *testing.T) {
	guarantee.Program(t, "git")
	ws := gitRepo(t)
	k := modeKernel(t, ws, sandbox.Off)
	git, err := exec.LookPath("git")
	require.NoError(t, err)
	// 4 MiB of address space is less than git's libraries: in place before
	// the dynamic loader runs, it makes the look fail (closed).
	small := *k
	small.limits.Memory = 4 << 20
	env := strings.Join(small.programEnv(git, []string{"status"}), "\n")
	require.NotEmpty(t, env, "the look ran unlimited")
	assert.Contains(t, env, "could not be checked")
}
