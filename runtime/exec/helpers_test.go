package exec

import (
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// stubNames are the binaries of the stub PATH: every binary the tests
// plan for, each a script that is never run.
var stubNames = []string{
	"ls", "cat", "echo", "grep", "wc", "head", "tail", "tree", "git", "sed", "find", "tar", "rg",
	"python3", "perl", "node", "ruby", "php", "lua", "awk", "gawk", "deno", "bun",
	"vim", "nvim", "emacs", "man", "sort", "split", "zip", "make", "go", "curl", "wget",
	"rsync", "ssh", "scp", "sftp", "nc", "ncat", "socat", "tcpdump", "nmap", "printf", "diff", "date",
}

// narrowed is the deny list with the interpreters the tests grant taken out.
func narrowed() programs.DenyList {
	return programs.DefaultDenyList().Without("python*", "perl", "node", "ruby", "php", "lua", "awk", "gawk", "deno", "bun",
		"vim*", "nvim*", "emacs*", "make", "go", "nc", "ncat", "socat") // the deny list has them since issue 11 §3
}

// stubEnv is a workspace and a PATH of stubs.
type stubEnv struct {
	ws, bin string
	k       *kernel.Kernel
}

// newStubEnv makes a workspace holding a.txt, "file with spaces.txt", sub/,
// and a symlink out -> / (leading outside), and a PATH dir of stubs.
// trueProgram is the path of the true program, the stubs' body.
func trueProgram(t testing.TB) string {
	t.Helper()
	p := guarantee.Program(t, "true")
	return p
}

// stub writes dir/name as a copy of the true program and returns its path.
func stub(t testing.TB, dir, name string) string {
	t.Helper()
	truth, err := os.ReadFile(trueProgram(t))
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, string(truth), 0o755)
}

func newStubEnv(t testing.TB) *stubEnv {
	t.Helper()
	e := &stubEnv{ws: t.TempDir(), bin: t.TempDir()}
	// Each stub is a copy of the true program: a real executable, not a
	// script (the deny list judges a script by its #! interpreter, and
	// /bin/sh is denied).
	for _, n := range stubNames {
		stub(t, e.bin, n)
	}
	// The stub git is the real git: ExecTool asks the git it runs for its
	// built-ins (Plan never runs the command itself).
	if real, err := osexec.LookPath("git"); err == nil {
		if err := os.Remove(filepath.Join(e.bin, "git")); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.Symlink(real, filepath.Join(e.bin, "git")); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, e.ws, "a.txt", "alpha\nfoo bar\n", 0o644)
	writeFile(t, e.ws, "file with spaces.txt", "spaced\n", 0o644)
	writeFile(t, e.ws, "sub/b.txt", "b\n", 0o644)
	if err := os.Symlink("/", filepath.Join(e.ws, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(e.ws, "in")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, e.ws, ".git/config", "[core]\n", 0o644)
	if err := os.Symlink(".git", filepath.Join(e.ws, "gl")); err != nil {
		t.Fatal(err)
	}
	// Dangling: writing through it creates a hook.
	if err := os.Symlink(".git/hooks/post-commit", filepath.Join(e.ws, "hook")); err != nil {
		t.Fatal(err)
	}
	k, err := kernel.New(e.ws, kernel.WithPath(e.bin), kernel.WithPrograms(programs.Hook{}))
	if err != nil {
		t.Fatal(err)
	}
	e.k = k
	return e
}

// tool returns ExecTool granting every stub, with the narrowed deny list.
func (e *stubEnv) tool(t testing.TB, opts ...Option) *Tool {
	t.Helper()
	opts = append([]Option{WithDenyList(narrowed())}, opts...)
	tl, err := New(e.k, stubNames, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tl
}

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

// refusedBy returns the defence a Plan error names (0 when err is nil) and
// fails the test when err is not a well-formed 614.
func refusedBy(t testing.TB, err error) Defence {
	t.Helper()
	if err == nil {
		return 0
	}
	var te *tool.Error
	if !errors.As(err, &te) || te.Code != tool.CodeValue || te.Slot != Slot {
		t.Fatalf("error %v is not a 614 on slot %q", err, Slot)
	}
	for d := DefenceAllowlist; d <= DefenceWorkspace; d++ {
		if strings.HasPrefix(te.Msg, "defence "+string(rune('0'+d))+" ("+d.String()+"): ") {
			return d
		}
	}
	t.Fatalf("614 %q names no defence", te.Msg)
	return 0
}

func symlink(target, link string) error { return os.Symlink(target, link) }
