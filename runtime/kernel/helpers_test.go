//go:build unix

package kernel

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// newKernel returns a kernel on a fresh workspace. The kernel's mechanics
// tests run shell scripts, which confinement never lets run, so its
// confinement is off unless opts say otherwise; confine_linux_test.go tests
// confinement.
// withPrograms gives a test kernel the per-program hook the preset gives
// every kernel it makes (git's forced configuration, curl's .curlrc …).
var withPrograms = WithPrograms(programs.Hook{})

func newKernel(t testing.TB, opts ...Option) *Kernel {
	t.Helper()
	k, err := New(t.TempDir(), append([]Option{withPrograms, WithConfinement(sandbox.Off)}, opts...)...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return k
}

// mustRun runs argv and fails the test on a Run error.
func mustRun(t testing.TB, k *Kernel, argv ...string) Result {
	t.Helper()
	res, err := k.Run(context.Background(), argv)
	if err != nil {
		t.Fatalf("Run(%q): %v\n%s", argv, err, res.Text())
	}
	return res
}

// writeFile creates name in dir with the given content and mode.
func writeFile(t testing.TB, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// markerSeq numbers sleepMarker's markers.
var markerSeq atomic.Int64

// sleepMarker returns an argument for sleep (about 90 to 100 seconds)
// unique to this call in this test process, by which pidsWith finds the
// sleep wherever it runs: in a PID namespace, "echo $!" would give a pid of
// that namespace, not the host's. A sleeper lives far longer than
// waitWhere and assertGone wait, so one that is gone was killed.
func sleepMarker() string {
	return fmt.Sprintf("9%d.%d", markerSeq.Add(1)%10, os.Getpid()*100+int(markerSeq.Load()%100))
}

// pidsWith returns the live processes with arg among their arguments.
func pidsWith(arg string) []int { return pidsWhere(arg, false) }

// pidsWhere returns the live processes with arg among their arguments, only
// sleepers (sleep, or this binary's helper-sleep) when sleeping is set.
func pidsWhere(arg string, sleeping bool) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if sleeping && len(args) > 1 && filepath.Base(args[0]) != "sleep" && args[1] != "helper-sleep" {
			continue
		}
		if len(args) > 1 && slices.Contains(args[1:], arg) && alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// waitFor waits until a live process has arg among its arguments and
// returns its pid.
func waitFor(t testing.TB, arg string) int { return waitWhere(t, arg, false) }

// waitSleeper waits until a sleeper (see pidsWhere) has arg among its
// arguments and returns its pid.
func waitSleeper(t testing.TB, arg string) int { return waitWhere(t, arg, true) }

func waitWhere(t testing.TB, arg string, sleeping bool) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if pids := pidsWhere(arg, sleeping); len(pids) > 0 {
			return pids[0]
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no process with argument %s appeared", arg)
	return 0
}

// assertGone fails unless no process with argv[1] arg is alive within 20
// seconds (a killed process dies at once, but on a loaded machine it may
// wait for a CPU to do so; a sleeper that was not killed lives longer); it
// kills what it finds.
func assertGone(t testing.TB, arg string) {
	t.Helper()
	var pids []int
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		if pids = pidsWith(arg); len(pids) == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("processes %v (argument %s) outlived the call", pids, arg)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// alive reports whether pid runs (a zombie counts as dead).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err) // no /proc: trust kill(0)
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return true
	}
	state := stat[i+2]
	return state != 'Z' && state != 'X'
}

// assertText compares a Result's model-visible text.
func assertText(t *testing.T, res Result, want string) {
	t.Helper()
	if got := res.Text(); got != want {
		t.Errorf("Text() =\n%q\nwant\n%q", got, want)
	}
}

// lines splits output into its non-empty lines.
func lines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' })
}

// inProcess makes a kernel fork its calls from the test process's own
// spawner threads, whose state the package's tests inspect, instead of
// the spawner process.
func inProcess(c *config) { c.inProcess = true }
