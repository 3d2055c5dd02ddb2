package anthropictool_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/nanogpt/toolgen/adapters/anthropictool"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// rawTool is a tool with a given input schema.
type rawTool struct{ schema []byte }

func (rawTool) Name() string                                          { return "t" }
func (rawTool) Description() string                                   { return "d" }
func (r rawTool) InputSchema() json.RawMessage                        { return r.schema }
func (rawTool) Call(context.Context, json.RawMessage) (string, error) { return "", nil }

// FuzzInputSchema: whatever a tool's schema holds, ToolParams never panics;
// an object schema it accepts goes out meaning the same JSON (every member
// kept, none added), and anything else is refused with an error.
func FuzzInputSchema(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"required":["b"],"additionalProperties":false}`,
		`{"type":"object"}`, `{"type":"array"}`, `{"type":["object","null"]}`, `[]`, `null`, `{"type":"object","required":"x"}`,
		`{"type":"object","$defs":{"x":{"type":"string"}},"properties":{"y":{"$ref":"#/$defs/x"}}}`, `{"type":"object"} trailing`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		params, errs := anthropictool.ToolParams([]tool.Tool{rawTool{schema}})
		if len(params)+len(errs) != 1 {
			t.Fatalf("%d tools and %d errors for one tool", len(params), len(errs))
		}
		if len(params) == 0 {
			return
		}
		var want map[string]any
		if err := json.Unmarshal(schema, &want); err != nil || want["type"] != "object" {
			t.Fatalf("accepted %q", schema)
		}
		sent, err := json.Marshal(anthropic.ToolUnionParam{OfTool: &params[0]})
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		var got struct {
			InputSchema map[string]any `json:"input_schema"`
		}
		if err := json.Unmarshal(sent, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(normal(got.InputSchema), normal(want)) {
			t.Fatalf("schema %s went out as %s", schema, sent)
		}
	})
}

// normal drops what the adapter or the SDK may add or leave out that means
// nothing: an empty or null required, an empty properties.
func normal(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if l, ok := v.([]any); k == "required" && (v == nil || ok && len(l) == 0) {
			continue
		}
		if p, ok := v.(map[string]any); k == "properties" && ok && len(p) == 0 {
			continue
		}
		out[k] = v
	}
	return out
}
