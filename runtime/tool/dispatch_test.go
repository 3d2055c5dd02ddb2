package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/tool"
)

type fakeTool struct {
	name string
	call func(args json.RawMessage) (string, error)
}

func (f fakeTool) Name() string                 { return f.name }
func (f fakeTool) Description() string          { return "fake" }
func (f fakeTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f fakeTool) Call(_ context.Context, args json.RawMessage) (string, error) {
	return f.call(args)
}

func TestCallByName(t *testing.T) {
	echo := fakeTool{"echo", func(args json.RawMessage) (string, error) { return "got " + string(args), nil }}
	reject := fakeTool{"reject", func(json.RawMessage) (string, error) {
		return "", tool.ValueErrorf("x", "no")
	}}
	boom := fakeTool{"boom", func(json.RawMessage) (string, error) { panic("bang") }}
	failing := fakeTool{"failing", func(json.RawMessage) (string, error) { return "", errors.New("could not start") }}
	tools := []tool.Tool{echo, nil, reject, boom, failing}
	for _, c := range []struct {
		name, args, want string
		failed           bool
	}{
		{"echo", `{"a":1}`, `got {"a":1}`, false},
		{"echo", "", "got {}", false},
		{"echo", " \n\t", "got {}", false},
		{"reject", "{}", "error 614: ", true},
		{"boom", "{}", "boom: internal error: the tool panicked: bang", true},
		{"failing", "{}", "could not start", true},
		{"nope", "{}", `unknown tool "nope": the tools are echo, reject, boom, failing`, true},
		{"Echo", "{}", `unknown tool "Echo"`, true},
		{"echo\u200b", "{}", `unknown tool "echo\u200b"`, true},
		{"", "{}", `unknown tool ""`, true},
	} {
		text, failed := tool.CallByName(context.Background(), tools, c.name, json.RawMessage(c.args))
		if failed != c.failed || !strings.HasPrefix(text, c.want) {
			t.Errorf("CallByName(%q, %q) = %q, %v; want prefix %q, %v", c.name, c.args, text, failed, c.want, c.failed)
		}
	}
}
