package preset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/nanogpt/toolgen/runtime/preset"
)

// A preset assembles what toolgen serves: the built-ins, the descriptors
// of a tools directory (kept outside the workspace, so that a tool that
// writes there cannot grant new commands) and, only when granted, exec.
// A broken descriptor is one problem; the rest load.
func ExampleNew() {
	base, err := os.MkdirTemp("", "preset-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(base)
	ws, tools := filepath.Join(base, "project"), filepath.Join(base, "agent-tools")
	for _, d := range []string{ws, tools} {
		if err := os.Mkdir(d, 0o700); err != nil {
			log.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(ws, "notes.txt"): "one\ntwo\nthree\n",
		filepath.Join(tools, "head-lines.tool.json"): `{
  "name": "head_lines",
  "description": "Print the first lines of a file",
  "command": "head -n {lines} {file}",
  "arguments": {
    "lines": {"type": "integer", "description": "How many lines", "default": 10, "enum": [1, 10]},
    "file":  {"type": "path", "description": "The file", "required": true}
  }
}`,
		filepath.Join(tools, "broken.tool.json"): `{"name": "broken", "description": "Show a file", "command": "cat {path} | head"}`,
	}
	for p, data := range files {
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			log.Fatal(err)
		}
	}

	p, err := preset.New(preset.WithWorkspace(ws), preset.WithToolsDir(tools))
	if err != nil {
		log.Fatal(err)
	}
	for _, problem := range p.Problems {
		fmt.Println(strings.ReplaceAll(problem.Error(), tools+string(filepath.Separator), ""))
	}
	for _, e := range p.Registry.Entries() {
		fmt.Println(e.Tool.Name(), e.Form)
	}
	t, _ := p.Registry.Get("head_lines")
	res, err := t.Call(context.Background(), json.RawMessage(`{"file":"notes.txt","lines":1}`))
	// The text the model sees; where the kernel cannot confine, a note follows.
	fmt.Printf("%q %v\n", res[:len("exit: 0\noutput: one\n")], err)
	// Output:
	// broken.tool.json:1:50: error 613: template: character '|' (U+007C VERTICAL LINE) at byte offset 11 is not allowed: shell operator and quote characters (' " ` ; | & $ < >) are rejected
	// find_files builtin
	// grep_text builtin
	// head_lines descriptor
	// sed_print builtin
	// "exit: 0\noutput: one\n" <nil>
}
