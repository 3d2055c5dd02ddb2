//go:build unix

package kernel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunEcho(t *testing.T) {
	k := newKernel(t)
	res := mustRun(t, k, "echo", "hello", "world")
	assertText(t, res, "exit: 0\noutput: hello world\n")
	if !filepath.IsAbs(res.Argv[0]) || filepath.Base(res.Argv[0]) != "echo" {
		t.Errorf("Argv[0] = %q, want the absolute path of echo", res.Argv[0])
	}
	if !slices.Equal(res.Argv[1:], []string{"hello", "world"}) {
		t.Errorf("Argv = %q", res.Argv)
	}
	if res.Duration <= 0 || res.Timeout != DefaultTimeout {
		t.Errorf("Duration, Timeout = %v, %v", res.Duration, res.Timeout)
	}
}

func TestRunNoShell(t *testing.T) {
	k := newKernel(t)
	res := mustRun(t, k, "printf", "%s|%s\n", "$HOME `id` *", "a; b && c > d")
	assertText(t, res, "exit: 0\noutput: $HOME `id` *|a; b && c > d\n")
}

func TestRunCwdIsWorkspace(t *testing.T) {
	k := newKernel(t)
	assertText(t, mustRun(t, k, "pwd"), "exit: 0\noutput: "+k.Workspace()+"\n")
}

func TestRunRelativePathAgainstWorkspace(t *testing.T) {
	k := newKernel(t)
	script := writeFile(t, k.Workspace(), "bin/hello.sh", "#!/bin/sh\necho hi from $0\n", 0o755)
	res := mustRun(t, k, "bin/hello.sh")
	assertText(t, res, "exit: 0\noutput: hi from "+script+"\n")
	if res.Argv[0] != script {
		t.Errorf("Argv[0] = %q, want %q", res.Argv[0], script)
	}
}

func TestRunEnvScrubbed(t *testing.T) {
	t.Setenv("TOOLGEN_KERNEL_CANARY", "leaked")
	k := newKernel(t, WithEnv("EXTRA=1"))
	res := mustRun(t, k, "env")
	got := lines(res.Output)
	slices.Sort(got)
	want := k.Env()
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("child env = %q, want exactly %q", got, want)
	}
	if strings.Contains(res.Output, "CANARY") {
		t.Error("host environment leaked into the child")
	}
}

func TestRunStdinIsDevNull(t *testing.T) {
	k := newKernel(t, WithTimeout(5*time.Second))
	res := mustRun(t, k, "cat")
	assertText(t, res, "exit: 0\noutput: ")
	if res.Duration > 2*time.Second {
		t.Errorf("cat took %v: stdin is not at EOF", res.Duration)
	}
	if runtime.GOOS == "linux" {
		assertText(t, mustRun(t, k, "readlink", "/proc/self/fd/0"), "exit: 0\noutput: "+os.DevNull+"\n")
	}
}

func TestRunInterleavesStdoutAndStderr(t *testing.T) {
	k := newKernel(t)
	res := mustRun(t, k, "sh", "-c", "echo out1; echo err1 >&2; echo out2; echo err2 >&2; printf out3")
	assertText(t, res, "exit: 0\noutput: out1\nerr1\nout2\nerr2\nout3")
}

