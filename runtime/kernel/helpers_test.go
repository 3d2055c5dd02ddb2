package kernel

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// newKernel returns a kernel on a fresh workspace.
func newKernel(t testing.TB, opts ...Option) *Kernel {
	t.Helper()
	k, err := New(t.TempDir(), opts...)
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

// startedPid parses the pid from an output beginning "started PID".
func startedPid(t *testing.T, output string) int {
	t.Helper()
	var pid int
	if _, err := fmt.Sscanf(output, "started %d", &pid); err != nil || pid <= 1 {
		t.Fatalf("no grandchild pid in output %q: %v", output, err)
	}
	return pid
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

// assertDead fails unless pid is dead within a short while.
func assertDead(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		if !alive(pid) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("process %d is still alive", pid)
	_ = syscall.Kill(pid, syscall.SIGKILL)
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

// killProcess kills one process by pid (cleanup for processes a test let escape).
func killProcess(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
