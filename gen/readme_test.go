package gen

import (
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeSection returns the part of a markdown text headed "## title", up
// to the next "## " heading.
func readmeSection(t *testing.T, text, title string) string {
	t.Helper()
	start := strings.Index(text, "\n## "+title+"\n")
	require.GreaterOrEqual(t, start, 0, "no section %q", title)
	rest := text[start+len(title)+5:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// readText returns a file's text.
func readText(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(data)
}

// jsonBlocks returns the ```json blocks of markdown text, in order.
func jsonBlocks(text string) []string {
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)\n```json\n(.*?)\n```\n").FindAllStringSubmatch(text, -1) {
		blocks = append(blocks, m[1]+"\n")
	}
	return blocks
}

// goBlocks returns the ```go blocks of markdown text, in order.
func goBlocks(text string) []string {
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)\n```go\n(.*?)\n```\n").FindAllStringSubmatch(text, -1) {
		blocks = append(blocks, m[1]+"\n")
	}
	return blocks
}

// TestReadmeGoAPI proves the README's and docs/go-api.md's Go story in a
// module outside this repository, as a user has it (a replace to this
// clone, offline): the Go block of the README's "go:generate" section is
// the tools package's doc.go (docs/go-api.md's "Generating typed tools:
// the go:generate story" shows the same file) and the README's descriptor
// (its "One descriptor" section) sits next to it, so go generate checks its
// examples and writes its tool; every ```go block of docs/go-api.md's
// "Using toolgen from Go" is a program of that module, and each must build
// and pass go vet (so every type it names is public); the first runs, and
// calls a generated tool typed.
func TestReadmeGoAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds toolgen in an external module; runs in make test-all")
	}
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	readme := readText(t, filepath.Join(repo, "README.md"))
	goAPI := readText(t, filepath.Join(repo, "docs", "go-api.md"))

	frontBlocks := goBlocks(readmeSection(t, readme, "go:generate"))
	require.Len(t, frontBlocks, 1)
	docGo := frontBlocks[0]
	require.Contains(t, docGo, "package tools")
	require.Contains(t, docGo, "//go:generate go run github.com/nanogpt/toolgen/cmd/toolgen generate")
	genBlocks := goBlocks(readmeSection(t, goAPI, "Generating typed tools: the go:generate story"))
	require.NotEmpty(t, genBlocks)
	assert.Equal(t, docGo, genBlocks[0], "the README's and docs/go-api.md's doc.go differ")
	descriptors := jsonBlocks(readmeSection(t, readme, "One descriptor"))
	require.Len(t, descriptors, 1)
	apiBlocks := goBlocks(readmeSection(t, goAPI, "Using toolgen from Go"))
	require.GreaterOrEqual(t, len(apiBlocks), 2)

	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/agent\n\ngo 1.26.8\n\n"+
		"require github.com/nanogpt/toolgen v0.0.0-00010101000000-000000000000\n\n"+
		"replace github.com/nanogpt/toolgen => "+repo+"\n")
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(mod, "go.sum"), string(sum))
	writeFile(t, filepath.Join(mod, "tools", "doc.go"), docGo)
	search, err := os.ReadFile(filepath.Join("testdata", "search_text.tool.json"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(mod, "tools", "search-text.tool.json"), string(search))
	writeFile(t, filepath.Join(mod, "tools", "head-lines.tool.json"), descriptors[0])
	for i, b := range apiBlocks {
		require.True(t, strings.HasPrefix(b, "package main\n"), "README Go block %d is not a whole program:\n%s", i+1, b)
		formatted, err := format.Source([]byte(b))
		require.NoError(t, err)
		assert.Equal(t, string(formatted), b, "README Go block %d is not gofmt-clean", i+1)
		writeFile(t, filepath.Join(mod, "cmd", "snippet"+string(rune('1'+i)), "main.go"), b)
	}

	env := append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	goCmd := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	goCmd(mod, "generate", "./...")
	require.FileExists(t, filepath.Join(mod, "tools", "tools_gen.go"))
	generated := readText(t, filepath.Join(mod, "tools", "tools_gen.go"))
	assert.Contains(t, generated, "func NewHeadLines(", "the README's descriptor did not become a tool")
	assert.Regexp(t, `(?m)^\s+File\s+string\b`, generated, "the README's go:generate section calls HeadLinesArgs{File: \"notes.txt\"}")
	goCmd(mod, "vet", "./...")

	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "src", "main.go"), "package main // TODO: everything\n")
	bin := filepath.Join(t.TempDir(), "snippet1")
	goCmd(mod, "build", "-o", bin, "./cmd/snippet1")
	cmd := exec.Command(bin)
	cmd.Dir = ws
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "exit: 0\noutput: src/main.go:1:package main // TODO: everything\n")
	assert.Regexp(t, `(?m)^0 false false \S+s$`, string(out))

	// The minimal code confines by default, as the CLI does: a read-only
	// tool's kernel from plain kernel.New cannot write the workspace, or,
	// where the kernel cannot enforce it, the result says so; never a
	// silent unconfined run.
	writeFile(t, filepath.Join(mod, "cmd", "confined", "main.go"), confinedProgram)
	bin = filepath.Join(t.TempDir(), "confined")
	goCmd(mod, "build", "-o", bin, "./cmd/confined")
	cmd = exec.Command(bin)
	cmd.Dir = ws
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	if _, statErr := os.Stat(filepath.Join(ws, "written")); statErr == nil {
		assert.Contains(t, string(out), "not confined", "kernel.New ran a write unconfined without a word:\n%s", out)
	} else {
		assert.Contains(t, string(out), "Permission denied")
	}
}

// confinedProgram writes into its workspace through a kernel made the
// shortest documented way.
const confinedProgram = `package main

import (
	"context"
	"fmt"
	"log"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

func main() {
	k, err := kernel.New(".")
	if err != nil {
		log.Fatal(err)
	}
	res, err := k.Run(context.Background(), []string{"touch", "written"})
	fmt.Println(res.Text(), err)
}
`
