//go:build linux

package kernel

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// The attack tests run real processes against a kernel in each mode. The
// modes that need Landlock are skipped where it cannot enforce the policy.
var allModes = []sandbox.Mode{sandbox.Strict, sandbox.BestEffort, sandbox.Off}

// modeKernel returns a kernel in mode on workspace, or skips a Landlock
// mode where Landlock cannot enforce every policy.
func modeKernel(t *testing.T, ws string, mode sandbox.Mode, opts ...Option) *Kernel {
	t.Helper()
	if _, ok := sandbox.Available(); mode != sandbox.Off && !ok {
		guarantee.Missing(t, "%v: Landlock cannot enforce the policies here", mode)
	}
	k, err := New(ws, append([]Option{withPrograms, WithConfinement(mode)}, opts...)...)
	require.NoError(t, err)
	return k
}

// forModes runs f once per mode, as a subtest named for it.
func forModes(t *testing.T, modes []sandbox.Mode, f func(t *testing.T, mode sandbox.Mode)) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) { f(t, mode) })
	}
}

// gitRepo makes a git repository with one commit in a fresh directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	writeFile(t, ws, "a.txt", "alpha\n", 0o644)
	for _, args := range [][]string{{"init", "-q", "."}, {"add", "."}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		cmd.Env = []string{"PATH=" + DefaultPath, "HOME=" + ws, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x"}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return ws
}

// TestChildsWorld: HOME and the XDG directories are the kernel's empty
// private directory, not the workspace, in every mode; a repository's
// tracked .gitconfig is not git's global configuration; the cwd is the
// workspace; the null device, /dev/zero and /dev/urandom work.
func TestChildsWorld(t *testing.T) {
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		ws := gitRepo(t)
		writeFile(t, ws, ".gitconfig", "[user]\n\tname = planted-by-the-repository\n[alias]\n\tst = !echo pw''ned\n", 0o644)
		k := modeKernel(t, ws, mode)
		require.NotEqual(t, ws, k.Home())
		for _, key := range homeKeys {
			res := mustRun(t, k, "printenv", key)
			assert.Equal(t, k.Home()+"\n", res.Output, key)
		}
		res := mustRun(t, k, "pwd")
		assert.Equal(t, ws+"\n", res.Output)
		res = mustRun(t, k, "ls", "-A", k.Home())
		assert.Equal(t, "exit: 0\noutput: ", res.Text(), "HOME is empty")

		res = mustRun(t, k, "git", "config", "user.name")
		assert.NotContains(t, res.Output, "planted")
		res = mustRun(t, k, "git", "st")
		assert.NotContains(t, res.Output, "pwned")

		for _, argv := range [][]string{
			{"head", "-c", "4", "/dev/zero"},
			{"head", "-c", "4", "/dev/urandom"},
			{"cat", "/dev/null"},
			{"cp", "a.txt", "/dev/null"},
		} {
			res := mustRun(t, k, argv...)
			assert.Equal(t, 0, res.ExitCode, "%q: %s", argv, res.Text())
			assert.Empty(t, res.Notice, argv)
		}
	})
}

// TestHomeNotWritable: a confined command, even a writing one, cannot plant
// a configuration file in HOME for the next call.
func TestHomeNotWritable(t *testing.T) {
	forModes(t, []sandbox.Mode{sandbox.Strict, sandbox.BestEffort}, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, t.TempDir(), mode).WithAccess(Access{Write: true})
		res := mustRun(t, k, "touch", filepath.Join(k.Home(), ".gitconfig"))
		assert.NotEqual(t, 0, res.ExitCode, res.Text())
		_, err := os.Stat(filepath.Join(k.Home(), ".gitconfig"))
		assert.True(t, os.IsNotExist(err), "a confined command wrote in HOME")
		res = mustRun(t, k, "touch", "inside-the-workspace")
		assert.Equal(t, 0, res.ExitCode, res.Text())
	})
}

