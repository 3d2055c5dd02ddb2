package openaitool_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/nanogpt/toolgen/adapters/openaitool"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// grepTools returns a grep tool whose slots are declared zeta (the
// pattern) before alpha (the path, optional), and a tool with a schema
// strict mode cannot take, on a workspace holding notes.txt and a symlink
// out of it.
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
	return []tool.Tool{g, loose{}}
}

// loose is a tool whose schema uses a keyword strict mode refuses.
type loose struct{}

func (loose) Name() string        { return "loose" }
func (loose) Description() string { return "a tool with minLength" }
func (loose) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"s":{"type":"string","minLength":2}}}`)
}
func (loose) Call(context.Context, json.RawMessage) (string, error) { return "ok", nil }

// TestChatToolsOrderAndStrict: the request the SDK sends lists each
// schema's properties in slot order, strict (all required, optional ones
// nullable, the default in the description) for a command tool, as given
// and not strict for a schema strict mode cannot take.
func TestChatToolsOrderAndStrict(t *testing.T) {
	tools := grepTools(t)
	data, err := json.Marshal(openai.ChatCompletionNewParams{Model: "m", Tools: openaitool.ChatTools(tools)})
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name       string          `json:"name"`
				Strict     bool            `json:"strict"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Tools) != 2 {
		t.Fatalf("tools: %s", data)
	}
	g, l := req.Tools[0].Function, req.Tools[1].Function
	if req.Tools[0].Type != "function" || g.Name != "grep_notes" || !g.Strict {
		t.Errorf("grep tool: %s", data)
	}
	params := string(g.Parameters)
	if z, a := strings.Index(params, `"zeta"`), strings.Index(params, `"alpha"`); z < 0 || a < z {
		t.Errorf("properties out of slot order: %s", params)
	}
	for _, want := range []string{`"required":["zeta","alpha"]`, `"type":["string","null"]`, `"additionalProperties":false`, `null means the default`} {
		if !strings.Contains(params, want) {
			t.Errorf("strict parameters lack %s: %s", want, params)
		}
	}
	if l.Strict || !strings.Contains(string(l.Parameters), `"minLength":2`) {
		t.Errorf("loose tool: strict %v, parameters %s", l.Strict, l.Parameters)
	}
}

// TestResponseToolsOrderAndStrict: the same for the Responses API, whose
// flat function says strict false explicitly (its default is strict).
func TestResponseToolsOrderAndStrict(t *testing.T) {
	data, err := json.Marshal(responses.ResponseNewParams{Model: "m", Tools: openaitool.ResponseTools(grepTools(t))})
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if z, a := strings.Index(s, `"zeta"`), strings.Index(s, `"alpha"`); z < 0 || a < z {
		t.Errorf("properties out of slot order: %s", s)
	}
	if !strings.Contains(s, `"strict":true`) || !strings.Contains(s, `"strict":false`) || !strings.Contains(s, `"name":"loose"`) {
		t.Errorf("strict flags: %s", s)
	}
}

// chatCall decodes one faked tool call as the SDK does and runs it.
func chatCall(t *testing.T, tools []tool.Tool, name, args string) string {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"id": "call_9", "type": "function",
		"function": map[string]string{"name": name, "arguments": args}})
	var call openai.ChatCompletionMessageToolCallUnion
	if err := json.Unmarshal(raw, &call); err != nil {
		t.Fatal(err)
	}
	msg := openaitool.ChatCall(context.Background(), tools, call)
	if msg.OfTool == nil || msg.OfTool.ToolCallID != "call_9" {
		t.Fatalf("not a tool message for call_9: %+v", msg)
	}
	return msg.OfTool.Content.OfString.Value
}

