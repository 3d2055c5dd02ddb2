package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/builtin"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// fixture is a workspace with a few files, and the built-in tools on it.
func fixture(t *testing.T) (map[string]tool.SpecTool, string) {
	t.Helper()
	files := map[string]string{
		"a.txt":          "alpha\nneedle one\ngamma\ndelta\n",
		"src/main.go":    "package main\n\nfunc main() { needle() }\n",
		"src/util.go":    "package main\n",
		"-rf":            "dash file needle\n",
		"docs/notes.md":  "no match here\n",
		"...":            "three dots needle\n",
		"%2e%2e":         "percent needle\n",
		"te..st/x.txt":   "dots inside needle\n",
		"café/naïve.txt": "unicode needle\n",
	}
	k := kerneltest.New(t, files)
	tools, err := builtin.All(k)
	require.NoError(t, err)
	byName := map[string]tool.SpecTool{}
	for _, tl := range tools {
		byName[tl.Name()] = tl
	}
	return byName, k.Workspace()
}

func call(t *testing.T, tl tool.Tool, args string) (string, error) {
	t.Helper()
	return tl.Call(context.Background(), json.RawMessage(args))
}

func TestGrepText(t *testing.T) {
	tools, _ := fixture(t)
	out, err := call(t, tools["grep_text"], `{"pattern":"needle","path":"src"}`)
	require.NoError(t, err)
	assert.Equal(t, "exit: 0\noutput: src/main.go:3:func main() { needle() }", strings.TrimSpace(out))

	out, err = call(t, tools["grep_text"], `{"pattern":"\\bneedle(","path":"src/main.go"}`)
	require.NoError(t, err)
	assert.Contains(t, out, "3:func main()")

	out, err = call(t, tools["grep_text"], `{"pattern":"nomatchanywhere"}`)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, "exit: 1\n"), out)

	for _, p := range []string{"...", "%2e%2e", "te..st", "café"} {
		out, err = call(t, tools["grep_text"], `{"pattern":"needle","path":"`+p+`"}`)
		require.NoError(t, err, p)
		assert.Contains(t, out, "needle", p)
	}
	out, err = call(t, tools["grep_text"], `{"pattern":"needle","path":"./-rf"}`)
	require.NoError(t, err)
	assert.Contains(t, out, "dash file needle")
}

func TestFindFiles(t *testing.T) {
	tools, _ := fixture(t)
	out, err := call(t, tools["find_files"], `{"pattern":"*.go"}`)
	require.NoError(t, err)
	assert.Contains(t, out, "./src/main.go")
	assert.Contains(t, out, "./src/util.go")
	assert.NotContains(t, out, "notes.md")
	out, err = call(t, tools["find_files"], `{"pattern":"*.md","path":"docs"}`)
	require.NoError(t, err)
	assert.Equal(t, "exit: 0\noutput: docs/notes.md", strings.TrimSpace(out))
}

func TestSedPrint(t *testing.T) {
	tools, _ := fixture(t)
	out, err := call(t, tools["sed_print"], `{"range":"2,3","path":"a.txt"}`)
	require.NoError(t, err)
	assert.Equal(t, "exit: 0\noutput: needle one\ngamma", strings.TrimSpace(out))
	out, err = call(t, tools["sed_print"], `{"range":"4","path":"a.txt"}`)
	require.NoError(t, err)
	assert.Equal(t, "exit: 0\noutput: delta", strings.TrimSpace(out))
}