// TestExecuteSet: a granted program cannot start another one, whatever
// trick it is asked to use, under Landlock; the same commands unconfined
// show that each attack is real.
func TestExecuteSet(t *testing.T) {
	attacks := [][]string{
		{"find", ".", "-maxdepth", "0", "-exec", "/bin/sh", "-c", "echo pw''ned", ";"},
		{"env", "sh", "-c", "echo pw''ned"},
		{"xargs", "sh", "-c", "echo pw''ned"},
		{"git", "-c", "core.fsmonitor=echo pw''ned >&2; false", "status", "--short"},
		{"git", "-c", "alias.x=!echo pw''ned", "x"},
		{"nice", "sh", "-c", "echo pw''ned"},
		{"timeout", "5", "sh", "-c", "echo pw''ned"},
	}
	for _, wrapper := range []string{"x86_64", "setarch", "linux64", "prlimit", "nohup", "stdbuf"} {
		if p, err := exec.LookPath(wrapper); err == nil && strings.HasPrefix(p, "/usr/") || err == nil && strings.HasPrefix(p, "/bin/") {
			switch wrapper {
			case "setarch":
				attacks = append(attacks, []string{wrapper, "x86_64", "sh", "-c", "echo pw''ned"})
			case "stdbuf":
				attacks = append(attacks, []string{wrapper, "-o0", "sh", "-c", "echo pw''ned"})
			default:
				attacks = append(attacks, []string{wrapper, "sh", "-c", "echo pw''ned"})
			}
		}
	}
	ws := gitRepo(t)
	off := modeKernel(t, ws, sandbox.Off)
	for _, argv := range attacks {
		res := mustRun(t, off, argv...)
		assert.Contains(t, res.Output, "pwned", "%q does not attack anything: fix the test", argv)
	}
	forModes(t, []sandbox.Mode{sandbox.Strict, sandbox.BestEffort}, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, ws, mode)
		for _, argv := range attacks {
			res := mustRun(t, k, argv...)
			assert.NotContains(t, res.Output, "pwned", "%q", argv)
			assert.Contains(t, strings.ToLower(res.Output), "permission denied", "%q: %s", argv, res.Text())
		}
		// The granted program itself runs, and git still works.
		res := mustRun(t, k, "git", "log", "--oneline")
		assert.Contains(t, res.Output, "first", res.Text())
		res = mustRun(t, k, "find", ".", "-name", "a.txt")
		assert.Equal(t, "./a.txt\n", res.Output, res.Text())
	})
}

// TestLoaderCannotLoadAShell: the dynamic loader is in every execute set
// (a dynamic program needs it), and it will run any ELF file it can read;
// the shells and interpreters of the system's program directories are not
// readable, so it cannot load one of them.
func TestLoaderCannotLoadAShell(t *testing.T) {
	ws := t.TempDir()
	k := modeKernel(t, ws, sandbox.Strict)
	find, err := k.LookPath("find")
	require.NoError(t, err)
	loader := loadInterp(find).elf
	if loader == "" {
		t.Skip("find is not dynamically linked here")
	}
	sh, err := k.LookPath("sh")
	require.NoError(t, err)
	res := mustRun(t, modeKernel(t, ws, sandbox.Off), "find", ".", "-maxdepth", "0", "-exec", loader, sh, "-c", "echo pw''ned", ";")
	require.Contains(t, res.Output, "pwned", "the attack does not work unconfined: fix the test")
	res = mustRun(t, k, "find", ".", "-maxdepth", "0", "-exec", loader, sh, "-c", "echo pw''ned", ";")
	assert.NotContains(t, res.Output, "pwned")
}