func TestRunExitCodes(t *testing.T) {
	k := newKernel(t)
	ws := k.Workspace()
	writeFile(t, ws, "data.txt", "not a program\n", 0o644)
	writeFile(t, ws, "noexec.sh", "#!/bin/sh\necho x\n", 0o644)
	writeFile(t, ws, "badinterp.sh", "#!/nonexistent/interp\n", 0o755)
	writeFile(t, ws, "garbage.bin", "\x00\x01\x02 not a program\n", 0o755)
	if err := os.Mkdir(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		argv    []string
		code    int
		wantErr error // nil: Run must not fail
		output  string
	}{
		{"true", []string{"true"}, 0, nil, ""},
		{"false", []string{"false"}, 1, nil, ""},
		{"exit 3", []string{"sh", "-c", "echo bye; exit 3"}, 3, nil, "bye\n"},
		{"not found", []string{"toolgen-no-such-command"}, 127, ErrNotFound, "command not found"},
		{"missing relative", []string{"./missing"}, 127, ErrNotFound, "command not found"},
		{"missing absolute", []string{"/nonexistent/bin/tool"}, 127, ErrNotFound, "command not found"},
		{"missing interpreter", []string{"./badinterp.sh"}, 127, ErrNotFound, "command not found"},
		{"not executable", []string{"./data.txt"}, 126, ErrNotExecutable, "no execute permission"},
		{"script without x bit", []string{"./noexec.sh"}, 126, ErrNotExecutable, "no execute permission"},
		{"directory", []string{"./sub"}, 126, ErrNotExecutable, "is a directory"},
		{"exec format error", []string{"./garbage.bin"}, 126, ErrNotExecutable, "exec format error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := k.Run(context.Background(), tt.argv)
			if tt.wantErr == nil && err != nil {
				t.Errorf("Run error = %v, want none", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Run error = %v, want %v", err, tt.wantErr)
			}
			if res.ExitCode != tt.code {
				t.Errorf("ExitCode = %d, want %d", res.ExitCode, tt.code)
			}
			prefix := fmt.Sprintf("exit: %d\noutput: ", tt.code)
			if text := res.Text(); !strings.HasPrefix(text, prefix) || !strings.Contains(text, tt.output) {
				t.Errorf("Text() = %q, want prefix %q and %q", text, prefix, tt.output)
			}
		})
	}
}

func TestRunEmptyArgv(t *testing.T) {
	k := newKernel(t)
	for _, argv := range [][]string{nil, {}} {
		res, err := k.Run(context.Background(), argv)
		if err == nil || res.ExitCode != 127 || !strings.Contains(res.Text(), "empty argv") {
			t.Errorf("Run(%q) = %q, %v", argv, res.Text(), err)
		}
	}
}

func TestRunTruncatesMiddle(t *testing.T) {
	k := newKernel(t, WithOutputLimit(20))
	digits := strings.Repeat("0123456789", 10)
	res := mustRun(t, k, "printf", "%s", digits)
	want := "0123456789" + "\n[... 80 bytes omitted from the middle ...]\n" + "0123456789"
	if res.Output != want || !res.Truncated || res.Omitted != 80 {
		t.Errorf("Output, Truncated, Omitted = %q, %v, %d; want %q, true, 80", res.Output, res.Truncated, res.Omitted, want)
	}
	assertText(t, res, "exit: 0\noutput: "+want)

	res = mustRun(t, k, "printf", "%s", digits[:20]) // exactly the limit
	if res.Output != digits[:20] || res.Truncated || res.Omitted != 0 {
		t.Errorf("at the limit: %q, %v, %d", res.Output, res.Truncated, res.Omitted)
	}
}

func TestRunCutsOnRuneBoundaries(t *testing.T) {
	k := newKernel(t, WithOutputLimit(11)) // head 5 bytes, tail 6
	res := mustRun(t, k, "printf", "%s", strings.Repeat("€", 10))
	// head: 5 bytes hold one whole "€" (3 bytes); tail: 6 bytes hold two.
	want := "€\n[... 21 bytes omitted from the middle ...]\n€€"
	if res.Output != want || res.Omitted != 21 {
		t.Errorf("Output, Omitted = %q, %d; want %q, 21", res.Output, res.Omitted, want)
	}
}

func TestRunReplacesInvalidUTF8(t *testing.T) {
	k := newKernel(t)
	res := mustRun(t, k, "printf", `a\377\376b\303(c`)
	assertText(t, res, "exit: 0\noutput: a\uFFFDb\uFFFD(c")
}

// promptly runs attempt, which returns by how much a call overran what it
// should have taken, up to 5 times until the overrun is within budget. The
// retries absorb a busy machine's scheduling delays only: a kernel that really
// waits (for a grandchild, for the drain grace) overruns every attempt, and
// every attempt's other checks must pass.
func promptly(t *testing.T, budget time.Duration, attempt func() time.Duration) {
	t.Helper()
	var overruns []time.Duration
	for range 5 {
		over := attempt()
		if over <= budget {
			return
		}
		overruns = append(overruns, over)
	}
	t.Errorf("overran the %v budget on every attempt: %v", budget, overruns)
}

