//go:build unix

package kernel

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

func TestNewDefaults(t *testing.T) {
	dir := t.TempDir()
	k, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if k.Workspace() != real {
		t.Errorf("Workspace() = %q, want %q", k.Workspace(), real)
	}
	if k.Timeout() != 30*time.Second || k.Timeout() != DefaultTimeout {
		t.Errorf("Timeout() = %v, want 30s", k.Timeout())
	}
	if k.OutputLimit() != 2048 || k.OutputLimit() != DefaultOutputLimit {
		t.Errorf("OutputLimit() = %d, want 2048", k.OutputLimit())
	}
	want := []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"LC_CTYPE=C.UTF-8",
		"HOME=" + k.Home(),
		"XDG_CONFIG_HOME=" + k.Home(),
		"XDG_CACHE_HOME=" + k.Home(),
		"XDG_DATA_HOME=" + k.Home(),
	}
	if !slices.Equal(k.Env(), want) {
		t.Errorf("Env() = %q, want %q", k.Env(), want)
	}
	k.Env()[0] = "PATH=/tmp" // a copy: the kernel is unchanged
	if k.Env()[0] != want[0] {
		t.Error("Env() returned the kernel's own slice")
	}
}

func TestNewOptions(t *testing.T) {
	k := newKernel(t,
		WithTimeout(time.Second),
		WithOutputLimit(10),
		WithPath("/bin:/usr/bin"),
		WithEnv("FOO=bar", "LC_CTYPE=C"),
		WithEnv("FOO=baz=qux", "EMPTY="),
		nil,
	)
	if k.Timeout() != time.Second || k.OutputLimit() != 10 {
		t.Errorf("Timeout, OutputLimit = %v, %d", k.Timeout(), k.OutputLimit())
	}
	want := []string{
		"PATH=/bin:/usr/bin",
		"LC_CTYPE=C",
		"HOME=" + k.Home(),
		"XDG_CONFIG_HOME=" + k.Home(),
		"XDG_CACHE_HOME=" + k.Home(),
		"XDG_DATA_HOME=" + k.Home(),
		"FOO=baz=qux",
		"EMPTY=",
	}
	if !slices.Equal(k.Env(), want) {
		t.Errorf("Env() = %q, want %q", k.Env(), want)
	}
}

func TestNewSymlinkedWorkspace(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	k, err := New(link)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(real)
	if k.Workspace() != want {
		t.Errorf("Workspace() = %q, want %q", k.Workspace(), want)
	}
}

func TestNewRelativeWorkspace(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	k, err := New(".")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if k.Workspace() != want {
		t.Errorf("Workspace() = %q, want %q", k.Workspace(), want)
	}
}

func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "file", "x", 0o644)
	tests := []struct {
		name      string
		workspace string
		opts      []Option
		want      string
	}{
		{"empty workspace", "", nil, "workspace is empty"},
		{"missing workspace", filepath.Join(dir, "nope"), nil, "no such file"},
		{"file workspace", file, nil, "not a directory"},
		{"zero timeout", dir, []Option{WithTimeout(0)}, "timeout must be positive"},
		{"negative limit", dir, []Option{WithOutputLimit(-1)}, "output limit must be positive"},
		{"relative PATH entry", dir, []Option{WithPath("/bin:bin")}, `PATH entry "bin" is not absolute`},
		{"empty PATH entry", dir, []Option{WithPath("/bin::/usr/bin")}, `PATH entry "" is not absolute`},
		{"empty PATH", dir, []Option{WithPath("")}, "PATH is empty"},
		{"env without =", dir, []Option{WithEnv("FOO")}, "not KEY=VALUE"},
		{"env empty key", dir, []Option{WithEnv("=x")}, "not KEY=VALUE"},
		{"env NUL", dir, []Option{WithEnv("A=b\x00c")}, "NUL"},
		{"env PATH", dir, []Option{WithEnv("PATH=/tmp")}, "use WithPath"},
		{"env HOME", dir, []Option{WithEnv("HOME=" + dir)}, "sets HOME"},
		{"env XDG", dir, []Option{WithEnv("XDG_CONFIG_HOME=" + dir)}, "sets XDG_CONFIG_HOME"},
		{"mode", dir, []Option{WithConfinement(sandbox.Mode(9))}, "unknown confinement mode"},
		{"readable", dir, []Option{WithReadable("opt")}, "not absolute"},
		{"memory", dir, []Option{WithMemoryLimit(1 << 20)}, "at least 16 MiB"},
		{"memory negative", dir, []Option{WithMemoryLimit(-1)}, "memory limit"},
		{"cpu", dir, []Option{WithCPULimit(-time.Second)}, "cpu limit"},
		{"processes", dir, []Option{WithProcessLimit(-1)}, "process limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := New(tt.workspace, tt.opts...)
			if err == nil {
				t.Fatalf("New succeeded: %+v", k)
			}
			if !strings.HasPrefix(err.Error(), "kernel: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want prefix \"kernel: \" and %q", err, tt.want)
			}
		})
	}
}

func TestLookPathIgnoresHostPath(t *testing.T) {
	bin := t.TempDir()
	writeFile(t, bin, "toolgen-fake-tool", "#!/bin/sh\necho fake\n", 0o755)
	t.Setenv("PATH", bin)

	k := newKernel(t)
	if _, err := k.LookPath("toolgen-fake-tool"); !errors.Is(err, ErrNotFound) {
		t.Errorf("found via the host PATH: err = %v", err)
	}
	if p, err := k.LookPath("sh"); err != nil || !filepath.IsAbs(p) {
		t.Errorf("LookPath(sh) = %q, %v; want an absolute path", p, err)
	}

	k = newKernel(t, WithPath(bin))
	p, err := k.LookPath("toolgen-fake-tool")
	if err != nil || p != filepath.Join(bin, "toolgen-fake-tool") {
		t.Errorf("LookPath = %q, %v", p, err)
	}
}

func TestLookPathErrors(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	writeFile(t, first, "data", "x", 0o644)
	writeFile(t, second, "data", "x", 0o600)
	if err := os.Mkdir(filepath.Join(first, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, second, "adir", "#!/bin/sh\n", 0o755)
	k := newKernel(t, WithPath(first+":"+second))

	if p, err := k.LookPath("adir"); err != nil || p != filepath.Join(second, "adir") {
		t.Errorf("LookPath(adir) = %q, %v; want the file after the skipped directory", p, err)
	}
	_, err := k.LookPath("data")
	if !errors.Is(err, ErrNotExecutable) || !strings.Contains(err.Error(), filepath.Join(first, "data")) {
		t.Errorf("LookPath(data) error = %v, want ErrNotExecutable naming the first match", err)
	}
	_, err = k.LookPath("missing")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "PATH="+first) {
		t.Errorf("LookPath(missing) error = %v, want ErrNotFound naming PATH", err)
	}
	for _, name := range []string{"/bin/sh", "./sh", "a/b"} {
		if _, err := k.LookPath(name); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("LookPath(%q) error = %v, want a name-contains-slash error", name, err)
		}
	}
	if _, err := k.LookPath(""); !errors.Is(err, ErrNotFound) {
		t.Errorf("LookPath(\"\") error = %v", err)
	}
}