// TestLoaderWorkspaceELF: the dynamic loader, which a confined command may
// execute, maps the program it is given without an execute check, so a
// granted program that executes its arguments could run an ELF file of the
// workspace through it (Landlock checks execve, not mmap). The workspace
// is mounted noexec for the command (as root and as an ordinary user), so
// the loader cannot map it; where that cannot be done, strict refuses the
// call.
func TestLoaderWorkspaceELF(t *testing.T) {
	ws := t.TempDir()
	k := modeKernel(t, ws, sandbox.Strict)
	find, err := k.LookPath("find")
	require.NoError(t, err)
	loader := loadInterp(find).elf
	echo, err := k.LookPath("echo")
	require.NoError(t, err)
	if loader == "" || loadInterp(echo).elf == "" {
		t.Skip("not dynamically linked here")
	}
	b, err := os.ReadFile(echo)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "payload"), b, 0o644))
	argv := []string{"find", ".", "-maxdepth", "0", "-exec", loader, "./payload", "ran-from-the-workspace", ";"}
	res := mustRun(t, modeKernel(t, ws, sandbox.Off), argv...)
	require.Contains(t, res.Output, "ran-from-the-workspace", "the attack does not work unconfined: fix the test")
	if g := k.Guarantees(find); len(g.Missing) > 0 {
		// Strict refuses what it cannot guarantee.
		res, err := k.Run(context.Background(), argv)
		require.ErrorIs(t, err, ErrNotExecutable)
		assert.Contains(t, res.Output, "strict: not running without")
		assert.NotContains(t, res.Output, "ran-from-the-workspace")
		return
	}
	res = mustRun(t, k, argv...)
	assert.NotContains(t, res.Output, "ran-from-the-workspace")
	assert.Contains(t, res.Output, "failed to map segment")
}

// TestScriptRefusedConfined: a script cannot run confined (its interpreter
// is never executable), and the refusal says why instead of a bare
// "Permission denied"; unconfined it runs.
func TestScriptRefusedConfined(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "s.sh", "#!/bin/sh\necho ran\n", 0o755)
	script := filepath.Join(ws, "s.sh")
	k := modeKernel(t, ws, sandbox.Strict)
	res, err := k.Run(context.Background(), []string{script})
	require.ErrorIs(t, err, ErrNotExecutable)
	assert.Equal(t, 126, res.ExitCode)
	assert.Contains(t, res.Output, "is a script for /bin/sh")
	res = mustRun(t, modeKernel(t, ws, sandbox.Off), script)
	assert.Equal(t, "ran\n", res.Output)
}

// escapeArgv is a command that leaves the call's session by a double fork
// and setsid, leaving a process found by marker, then prints "escaped" and
// exits (or, with wait, sleeps): the real setsid and sleep unconfined, this
// test binary confined (a confined command may execute only its own
// program).
func escapeArgv(t *testing.T, mode sandbox.Mode, marker string, wait bool) []string {
	if mode == sandbox.Off {
		then := "echo escaped"
		if wait {
			then += "; sleep 60"
		}
		return []string{"sh", "-c", "setsid -f sleep " + marker + "; (sleep " + marker + " &) ; " + then}
	}
	self, err := os.Executable()
	require.NoError(t, err)
	argv := []string{self, "helper-escape", marker}
	if wait {
		argv = append(argv, "wait")
	}
	return argv
}

