package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeHintsAndTrust drives the real toolgen serve --watch with the
// go-sdk client: a tools directory inside the workspace, trusted with
// toolgen trust, loads without --allow-tools-in-workspace; tools/list
// carries the descriptors' annotations and output schema, tools/call the
// structured outcome; a descriptor dropped in is refused (613 naming
// toolgen trust) and never served, one swapped under a trusted name keeps
// serving the trusted version; trusting again serves the new one.
func TestServeHintsAndTrust(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the toolgen binary")
	}
	bin := builtToolgen(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the user's trust store, outside the workspace
	ws := t.TempDir()
	tools := filepath.Join(ws, "tools")
	writeTestFile(t, filepath.Join(ws, "a.txt"), "one two three\n")
	words := `{"name": "count_words", "title": "Count words", "description": "Count the words of a file",
  "command": "wc -w {file}", "arguments": {"file": {"type": "path", "description": "File", "required": true}}}`
	writeTestFile(t, filepath.Join(tools, "words.tool.json"), words)
	trustTools := func() {
		t.Helper()
		cmd := exec.Command(bin, "trust", tools)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("toolgen trust: %v\n%s", err, out)
		}
	}
	trustTools()

	changed := make(chan struct{}, 10)
	cs, _, stderr := startClient(t, bin, "2025-11-25", &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	}, "--tools", tools, "--workspace", ws, "--watch", "--no-builtins")

	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "count_words" {
		t.Fatalf("tools: %+v\nstderr:\n%s", res.Tools, stderr)
	}
	def := res.Tools[0]
	if a := def.Annotations; a == nil || !a.ReadOnlyHint || a.Title != "Count words" || a.OpenWorldHint == nil || *a.OpenWorldHint || def.OutputSchema == nil {
		t.Errorf("definition: annotations %+v, output schema %v", def.Annotations, def.OutputSchema)
	}
	call, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "count_words", Arguments: map[string]any{"file": "a.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := call.StructuredContent.(map[string]any)
	if call.IsError || out["exit_code"] != float64(0) || out["output"] != "3 a.txt\n" || out["timed_out"] != false {
		t.Errorf("call: isError %v, structured %v", call.IsError, call.StructuredContent)
	}

	// Dropped in: refused and logged, never served.
	writeTestFile(t, filepath.Join(tools, "cat.tool.json"), `{"name": "cat_file", "description": "Print a file",
  "command": "cat {file}", "arguments": {"file": {"type": "path", "description": "File", "required": true}}}`)
	if !eventually(15*time.Second, func() bool { return strings.Contains(stderr.String(), "cat.tool.json") }) {
		t.Fatalf("no problem logged for the added file:\n%s", stderr)
	}
	if log := stderr.String(); !strings.Contains(log, "was added after the tools directory was trusted") || !strings.Contains(log, "toolgen trust") {
		t.Errorf("problem log:\n%s", log)
	}
	if names := toolNames(t, cs); slices.Contains(names, "cat_file") {
		t.Errorf("untrusted tool served: %v", names)
	}

	// Swapped under the trusted name: the trusted version keeps serving.
	writeTestFile(t, filepath.Join(tools, "words.tool.json"), strings.Replace(words, "wc -w", "wc -c", 1))
	if !eventually(15*time.Second, func() bool { return strings.Contains(stderr.String(), "changed after the tools directory was trusted") }) {
		t.Fatalf("no problem logged for the swapped file:\n%s", stderr)
	}
	if text, isErr := callText(t, cs, "count_words", map[string]any{"file": "a.txt"}); isErr || text != "exit: 0\noutput: 3 a.txt\n" {
		t.Errorf("after the swap: isError=%v %q", isErr, text)
	}

	// Reviewed and trusted again; the next write of a file reloads it.
	trustTools()
	writeTestFile(t, filepath.Join(tools, "cat.tool.json"), `{"name": "cat_file", "description": "Print a file",
  "command": "cat {file}", "arguments": {"file": {"type": "path", "description": "File", "required": true}}}`)
	deadline := time.After(15 * time.Second)
	for !slices.Contains(toolNames(t, cs), "cat_file") {
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("trusted again, cat_file not served: %v\n%s", toolNames(t, cs), stderr)
		}
	}
}
