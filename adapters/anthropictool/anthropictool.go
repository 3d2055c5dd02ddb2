package anthropictool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// Tools returns tools as the Tools of a Messages request
// (anthropic.MessageNewParams), in order. The input schema of each is the
// tool's own: its properties as raw JSON, so they keep the order of the
// slots, required, and every other keyword of the schema's root (such as
// additionalProperties). A tool whose schema is not a JSON object schema
// is left out; ToolParams says why.
func Tools(tools []tool.Tool) []anthropic.ToolUnionParam {
	params, _ := ToolParams(tools)
	out := make([]anthropic.ToolUnionParam, len(params))
	for i := range params {
		out[i] = anthropic.ToolUnionParam{OfTool: &params[i]}
	}
	return out
}

// ToolParams returns the tool definitions of tools, in order, and an error
// for each tool left out because its input schema is not a JSON object
// schema.
func ToolParams(tools []tool.Tool) ([]anthropic.ToolParam, []error) {
	var out []anthropic.ToolParam
	var errs []error
	for _, t := range tools {
		schema, err := inputSchema(t.InputSchema())
		if err != nil {
			errs = append(errs, fmt.Errorf("anthropictool: tool %q: %w", t.Name(), err))
			continue
		}
		out = append(out, anthropic.ToolParam{
			Name:        t.Name(),
			Description: anthropic.String(t.Description()),
			InputSchema: schema,
		})
	}
	return out, errs
}

// inputSchema splits an object schema into the SDK's struct: properties as
// raw JSON (order kept), required, and the other root keywords as extra
// fields.
func inputSchema(raw json.RawMessage) (anthropic.ToolInputSchemaParam, error) {
	var s anthropic.ToolInputSchemaParam
	var root map[string]json.RawMessage
	if err := json.Unmarshal(raw, &root); err != nil || root == nil {
		return s, fmt.Errorf("input schema is not a JSON object")
	}
	if string(bytes.TrimSpace(root["type"])) != `"object"` {
		return s, fmt.Errorf(`input schema must have "type": "object"`)
	}
	for key, val := range root {
		switch key {
		case "type":
		case "properties":
			s.Properties = val
		case "required":
			if err := json.Unmarshal(val, &s.Required); err != nil {
				return s, fmt.Errorf("input schema: required is not a list of names")
			}
		default:
			if s.ExtraFields == nil {
				s.ExtraFields = map[string]any{}
			}
			s.ExtraFields[key] = val
		}
	}
	if s.Properties == nil {
		// Without it the SDK sees a zero struct and leaves input_schema
		// out, which the API requires: no properties means none.
		s.Properties = json.RawMessage("{}")
	}
	// The SDK sets extra fields by path: a keyword it cannot set (an empty
	// key) would fail the whole request later; refuse the tool now.
	if _, err := json.Marshal(s); err != nil {
		return s, fmt.Errorf("input schema cannot be sent: %v", err)
	}
	return s, nil
}

// Result runs one tool_use block with the tool of tools it names and
// returns the tool_result block carrying the result to the model: the text
// the model sees, or, with is_error set, the error's text ("error 614: …"
// for a rejected argument, "unknown tool …" for a name no tool has; see
// tool.CallByName). It never fails: every outcome is something the model
// can read and act on.
func Result(ctx context.Context, tools []tool.Tool, use anthropic.ToolUseBlock) anthropic.ContentBlockParamUnion {
	text, failed := tool.CallByName(ctx, tools, use.Name, use.Input)
	return anthropic.NewToolResultBlock(use.ID, text, failed)
}

// Results runs every tool_use block of msg's content in order (Result) and
// returns the tool_result blocks, for the user message that answers msg
// (anthropic.NewUserMessage(blocks...)). Blocks of other types are skipped.
// msg may come from the API (JSON) or be built as a Go value, as tests and
// replay harnesses build it: each block's ID, Name and Input are read from
// the union's own fields, which both fill.
func Results(ctx context.Context, tools []tool.Tool, msg *anthropic.Message) []anthropic.ContentBlockParamUnion {
	var out []anthropic.ContentBlockParamUnion
	if msg == nil {
		return out
	}
	for _, block := range msg.Content {
		if block.Type == "tool_use" {
			out = append(out, Result(ctx, tools, toolUse(block)))
		}
	}
	return out
}

// toolUse returns the tool_use block that block holds. The SDK's
// block.AsToolUse decodes the JSON the block was read from, which a block
// built as a Go value does not have (it answers an empty block, so the call
// would be for tool "" with no id); the union's fields hold the same values
// either way.
func toolUse(block anthropic.ContentBlockUnion) anthropic.ToolUseBlock {
	return anthropic.ToolUseBlock{ID: block.ID, Name: block.Name, Input: block.Input, Type: "tool_use", ToolsetName: block.ToolsetName}
}
