package anthropictool_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/nanogpt/toolgen/adapters/anthropictool"
	"github.com/nanogpt/toolgen/internal/outside"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// grepTools returns a grep tool whose slots are declared zeta (the
// pattern) before alpha (the path, optional), on a workspace holding
// notes.txt and a symlink out of it, and a tool whose schema is no object.
func grepTools(t *testing.T) []tool.Tool {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\nfix the build\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	k, err := kernel.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := base.New(tool.Spec{Name: "grep_notes", Description: "grep", Command: "grep -n {zeta} {alpha}",
		Args: []tool.Arg{
			{Name: "zeta", Type: tool.String, Required: true, Description: "pattern"},
			{Name: "alpha", Type: tool.Path, Default: "notes.txt", HasDefault: true, Description: "file"},
		}}, k)
	if err != nil {
		t.Fatal(err)
	}
	return []tool.Tool{g, arrayTool{}}
}

type arrayTool struct{}

func (arrayTool) Name() string                                          { return "array" }
func (arrayTool) Description() string                                   { return "bad schema" }
func (arrayTool) InputSchema() json.RawMessage                          { return json.RawMessage(`{"type":"array"}`) }
func (arrayTool) Call(context.Context, json.RawMessage) (string, error) { return "", nil }

// TestToolsOrder: the request the SDK sends lists the properties in slot
// order with the schema's required and additionalProperties; a tool whose
// schema is no object schema is left out, and ToolParams says which.
func TestToolsOrder(t *testing.T) {
	tools := grepTools(t)
	data, err := json.Marshal(anthropic.MessageNewParams{Model: "m", MaxTokens: 1, Tools: anthropictool.Tools(tools)})
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if z, a := strings.Index(s, `"zeta"`), strings.Index(s, `"alpha"`); z < 0 || a < z {
		t.Errorf("properties out of slot order: %s", s)
	}
	for _, want := range []string{`"required":["zeta"]`, `"additionalProperties":false`, `"default":"notes.txt"`, `"type":"object"`, `"name":"grep_notes"`} {
		if !strings.Contains(s, want) {
			t.Errorf("request lacks %s: %s", want, s)
		}
	}
	if strings.Contains(s, `"name":"array"`) {
		t.Errorf("array tool sent: %s", s)
	}
	if _, errs := anthropictool.ToolParams(tools); len(errs) != 1 || !strings.Contains(errs[0].Error(), `tool "array"`) {
		t.Errorf("ToolParams errors = %v", errs)
	}
}

// TestResultAttacks: whatever the model puts in a tool_use block, the answer
// is a tool_result for its id: the real grep's output, or is_error with a
// text naming the problem; nothing outside the workspace is read.
func TestResultAttacks(t *testing.T) {
	tools := grepTools(t)
	for _, c := range []struct {
		name, input, want string
		isError           bool
	}{
		{"grep_notes", `{"zeta":"milk"}`, "exit: 0\noutput: 1:buy milk\n", false},
		{"grep_notes", `{"zeta":"absent"}`, "exit: 1\noutput: ", false},
		{"grep_notes", `{"zeta":"-f","alpha":"/etc/passwd"}`, "error 614: ", true},
		{"grep_notes", `{"zeta":"--include=x"}`, "error 614: ", true},
		{"grep_notes", `{"zeta":"\u2010r"}`, "error 614: ", true},
		{"grep_notes", `{"zeta":"a\uff5cb"}`, "error 614: ", true},
		{"grep_notes", `{"zeta":"a\u00a0b"}`, "error 614: ", true},
		{"grep_notes", `{"zeta":"a\u202eb"}`, "error 614: ", true},
		{"grep_notes", `{"zeta":"root","alpha":"../../../etc/passwd"}`, "error 614: ", true},
		{"grep_notes", `{"zeta":"root","alpha":"out/passwd"}`, "error 614: ", true},
		{"grep_notes", `{"zeta":["milk"]}`, "error 614: ", true},
		{"grep_notes", `{"zeta":"milk","zeta":"root"}`, "error 614: ", true},
		{"grep_notes", `null`, "error 614: ", true},
		{"rm", `{}`, `unknown tool "rm"`, true},
	} {
		raw, _ := json.Marshal(map[string]any{"type": "tool_use", "id": "toolu_9", "name": c.name, "input": json.RawMessage(c.input)})
		var use anthropic.ToolUseBlock
		if err := json.Unmarshal(raw, &use); err != nil {
			t.Fatal(err)
		}
		r := anthropictool.Result(context.Background(), tools, use).OfToolResult
		if r == nil || r.ToolUseID != "toolu_9" {
			t.Fatalf("not a tool_result for toolu_9: %+v", r)
		}
		got := r.Content[0].OfText.Text
		if !strings.HasPrefix(got, c.want) || r.IsError.Value != c.isError {
			t.Errorf("%s %s:\n got %q (is_error %v)\nwant prefix %q (is_error %v)", c.name, c.input, got, r.IsError.Value, c.want, c.isError)
		}
		if strings.Contains(got, "root:") {
			t.Errorf("%s %s read outside the workspace: %q", c.name, c.input, got)
		}
	}
}