func TestRunTimeout(t *testing.T) {
	const timeout = 300 * time.Millisecond
	k := newKernel(t, WithTimeout(timeout))
	promptly(t, 100*time.Millisecond, func() time.Duration {
		start := time.Now()
		res, err := k.Run(context.Background(), []string{"sh", "-c", "echo before; sleep 10"})
		elapsed := time.Since(start)
		if err != nil {
			t.Fatalf("a timeout is a result, not an error: %v", err)
		}
		if res.ExitCode != 124 || !res.TimedOut || elapsed < timeout {
			t.Errorf("ExitCode, TimedOut, elapsed = %d, %v, %v; want 124, true, >= %v", res.ExitCode, res.TimedOut, elapsed, timeout)
		}
		assertText(t, res, "exit: 124\noutput: before\n[timed out after 300ms; process group killed]")
		return elapsed - timeout
	})
}

func TestRunTimeoutKillsGrandchildHoldingPipe(t *testing.T) {
	const timeout = 300 * time.Millisecond
	k := newKernel(t, WithTimeout(timeout))
	promptly(t, 100*time.Millisecond, func() time.Duration {
		m := sleepMarker()
		start := time.Now()
		res, err := k.Run(context.Background(), []string{"sh", "-c", "sleep " + m + " & sleep 100"})
		elapsed := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if !res.TimedOut || res.ExitCode != 124 {
			t.Errorf("TimedOut, ExitCode = %v, %d", res.TimedOut, res.ExitCode)
		}
		assertGone(t, m)
		return elapsed - timeout
	})
}

func TestRunKillsGroupAfterLeaderExits(t *testing.T) {
	k := newKernel(t, WithTimeout(10*time.Second))
	// Without the group kill, Run would wait out the drain grace and the
	// grandchild would live on (assertDead).
	promptly(t, time.Second, func() time.Duration {
		m := sleepMarker()
		start := time.Now()
		res := mustRun(t, k, "sh", "-c", "sleep "+m+" &")
		elapsed := time.Since(start)
		if res.ExitCode != 0 || res.TimedOut {
			t.Errorf("ExitCode, TimedOut = %d, %v", res.ExitCode, res.TimedOut)
		}
		assertGone(t, m)
		return elapsed
	})
}

func TestRunContextCancelKillsGroup(t *testing.T) {
	k := newKernel(t)
	const after = 300 * time.Millisecond
	promptly(t, 100*time.Millisecond, func() time.Duration {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var cancelled atomic.Int64 // when the cancel really ran: a late timer is not the kernel's delay
		time.AfterFunc(after, func() { cancelled.Store(time.Now().UnixNano()); cancel() })
		m := sleepMarker()
		res, err := k.Run(ctx, []string{"sh", "-c", "sleep " + m + " & sleep 100"})
		returned := time.Now()
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "kernel: ") {
			t.Errorf("Run error = %v, want a wrapped context.Canceled", err)
		}
		if res.ExitCode != 137 || res.TimedOut {
			t.Errorf("ExitCode, TimedOut = %d, %v; want 137, false", res.ExitCode, res.TimedOut)
		}
		assertGone(t, m)
		return returned.Sub(time.Unix(0, cancelled.Load()))
	})
}

func TestRunContextDoneBeforeStart(t *testing.T) {
	k := newKernel(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := k.Run(ctx, []string{"echo", "never"})
	if !errors.Is(err, context.Canceled) || res.ExitCode != 137 || strings.Contains(res.Output, "never") {
		t.Errorf("Run = %q, %v", res.Text(), err)
	}
}

func TestRunConcurrent(t *testing.T) {
	k := newKernel(t, WithTimeout(20*time.Second))
	const n = 50
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			word := fmt.Sprint("run-", i)
			res, err := k.Run(context.Background(), []string{"sh", "-c", `echo "$1"; echo "$1" >&2; exit $2`, "sh", word, fmt.Sprint(i % 7)})
			if err != nil {
				t.Errorf("run %d: %v", i, err)
				return
			}
			if want := word + "\n" + word + "\n"; res.Output != want || res.ExitCode != i%7 {
				t.Errorf("run %d: Output, ExitCode = %q, %d; want %q, %d", i, res.Output, res.ExitCode, want, i%7)
			}
		})
	}
	wg.Wait()
}
