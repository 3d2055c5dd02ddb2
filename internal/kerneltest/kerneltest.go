// Package kerneltest sets up what most tests of toolgen's runtime start
// from: a workspace holding a few files, in a fresh t.TempDir, and a
// command kernel locked to it. Each helper fails the test at once on an
// error, so a test reads as what it checks. Tests used to write their own
// copy of this setup (newKernel, trustKernel, testKernel …) in each package.
//
// It is for tests only; package kernel's own tests cannot use it (it
// imports kernel) and keep their helper.
package kerneltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

// Workspace returns a fresh directory (t.TempDir) holding files: each key
// is a slash-separated path relative to it (parent directories are made),
// each value the file's contents, written with mode 0644.
func Workspace(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, files)
	return dir
}

// Write writes files into dir as Workspace does.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatalf("kerneltest: %v", err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatalf("kerneltest: %v", err)
		}
	}
}

// New returns a kernel with opts on a fresh workspace holding files (nil
// for an empty one). Its workspace is k.Workspace().
func New(t testing.TB, files map[string]string, opts ...kernel.Option) *kernel.Kernel {
	t.Helper()
	return In(t, Workspace(t, files), opts...)
}

// In returns a kernel with opts on the existing directory dir.
func In(t testing.TB, dir string, opts ...kernel.Option) *kernel.Kernel {
	t.Helper()
	k, err := kernel.New(dir, opts...)
	if err != nil {
		t.Fatalf("kerneltest: %v", err)
	}
	return k
}
