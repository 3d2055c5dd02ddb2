package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tempModule returns the root of a fresh module example.com/m.
func tempModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.26\n")
	return root
}

func TestResolvePackage(t *testing.T) {
	root := tempModule(t)
	dir := filepath.Join(root, "pkg")
	writeFile(t, filepath.Join(dir, "a.go"), "package foo\n\nfunc Helper() {}\n\nfunc init() {}\n\nvar X, Y = 1, 2\n\ntype T int\n\nfunc (T) Method() {}\n\nvar _ = X\n")
	writeFile(t, filepath.Join(dir, "a_test.go"), "package foo\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n")
	writeFile(t, filepath.Join(dir, "x_test.go"), "package foo_test\n\nimport \"testing\"\n\nfunc TestExternal(t *testing.T) {}\n")
	writeFile(t, filepath.Join(dir, "gen.go"), "//go:build ignore\n\npackage main\n\nfunc main() {}\n")
	writeFile(t, filepath.Join(dir, "tools_gen.go"), Header+"\n\npackage old\n\nfunc Tools() {}\n")

	target, err := Resolve(dir, "", "tools_gen.go", "tools_gen_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if target.Name != "foo" || target.New || target.Path != "example.com/m/pkg" || target.Dir != dir {
		t.Errorf("Resolve = %+v", target)
	}
	if real, _ := filepath.EvalSymlinks(root); target.ModuleDir != root && target.ModuleDir != real {
		t.Errorf("ModuleDir = %s, want %s", target.ModuleDir, root)
	}
	want := map[string]string{"Helper": "a.go", "X": "a.go", "Y": "a.go", "T": "a.go", "TestX": "a_test.go"}
	if len(target.Reserved) != len(want) {
		t.Errorf("Reserved = %v, want %v", target.Reserved, want)
	}
	for id, file := range want {
		if target.Reserved[id] != file {
			t.Errorf("Reserved[%s] = %q, want %q (all: %v)", id, target.Reserved[id], file, target.Reserved)
		}
	}
	if got := target.Source(filepath.Join(dir, "descs")); got != "pkg/descs" {
		t.Errorf("Source = %q", got)
	}

	if _, err := Resolve(dir, "bar", "tools_gen.go"); err == nil || !strings.Contains(err.Error(), "-pkg bar, but the Go files in") {
		t.Errorf("-pkg bar over package foo: %v", err)
	}
	if target, err := Resolve(dir, "foo", "tools_gen.go"); err != nil || target.Name != "foo" {
		t.Errorf("-pkg foo: %+v, %v", target, err)
	}
}

func TestResolveNewPackage(t *testing.T) {
	root := tempModule(t)
	dir := filepath.Join(root, "agent-tools")
	writeFile(t, filepath.Join(dir, "x.tool.json"), "{}")
	target, err := Resolve(dir, "", "tools_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if target.Name != "agenttools" || !target.New || target.Path != "example.com/m/agent-tools" {
		t.Errorf("Resolve = %+v", target)
	}
	if target, err := Resolve(dir, "mytools", "tools_gen.go"); err != nil || target.Name != "mytools" {
		t.Errorf("-pkg on a new package: %+v, %v", target, err)
	}
	if target, err := Resolve(root, ""); err != nil || target.Name != "m" || target.Path != "example.com/m" || target.Source(root) != "." {
		t.Errorf("module root: %+v, %v", target, err)
	}

	// Only toolgen's own earlier output: its package name is kept.
	writeFile(t, filepath.Join(dir, "tools_gen.go"), Header+"\n\npackage kept\n")
	if target, err := Resolve(dir, "", "tools_gen.go"); err != nil || target.Name != "kept" || target.New {
		t.Errorf("only generated output: %+v, %v", target, err)
	}
}

func TestResolveErrors(t *testing.T) {
	root := tempModule(t)
	mixed := filepath.Join(root, "mixed")
	writeFile(t, filepath.Join(mixed, "a.go"), "package a\n")
	writeFile(t, filepath.Join(mixed, "b.go"), "package b\n")
	if _, err := Resolve(mixed, ""); err == nil || !strings.Contains(err.Error(), "package b, but a.go is package a") {
		t.Errorf("mixed packages: %v", err)
	}
	broken := filepath.Join(root, "broken")
	writeFile(t, filepath.Join(broken, "a.go"), "package a\n\nfunc {\n")
	if _, err := Resolve(broken, ""); err == nil || !strings.Contains(err.Error(), "a.go:3") {
		t.Errorf("syntax error: %v", err)
	}
	if _, err := Resolve(filepath.Join(root, "missing"), ""); err == nil {
		t.Error("no error for a missing directory")
	}
	if _, err := Resolve(filepath.Join(root, "go.mod"), ""); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file: %v", err)
	}

	outside := t.TempDir()
	if _, err := os.Stat(filepath.Join(filepath.Dir(outside), "go.mod")); err == nil {
		t.Skip("the temporary directory is inside a module")
	}
	if _, err := Resolve(outside, ""); err == nil || !strings.Contains(err.Error(), "not inside a Go module") {
		t.Errorf("outside a module: %v", err)
	}
}

func TestLastElem(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/m":           "m",
		"example.com/agent/v2":    "agent",
		"example.com/agent/tools": "tools",
		"v2":                      "v2",
		"example.com/vx":          "vx",
	} {
		if got := lastElem(in); got != want {
			t.Errorf("lastElem(%q) = %q, want %q", in, got, want)
		}
	}
}