// TestBuiltinAttacks feeds each built-in the inputs a hostile or confused
// model would send. Every one must be a 614, the file planted outside the
// workspace must never be read, and no marker file may be created.
func TestBuiltinAttacks(t *testing.T) {
	tools, ws := fixture(t)
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("TOPSECRET needle\n"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "escape")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "secret-link")))

	attacks := []struct{ tool, args string }{
		{"sed_print", `{"range":"1e","path":"a.txt"}`},
		{"sed_print", `{"range":"1wout","path":"a.txt"}`},
		{"sed_print", `{"range":"s#.*#touch pwned#e","path":"a.txt"}`},
		{"sed_print", `{"range":"1,2p;1e","path":"a.txt"}`},
		{"sed_print", `{"range":"1 e","path":"a.txt"}`},
		{"sed_print", `{"range":"1\ne","path":"a.txt"}`},
		{"sed_print", `{"range":"1","path":"/etc/passwd"}`},
		{"sed_print", `{"range":"1","path":"../../../../etc/passwd"}`},
		{"sed_print", `{"range":"1","path":"escape/secret.txt"}`},
		{"sed_print", `{"range":"1","path":"secret-link"}`},
		{"sed_print", `{"range":"１","path":"a.txt"}`},
		{"grep_text", `{"pattern":"-f/etc/passwd"}`},
		{"grep_text", `{"pattern":"--include=*"}`},
		{"grep_text", `{"pattern":"‐r"}`},
		{"grep_text", `{"pattern":"−r"}`},
		{"grep_text", `{"pattern":"x","path":"-"}`},
		{"grep_text", `{"pattern":"x;touch pwned"}`},
		{"grep_text", `{"pattern":"x|touch pwned"}`},
		{"grep_text", `{"pattern":"$(touch pwned)"}`},
		{"grep_text", "{\"pattern\":\"`touch pwned`\"}"},
		{"grep_text", `{"pattern":"x>pwned"}`},
		{"grep_text", `{"pattern":"x&&touch"}`},
		{"grep_text", `{"pattern":"x；touch"}`},
		{"grep_text", `{"pattern":"x＄(touch)"}`},
		{"grep_text", `{"pattern":"a\u00a0b"}`},
		{"grep_text", `{"pattern":"a\u2028b"}`},
		{"grep_text", `{"pattern":"a\u3000b"}`},
		{"grep_text", `{"pattern":"a\u0085b"}`},
		{"grep_text", `{"pattern":"a\u000bb"}`},
		{"grep_text", `{"pattern":"a\u200bb"}`},
		{"grep_text", `{"pattern":"a\ufeffb"}`},
		{"grep_text", `{"pattern":"a\u202eb"}`},
		{"grep_text", `{"pattern":"a\u0000b"}`},
		{"grep_text", `{"pattern":"a b"}`},
		{"grep_text", `{"pattern":"needle","path":"escape"}`},
		{"grep_text", `{"pattern":"needle","path":"escape/../escape"}`},
		{"grep_text", `{"pattern":"needle","path":"/"}`},
		{"grep_text", `{"pattern":"needle","path":".."}`},
		{"grep_text", `{"pattern":"needle","path":"src/../../x"}`},
		{"grep_text", `{"pattern":"needle","extra":"-r"}`},
		{"grep_text", `{"pattern":["needle","-r"]}`},
		{"find_files", `{"pattern":"-exec"}`},
		{"find_files", `{"pattern":"*.go","path":"-delete"}`},
		{"find_files", `{"pattern":"x -delete"}`},
		{"find_files", `{"pattern":"*","path":"escape"}`},
		{"find_files", `{"pattern":"*","path":"/tmp"}`},
	}
	for _, a := range attacks {
		out, err := call(t, tools[a.tool], a.args)
		assert.Equal(t, tool.CodeValue, tool.CodeOf(err), "%s %s: %q %v", a.tool, a.args, out, err)
		assert.NotContains(t, out, "TOPSECRET", a.args)
	}
	_, err := os.Stat(filepath.Join(ws, "pwned"))
	assert.True(t, os.IsNotExist(err), "a marker file was created")
	_, err = os.Stat(filepath.Join(ws, "out"))
	assert.True(t, os.IsNotExist(err), "sed w wrote a file")
}

// TestBuiltinsConcurrent runs many calls at once (with -race in CI).
func TestBuiltinsConcurrent(t *testing.T) {
	tools, _ := fixture(t)
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		go func() {
			out, err := call(t, tools["grep_text"], `{"pattern":"needle","path":"a.txt"}`)
			if err == nil && !strings.Contains(out, "needle one") {
				err = fmt.Errorf("unexpected output %q", out)
			}
			errs <- err
		}()
	}
	for i := 0; i < 40; i++ {
		require.NoError(t, <-errs)
	}
}