// TestResultsSkipsOtherBlocks: only tool_use blocks are answered, in order;
// a nil message has none.
func TestResultsSkipsOtherBlocks(t *testing.T) {
	var msg anthropic.Message
	if err := json.Unmarshal([]byte(`{"id":"m","type":"message","role":"assistant","content":[
		{"type":"thinking","thinking":"hm","signature":"s"},
		{"type":"tool_use","id":"a","name":"grep_notes","input":{"zeta":"build"}},
		{"type":"text","text":"and"},
		{"type":"tool_use","id":"b","name":"grep_notes","input":{"zeta":"milk"}}]}`), &msg); err != nil {
		t.Fatal(err)
	}
	out := anthropictool.Results(context.Background(), grepTools(t), &msg)
	if len(out) != 2 || out[0].OfToolResult.ToolUseID != "a" || out[1].OfToolResult.ToolUseID != "b" {
		t.Fatalf("answers: %+v", out)
	}
	data, err := json.Marshal(anthropic.NewUserMessage(out...))
	if err != nil || !strings.Contains(string(data), `"tool_use_id":"a"`) || !strings.Contains(string(data), `2:fix the build`) {
		t.Errorf("message as sent: %s %v", data, err)
	}
	if n := len(anthropictool.Results(context.Background(), nil, nil)); n != 0 {
		t.Errorf("nil message: %d answers", n)
	}
}

// TestResultsHandBuiltMessage: a Message built as a Go value (no JSON
// behind it, as unit tests and replay harnesses build one) is answered as
// the API's JSON is: each tool_use by its id and name, with its input.
func TestResultsHandBuiltMessage(t *testing.T) {
	msg := &anthropic.Message{Role: "assistant", Content: []anthropic.ContentBlockUnion{
		{Type: "text", Text: "looking"},
		{Type: "tool_use", ID: "toolu_a", Name: "grep_notes", Input: json.RawMessage(`{"zeta":"milk"}`)},
		{Type: "tool_use", ID: "toolu_b", Name: "grep_notes", Input: json.RawMessage(`{"zeta":"x;y"}`)},
		{Type: "tool_use", ID: "toolu_c", Name: "rm", Input: json.RawMessage(`{}`)},
	}}
	out := anthropictool.Results(context.Background(), grepTools(t), msg)
	want := []struct {
		id, text string
		isError  bool
	}{
		{"toolu_a", "exit: 0\noutput: 1:buy milk\n", false},
		{"toolu_b", "error 614: ", true},
		{"toolu_c", `unknown tool "rm"`, true},
	}
	if len(out) != len(want) {
		t.Fatalf("%d answers, want %d: %+v", len(out), len(want), out)
	}
	for i, w := range want {
		r := out[i].OfToolResult
		if r == nil || r.ToolUseID != w.id {
			t.Fatalf("answer %d: not a tool_result for %s: %+v", i, w.id, r)
		}
		got := r.Content[0].OfText.Text
		if !strings.HasPrefix(got, w.text) || r.IsError.Value != w.isError {
			t.Errorf("%s: got %q (is_error %v), want prefix %q (is_error %v)", w.id, got, r.IsError.Value, w.text, w.isError)
		}
	}
}

// agentMain is an outside module's program: generated tools (package
// descriptors) wired into a Messages request and the model's tool_use (the
// API's JSON, faked) run, in five lines of wiring, marked.
const agentMain = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/nanogpt/toolgen/adapters/anthropictool"
	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

const reply = ` + "`" + `{"id":"m","type":"message","role":"assistant","content":[
{"type":"tool_use","id":"toolu_1","name":"search_text","input":{"pattern":"needle","path":"hay.txt"}}]}` + "`" + `

func main() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "agent")
	defer os.RemoveAll(dir)
	os.WriteFile(dir+"/hay.txt", []byte("straw\na needle\n"), 0o644)
	var msg anthropic.Message
	json.Unmarshal([]byte(reply), &msg)

	k, _ := kernel.New(dir)                                                 // 1
	tools, _ := descriptors.Tools(k)                                        // 2
	params := anthropic.MessageNewParams{Tools: anthropictool.Tools(tools)} // 3
	results := anthropictool.Results(ctx, tools, &msg)                      // 4
	answer := anthropic.NewUserMessage(results...)                          // 5

	fmt.Println(len(params.Tools) > 0, answer.OfUser.Content[0].OfToolResult.ToolUseID)
	fmt.Print(answer.OfUser.Content[0].OfToolResult.Content[0].OfText.Text)
}
`

// TestOutsideModule: a module outside this repository wires the generated
// tools into the SDK with the adapter and runs the model's call: a real grep.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own")
	}
	got := outside.Run(t, ".", agentMain)
	if want := "true toolu_1\nexit: 0\noutput: 2:a needle\n"; got != want {
		t.Errorf("outside module printed %q, want %q", got, want)
	}
}
