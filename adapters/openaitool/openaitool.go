package openaitool

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/schema"
)

// Parameters returns t's parameters schema for an OpenAI function, and
// whether the function may be strict: the schema rewritten by schema.Strict
// when that drops nothing (every command tool's schema), else the schema
// as the tool gives it. Properties keep the order of the slots.
func Parameters(t tool.Tool) (params json.RawMessage, strict bool) {
	raw := t.InputSchema()
	out, dropped, err := schema.Strict(raw)
	if err != nil || len(dropped) > 0 {
		return raw, false
	}
	return out, true
}

// ChatTools returns tools as the Tools of a Chat Completions request
// (openai.ChatCompletionNewParams), in order: one function each, strict
// where the schema allows (Parameters).
func ChatTools(tools []tool.Tool) []openai.ChatCompletionToolUnionParam {
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(tools))
	for _, t := range tools {
		params, strict := Parameters(t)
		fn := shared.FunctionDefinitionParam{
			Name:        t.Name(),
			Description: openai.String(t.Description()),
			Strict:      openai.Bool(strict),
		}
		// Raw JSON, so the properties keep their order (Parameters is a map).
		fn.SetExtraFields(map[string]any{"parameters": params})
		out = append(out, openai.ChatCompletionFunctionTool(fn))
	}
	return out
}

// ResponseTools returns tools as the Tools of a Responses request
// (responses.ResponseNewParams), in order: one function each, strict where
// the schema allows (Parameters) and explicitly not strict elsewhere (that
// API's default is strict).
func ResponseTools(tools []tool.Tool) []responses.ToolUnionParam {
	out := make([]responses.ToolUnionParam, 0, len(tools))
	for _, t := range tools {
		params, strict := Parameters(t)
		fn := responses.FunctionToolParam{
			Name:        t.Name(),
			Description: openai.String(t.Description()),
			Strict:      openai.Bool(strict),
		}
		fn.SetExtraFields(map[string]any{"parameters": params})
		out = append(out, responses.ToolUnionParam{OfFunction: &fn})
	}
	return out
}

// ChatCall runs one tool call of a chat completion message with the tool of
// tools it names and returns the tool message carrying the result to the
// model: the text the model sees, or the error's text ("error 614: …" for a
// rejected argument, "unknown tool …" for a name no tool has; see
// tool.CallByName). It never fails: every outcome is something the model
// can read and act on.
func ChatCall(ctx context.Context, tools []tool.Tool, call openai.ChatCompletionMessageToolCallUnion) openai.ChatCompletionMessageParamUnion {
	var text string
	if call.Type != "" && call.Type != "function" {
		text = "tool call of type " + call.Type + " is not supported: call a function"
	} else {
		text, _ = tool.CallByName(ctx, tools, call.Function.Name, json.RawMessage(call.Function.Arguments))
	}
	return openai.ToolMessage(text, call.ID)
}

// ChatCalls runs every tool call of msg in order (ChatCall) and returns the
// tool messages, one per call, to append after msg.ToParam().
func ChatCalls(ctx context.Context, tools []tool.Tool, msg openai.ChatCompletionMessage) []openai.ChatCompletionMessageParamUnion {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msg.ToolCalls))
	for _, call := range msg.ToolCalls {
		out = append(out, ChatCall(ctx, tools, call))
	}
	return out
}

// ResponseCall runs one function call of a response with the tool of tools
// it names and returns the function_call_output input item carrying the
// result (see ChatCall for the text).
func ResponseCall(ctx context.Context, tools []tool.Tool, call responses.ResponseFunctionToolCall) responses.ResponseInputItemUnionParam {
	text, _ := tool.CallByName(ctx, tools, call.Name, json.RawMessage(call.Arguments))
	item := responses.ResponseInputItemParamOfFunctionCallOutput(text)
	item.OfFunctionCallOutput.CallID = openai.String(call.CallID)
	return item
}

// ResponseCalls runs every function call among resp's output items in order
// (ResponseCall) and returns their output items, for the next request's
// input (after resp's own output items, or with PreviousResponseID set).
// Output items of other types are skipped.
func ResponseCalls(ctx context.Context, tools []tool.Tool, resp *responses.Response) []responses.ResponseInputItemUnionParam {
	var out []responses.ResponseInputItemUnionParam
	if resp == nil {
		return out
	}
	for _, item := range resp.Output {
		if item.Type == "function_call" {
			out = append(out, ResponseCall(ctx, tools, item.AsFunctionCall()))
		}
	}
	return out
}