// TestNothingOutlivesTheCall: setsid -f, a double fork and a background
// loop all die with the call, when it returns, times out or is cancelled.
func TestNothingOutlivesTheCall(t *testing.T) {
	if !strings.Contains(DescendantControl(), "PID namespace per call") {
		guarantee.Missing(t, "%s", DescendantControl())
	}
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		t.Parallel()
		// No memory cap: the helper is this test binary, which under the
		// race detector reserves terabytes of address space. The timeout
		// is shorter than the escaped sleeper's life, so a Run that waited
		// for it times out.
		k := modeKernel(t, t.TempDir(), mode, WithTimeout(60*time.Second), WithMemoryLimit(0))
		m := sleepMarker()
		res := mustRun(t, k, escapeArgv(t, mode, m, false)...)
		assert.Contains(t, res.Output, "escaped", res.Text())
		assert.False(t, res.TimedOut, "Run waited for the escaped process: %s", res.Text())
		assertGone(t, m)

		if mode == sandbox.Off {
			m = sleepMarker()
			res = mustRun(t, k, "bash", "-c", "while :; do sleep "+m+"; done & disown; echo started")
			assert.Contains(t, res.Output, "started")
			assertGone(t, m)
		}

		// After the timeout (confined, the helper takes seconds to start
		// under the race detector on a loaded machine: slow).
		// The timeout must fall after the escape: on a loaded machine the
		// helper may not have escaped yet, so the call is made again with
		// twice the timeout until it has.
		if mode == sandbox.Off || !testing.Short() {
			timeout := time.Second
			if mode != sandbox.Off {
				timeout = 4 * time.Second
			}
			for ; ; timeout *= 2 {
				short := modeKernel(t, t.TempDir(), mode, WithTimeout(timeout), WithMemoryLimit(0))
				m = sleepMarker()
				res = mustRun(t, short, escapeArgv(t, mode, m, true)...)
				assert.True(t, res.TimedOut, res.Text())
				assertGone(t, m)
				if strings.Contains(res.Output, "escaped") {
					break
				}
				require.Less(t, timeout, 30*time.Second, "the helper did not escape before a %v timeout: %s", timeout, res.Text())
			}
		}

		// After the caller's context is cancelled.
		m = sleepMarker()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		type outcome struct {
			res Result
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			res, err := k.Run(ctx, escapeArgv(t, mode, m, true))
			done <- outcome{res, err}
		}()
		var o outcome
	wait:
		for deadline := time.Now().Add(45 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			select {
			case o = <-done:
				t.Fatalf("the call ended before it was cancelled: %v\n%s", o.err, o.res.Text())
			default:
			}
			switch {
			case len(pidsWhere(m, true)) > 0:
				break wait
			case time.Now().After(deadline):
				cancel()
				o = <-done
				t.Fatalf("no escaped sleeper appeared: %v\n%s", o.err, o.res.Text())
			}
		}
		cancel()
		o = <-done
		require.ErrorIs(t, o.err, context.Canceled)
		assert.Equal(t, 137, o.res.ExitCode)
		assertGone(t, m)
	})
}

// TestHostKilled: when the process that runs the kernel dies by SIGKILL,
// the command and what it left running (setsid included) die too.
func TestHostKilled(t *testing.T) {
	if !strings.Contains(DescendantControl(), "PID namespace per call") {
		guarantee.Missing(t, "%s", DescendantControl())
	}
	self, err := os.Executable()
	require.NoError(t, err)
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		if _, ok := sandbox.Available(); mode != sandbox.Off && !ok {
			guarantee.Missing(t, "no Landlock")
		}
		m := sleepMarker()
		argv := escapeArgv(t, mode, m, true)
		host := exec.Command(self, append([]string{"helper-host", mode.String()}, argv...)...)
		require.NoError(t, host.Start())
		waitSleeper(t, m)
		require.NoError(t, host.Process.Signal(syscall.SIGKILL))
		_ = host.Wait()
		assertGone(t, m)
	})
}

// TestMemoryLimit: sed on a huge single-line file stops at the memory cap,
// with the reason in the Result; the host is untouched.
func TestMemoryLimit(t *testing.T) {
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		ws := t.TempDir()
		f, err := os.Create(filepath.Join(ws, "big"))
		require.NoError(t, err)
		require.NoError(t, f.Truncate(1<<30)) // sparse: 1 GiB of NULs, one line
		require.NoError(t, f.Close())
		// 256 MiB: the peak RSS the kernel sees includes the host's at the
		// fork (see limitReason), some 50 MiB for a race-enabled test.
		k := modeKernel(t, ws, mode, WithMemoryLimit(256<<20))
		res := mustRun(t, k, "sed", "-n", "1p", "big")
		// GNU sed 4.9 exits 0 with no output when its line buffer cannot
		// grow: the reason must say what happened anyway.
		assert.Contains(t, res.Limit, "near the memory limit 256 MiB", res.Text())
		assert.Contains(t, res.Text(), "\n[memory: peak ")
		res = mustRun(t, k, "sed", "-n", "1p", "/dev/null")
		assert.Equal(t, "exit: 0\noutput: ", res.Text(), "a small job fits")
	})
}

