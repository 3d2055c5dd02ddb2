// Package outside builds and runs a Go program in a module of its own, in a
// temporary directory, as an agent developer's module would be: it requires
// toolgen and one of its adapter modules by module path, replaced by this
// repository's directories. The adapters' tests use it to prove that an
// outside module wires generated tools into an SDK with the adapter alone.
package outside

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Module is the module path of the outside module.
const Module = "example.com/agent"

// Run writes main (a main package) into a new module that requires toolgen
// and the adapter module at adapterDir (a directory holding its go.mod,
// relative to the working directory; toolgen's own root for toolgen alone,
// whose runtime/mcp is the MCP go-sdk's adapter), resolves its requirements without
// the network (the module cache must hold them: the adapter's own tests
// just built with them), and returns what go run prints on stdout. A build
// or run failure fails the test with the go command's output.
func Run(t testing.TB, adapterDir, main string) string {
	t.Helper()
	adapter, err := filepath.Abs(adapterDir)
	if err != nil {
		t.Fatal(err)
	}
	path := modulePath(t, filepath.Join(adapter, "go.mod"))
	const root = "github.com/nanogpt/toolgen"
	gomod := "module " + Module + "\n\ngo 1.26.8\n\nrequire " + root + " v0.0.0\n\n"
	if path == root {
		gomod += "replace " + root + " => " + adapter + "\n"
	} else {
		repo, err := filepath.Abs(filepath.Join(adapter, "..", ".."))
		if err != nil {
			t.Fatal(err)
		}
		gomod += "require " + path + " v0.0.0\n\nreplace " + root + " => " + repo + "\n\nreplace " + path + " => " + adapter + "\n"
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(adapter, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": []byte(main)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goCmd(t, dir, "mod", "tidy", "-e") // -e: tests of dependencies need modules the cache may lack
	return goCmd(t, dir, "run", ".")
}

// goCmd runs the go command in dir, offline, and returns its stdout.
func goCmd(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s%s", strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return string(out)
}

// modulePath returns the module path a go.mod file declares.
func modulePath(t testing.TB, gomod string) string {
	t.Helper()
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("%s declares no module", gomod)
	return ""
}