// TestChatCallAttacks: whatever the model writes into a call, the answer is
// a tool message the model can read: the real grep's output, or a 614 that
// names the problem; nothing outside the workspace is read.
func TestChatCallAttacks(t *testing.T) {
	tools := grepTools(t)
	for _, c := range []struct{ name, args, want string }{
		{"grep_notes", `{"zeta":"milk"}`, "exit: 0\noutput: 1:buy milk\n"},
		{"grep_notes", `{"zeta":"milk","alpha":null}`, "exit: 0\noutput: 1:buy milk\n"}, // strict mode's null
		{"grep_notes", `{"zeta":"absent"}`, "exit: 1\noutput: "},
		{"grep_notes", `{"zeta":"-r","alpha":"notes.txt"}`, "error 614: "},
		{"grep_notes", `{"zeta":"--","alpha":"notes.txt"}`, "error 614: "},
		{"grep_notes", `{"zeta":"\u2212e"}`, "error 614: "},        // minus-sign lookalike
		{"grep_notes", `{"zeta":"a\uff1bid"}`, "error 614: "},      // fullwidth semicolon
		{"grep_notes", `{"zeta":"func\u3000main"}`, "error 614: "}, // ideographic space
		{"grep_notes", `{"zeta":"root","alpha":"../../etc/passwd"}`, "error 614: "},
		{"grep_notes", `{"zeta":"root","alpha":"/etc/passwd"}`, "error 614: "},
		{"grep_notes", `{"zeta":"root","alpha":"out/passwd"}`, "error 614: "}, // symlink out
		{"grep_notes", `{"zeta":"milk","extra":1}`, "error 614: "},
		{"grep_notes", `{"zeta":"milk"`, "error 614: "},
		{"grep_notes", `not json`, "error 614: "},
		{"grep_notes", ``, "error 614: "}, // {}: the pattern is missing
		{"exec", `{"command":"cat /etc/passwd"}`, `unknown tool "exec"`},
		{"grep_notes\u0000", `{"zeta":"milk"}`, `unknown tool`},
	} {
		got := chatCall(t, tools, c.name, c.args)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s %s:\n got %q\nwant prefix %q", c.name, c.args, got, c.want)
		}
		if strings.Contains(got, "root:") {
			t.Errorf("%s %s read outside the workspace: %q", c.name, c.args, got)
		}
	}
}

// TestChatCallsCustomTool: a custom (non-function) tool call gets a tool
// message saying so, and every call of a message is answered in order.
func TestChatCallsCustomTool(t *testing.T) {
	var msg openai.ChatCompletionMessage
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":null,"tool_calls":[
		{"id":"a","type":"custom","custom":{"name":"grep_notes","input":"milk"}},
		{"id":"b","type":"function","function":{"name":"grep_notes","arguments":"{\"zeta\":\"build\"}"}}]}`), &msg); err != nil {
		t.Fatal(err)
	}
	out := openaitool.ChatCalls(context.Background(), grepTools(t), msg)
	if len(out) != 2 || out[0].OfTool.ToolCallID != "a" || out[1].OfTool.ToolCallID != "b" {
		t.Fatalf("answers: %+v", out)
	}
	if got := out[0].OfTool.Content.OfString.Value; !strings.Contains(got, "not supported") {
		t.Errorf("custom call answered %q", got)
	}
	if got := out[1].OfTool.Content.OfString.Value; got != "exit: 0\noutput: 2:fix the build\n" {
		t.Errorf("function call answered %q", got)
	}
}

// TestResponseCallsSkipsOtherItems: only function_call items are run, and
// each answer carries its call id; a nil response has none.
func TestResponseCallsSkipsOtherItems(t *testing.T) {
	var resp responses.Response
	if err := json.Unmarshal([]byte(`{"id":"r","object":"response","output":[
		{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"hi","annotations":[]}]},
		{"type":"function_call","id":"f","call_id":"c7","name":"grep_notes","arguments":"{\"zeta\":\"milk\"}"}]}`), &resp); err != nil {
		t.Fatal(err)
	}
	out := openaitool.ResponseCalls(context.Background(), grepTools(t), &resp)
	if len(out) != 1 || out[0].OfFunctionCallOutput.CallID.Value != "c7" ||
		out[0].OfFunctionCallOutput.Output.OfString.Value != "exit: 0\noutput: 1:buy milk\n" {
		t.Fatalf("answers: %+v", out)
	}
	data, err := json.Marshal(out[0])
	if err != nil || !strings.Contains(string(data), `"type":"function_call_output"`) || !strings.Contains(string(data), `"call_id":"c7"`) {
		t.Errorf("item as sent: %s %v", data, err)
	}
	if n := len(openaitool.ResponseCalls(context.Background(), nil, nil)); n != 0 {
		t.Errorf("nil response: %d answers", n)
	}
}
