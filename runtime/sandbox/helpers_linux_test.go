//go:build linux

package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

// run runs argv on k and fails the test on a Run error.
func run(t testing.TB, k *kernel.Kernel, argv ...string) kernel.Result {
	t.Helper()
	res, err := k.Run(context.Background(), argv)
	if err != nil {
		t.Fatalf("Run(%q): %v\n%s", argv, err, res.Text())
	}
	return res
}

// succeeds fails the test unless argv exits 0 on k with output holding want.
func succeeds(t *testing.T, k *kernel.Kernel, want string, argv ...string) kernel.Result {
	t.Helper()
	res := run(t, k, argv...)
	if res.ExitCode != 0 || !strings.Contains(res.Output, want) || res.Notice != "" {
		t.Errorf("%q: want exit 0 and %q in the output, no notice; got\n%s", argv, want, res.Text())
	}
	return res
}

// denied fails the test unless argv fails on k with "permission denied" or
// "operation not permitted" (EACCES, EPERM) in its output, in any case.
func denied(t *testing.T, k *kernel.Kernel, argv ...string) kernel.Result {
	t.Helper()
	res := run(t, k, argv...)
	out := strings.ToLower(res.Output)
	if res.ExitCode == 0 || !(strings.Contains(out, "permission denied") || strings.Contains(out, "operation not permitted")) {
		t.Errorf("%q: want a denial; got\n%s", argv, res.Text())
	}
	return res
}

// unreachable runs argv on k and checks that it failed to reach what it
// tried: denied (Landlock), or not there at all (the call's own network
// namespace, where the host's listeners do not exist).
func unreachable(t *testing.T, k *kernel.Kernel, argv ...string) kernel.Result {
	t.Helper()
	res := run(t, k, argv...)
	out := strings.ToLower(res.Output)
	if res.ExitCode == 0 || !(strings.Contains(out, "permission denied") || strings.Contains(out, "operation not permitted") ||
		strings.Contains(out, "connection refused") || strings.Contains(out, "network is unreachable")) {
		t.Errorf("%q: want it unreachable; got\n%s", argv, res.Text())
	}
	return res
}

// write creates name (and its directories) under dir.
func write(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// dirs returns a fresh workspace and a fresh directory outside it, holding
// a.txt and secret.txt respectively, symlinks resolved.
func dirs(t testing.TB) (ws, outside string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, outside = filepath.Join(root, "ws"), filepath.Join(root, "outside")
	write(t, ws, "a.txt", "alpha\nneedle here\n")
	write(t, outside, "secret.txt", "the secret\n")
	return ws, outside
}

// missing fails the test if path exists.
func missing(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); err == nil {
		t.Errorf("%s exists: a confined command wrote it", path)
	}
}
