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

// readmeSection returns the text of the README section headed "## title",
// up to the next "## " heading.
func readmeSection(t *testing.T, readme, title string) string {
	t.Helper()
	start := strings.Index(readme, "\n## "+title+"\n")
	require.GreaterOrEqual(t, start, 0, "README has no section %q", title)
	rest := readme[start+len(title)+5:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// goBlocks returns the ```go blocks of markdown text, in order.
func goBlocks(text string) []string {
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)\n```go\n(.*?)\n```\n").FindAllStringSubmatch(text, -1) {
		blocks = append(blocks, m[1]+"\n")
	}
	return blocks
}

// TestReadmeGoAPI proves the README's Go story in a module outside this
// repository, as a user has it (a replace to this clone, offline): the
// first Go block of "Generating typed tools: the go:generate story" is the
// tools package's doc.go and go generate writes its tools; every ```go
// block of "Using toolgen from Go" is a program of that module, and each
// must build and pass go vet (so every type it names is public); the first
// runs, and calls a generated tool typed.
func TestReadmeGoAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds toolgen in an external module; runs in make test-all")
	}
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(repo, "README.md"))
	require.NoError(t, err)
	readme := string(data)

	genBlocks := goBlocks(readmeSection(t, readme, "Generating typed tools: the go:generate story"))
	require.NotEmpty(t, genBlocks)
	docGo := genBlocks[0]
	require.Contains(t, docGo, "package tools")
	require.Contains(t, docGo, "//go:generate go run github.com/nanogpt/toolgen/cmd/toolgen generate")
	apiBlocks := goBlocks(readmeSection(t, readme, "Using toolgen from Go"))
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