// TestCPULimit: a CPU burner ends at the CPU cap, well before the timeout,
// with the reason in the Result.
func TestCPULimit(t *testing.T) {
	modes := allModes
	if testing.Short() {
		modes = []sandbox.Mode{sandbox.BestEffort}
	}
	forModes(t, modes, func(t *testing.T, mode sandbox.Mode) {
		t.Parallel()
		// The timeout is far away: on a loaded machine a second of CPU
		// can take many seconds of wall time.
		k := modeKernel(t, t.TempDir(), mode, WithCPULimit(time.Second), WithTimeout(2*time.Minute))
		res := mustRun(t, k, "bash", "-c", "while :; do :; done")
		assert.False(t, res.TimedOut)
		assert.Equal(t, "cpu time limit 1s exceeded", res.Limit, res.Text())
		assert.Contains(t, res.Text(), "\n[cpu time limit 1s exceeded]")
	})
}

// TestForkBombBounded: a fork bomb gets no more processes than the cap, the
// Result says so, and nothing of it is left after the call.
func TestForkBombBounded(t *testing.T) {
	if e := ProcessLimitEnforcement(); strings.HasPrefix(e, "not enforced") {
		guarantee.Missing(t, "%s", e)
	}
	modes := allModes
	if testing.Short() { // each mode takes the 3 s timeout
		modes = []sandbox.Mode{sandbox.BestEffort}
	}
	forModes(t, modes, func(t *testing.T, mode sandbox.Mode) {
		t.Parallel()
		k := modeKernel(t, t.TempDir(), mode, WithProcessLimit(24), WithTimeout(3*time.Second))
		// The leader spins until the timeout, so the bomb has time to grow.
		res := mustRun(t, k, "bash", "-c", ":(){ :|:& };:; while :; do :; done")
		assert.Contains(t, res.Limit, "process limit 24 reached", res.Text())
	})
}

// TestNonRoot runs the kernel as an unprivileged user (this test binary,
// copied where that user can run it, as uid 65534): the call gets a user
// and PID namespace of its own, so a setsid escape dies with it, and
// RLIMIT_NPROC, counted in that namespace, caps its processes.
func TestNonRoot(t *testing.T) {
	guarantee.AsRoot(t, "starting a process as another user")
	self, err := os.Executable()
	require.NoError(t, err)
	dir, err := os.MkdirTemp("", "kernel-nonroot-bin-*") // t.TempDir's parent is 0700
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	b, err := os.ReadFile(self)
	require.NoError(t, err)
	bin := filepath.Join(dir, "kernel.test")
	require.NoError(t, os.WriteFile(bin, b, 0o755))
	m := sleepMarker()
	cmd := exec.Command(bin, "helper-nonroot", m)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + DefaultPath, "TMPDIR=/tmp"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	text := string(out)
	t.Log(text)
	if strings.Contains(text, "process group only") {
		guarantee.Missing(t, "unprivileged user namespaces are not available here:\n%s", text)
	}
	assert.Contains(t, text, "descendants: user and PID namespace per call")
	assert.Contains(t, text, "process cap: RLIMIT_NPROC in the call's own user namespace")
	assert.Contains(t, text, "escape-ran")
	assertGone(t, m)
	assert.Contains(t, text, "Resource temporarily unavailable", "40 forks under a cap of 24 all succeeded")
	if _, ok := sandbox.Available(); ok {
		assert.Regexp(t, `strict: exit: 126\noutput: \S*env: .sh.: Permission denied`, text)
		assert.NotContains(t, text, "pwned")
	}
}

// TestMemoryReasonIgnoresTheHost: a host whose own peak resident size is
// past the judgement threshold (a long-running server can be) does not
// make every small command look like it hit the memory limit: the child's
// ru_maxrss starts from the host's, and only a peak above it counts.
func TestMemoryReasonIgnoresTheHost(t *testing.T) {
	ballast := make([]byte, 160<<20)
	for i := range ballast {
		ballast[i] = 1 // resident, not only reserved
	}
	k := newKernel(t, WithMemoryLimit(256<<20)) // threshold 40 %: ~102 MiB
	res := mustRun(t, k, "echo", "hi")
	assert.Empty(t, res.Limit, res.Text())
	assert.Equal(t, "exit: 0\noutput: hi\n", res.Text())
	runtime.KeepAlive(ballast)
}
