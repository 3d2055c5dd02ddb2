package loader_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
)

func trustDesc(name string) string {
	return `{"name":"` + name + `","description":"d","command":"ls"}`
}

func trustKernel(t *testing.T) *kernel.Kernel {
	t.Helper()
	k, err := kernel.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func writeMode(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func TestTrustRefusesWorldWritableFile(t *testing.T) {
	dir := t.TempDir()
	writeMode(t, filepath.Join(dir, "ok.tool.json"), trustDesc("ok_tool"), 0o644)
	writeMode(t, filepath.Join(dir, "open.tool.json"), trustDesc("open_tool"), 0o666)
	l, err := loader.New(dir, trustKernel(t))
	if err != nil {
		t.Fatal(err)
	}
	tools, problems := l.LoadAll()
	if len(tools) != 1 || tools[0].Tool.Name() != "ok_tool" {
		t.Fatalf("tools = %v, want only ok_tool", tools)
	}
	if len(problems) != 1 || tool.CodeOf(problems[0]) != tool.CodeSpec ||
		!strings.Contains(problems[0].Error(), "open.tool.json: error 613: file is writable by group or others (mode -rw-rw-rw-)") {
		t.Fatalf("problems = %v", problems)
	}
	// The explicit opt-out loads it.
	l, err = loader.New(dir, trustKernel(t), loader.WithUntrustedFiles())
	if err != nil {
		t.Fatal(err)
	}
	if tools, problems := l.LoadAll(); len(tools) != 2 || len(problems) != 0 {
		t.Fatalf("untrusted: tools %d problems %v", len(tools), problems)
	}
}

func TestTrustGroupWritableOnlyForOwnGroup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.tool.json")
	writeMode(t, path, trustDesc("g_tool"), 0o664)
	// Files are created in the user's primary group: group write is accepted.
	l, err := loader.New(dir, trustKernel(t))
	if err != nil {
		t.Fatal(err)
	}
	if tools, problems := l.LoadAll(); len(tools) != 1 || len(problems) != 0 {
		t.Fatalf("own group: tools %d problems %v", len(tools), problems)
	}
	if os.Geteuid() != 0 {
		t.Skip("changing a file's group to another group needs root")
	}
	if err := os.Chown(path, -1, os.Getegid()+4242); err != nil {
		t.Fatal(err)
	}
	l, err = loader.New(dir, trustKernel(t))
	if err != nil {
		t.Fatal(err)
	}
	tools, problems := l.LoadAll()
	if len(tools) != 0 || len(problems) != 1 || !strings.Contains(problems[0].Error(), "writable by group or others") {
		t.Fatalf("foreign group: tools %d problems %v", len(tools), problems)
	}
}

func TestTrustRefusesForeignOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.tool.json")
	writeMode(t, path, trustDesc("x_tool"), 0o644)
	if err := os.Chown(path, 4242, -1); err != nil {
		t.Fatal(err)
	}
	l, err := loader.New(dir, trustKernel(t))
	if err != nil {
		t.Fatal(err)
	}
	tools, problems := l.LoadAll()
	if len(tools) != 0 || len(problems) != 1 || !strings.Contains(problems[0].Error(), "is owned by uid 4242") {
		t.Fatalf("tools %d problems %v", len(tools), problems)
	}
}

func TestTrustRefusesWorldWritableDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tools")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := loader.New(dir, trustKernel(t))
	if tool.CodeOf(err) != tool.CodeSpec || !strings.Contains(err.Error(), "tools directory is writable by group or others") {
		t.Fatalf("err = %v", err)
	}
	if _, err := loader.New(dir, trustKernel(t), loader.WithUntrustedFiles()); err != nil {
		t.Fatalf("untrusted: %v", err)
	}
}
