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
//
// The module's go.mod is made as docs/agents.md ("Using the adapters from a
// clone") tells a user to: go mod init, then the go mod edit lines of that
// block, run by sh with TOOLGEN set to this repository and ADAPTER to the
// adapter's directory name (for toolgen alone, the lines that do not name
// $ADAPTER), then go mod tidy (with -e and offline here).
func Run(t testing.TB, adapterDir, main string) string {
	t.Helper()
	adapter, err := filepath.Abs(adapterDir)
	if err != nil {
		t.Fatal(err)
	}
	path := modulePath(t, filepath.Join(adapter, "go.mod"))
	const root = "github.com/nanogpt/toolgen"
	repo, name := adapter, ""
	if path != root {
		repo, name = filepath.Join(adapter, "..", ".."), filepath.Base(adapter)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(adapter, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for file, data := range map[string][]byte{"go.sum": sum, "main.go": []byte(main)} {
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goCmd(t, dir, "mod", "init", Module)
	for _, line := range docLines(t, filepath.Join(repo, "docs", "agents.md")) {
		if name == "" && strings.Contains(line, "$ADAPTER") {
			continue
		}
		run(t, dir, []string{"TOOLGEN=" + repo, "ADAPTER=" + name}, "sh", "-c", line)
	}
	goCmd(t, dir, "mod", "tidy", "-e") // -e: tests of dependencies need modules the cache may lack
	return goCmd(t, dir, "run", ".")
}

// docLines returns the go mod edit lines (continuation lines joined) of the
// shell block that follows the adapter-from-clone marker in the doc at
// path, failing the test when there are none.
func docLines(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- adapter-from-clone")
	if ok {
		_, rest, ok = strings.Cut(rest, "```sh\n")
	}
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatalf("%s: no shell block after the adapter-from-clone marker", path)
	}
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(block, "\\\n", " "), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "go mod edit ") {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 || !strings.Contains(block, "go mod tidy") {
		t.Fatalf("%s: the adapter-from-clone block has no go mod edit lines or no go mod tidy:\n%s", path, block)
	}
	return lines
}

// goCmd runs the go command in dir, offline, and returns its stdout.
func goCmd(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return run(t, dir, nil, "go", args...)
}

// run runs name with args in dir, offline, with env added to the
// environment, and returns its stdout; a failure fails the test.
func run(t testing.TB, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false")
	cmd.Env = append(cmd.Env, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s%s", name, strings.Join(args, " "), dir, err, out, stderr.String())
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
