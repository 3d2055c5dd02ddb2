package openaitool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/nanogpt/toolgen/adapters/openaitool"
	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// workspace returns a directory holding notes.txt, for the examples.
func workspace() string {
	dir, err := os.MkdirTemp("", "openaitool-example")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\nfix the build\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	return dir
}

// A Chat Completions turn: the generated tools (package descriptors, made
// by toolgen generate) as the request's tools, and the model's tool call
// run for real (grep) and answered with a tool message. The completion is
// the JSON the API returns, faked here.
func Example_chat() {
	ctx := context.Background()
	dir := workspace()
	defer os.RemoveAll(dir)

	k, _ := kernel.New(dir)
	tools, _ := descriptors.Tools(k)
	params := openai.ChatCompletionNewParams{Model: openai.ChatModelGPT5_5, Tools: openaitool.ChatTools(tools)}

	var completion openai.ChatCompletion // client.Chat.Completions.New(ctx, params)
	_ = json.Unmarshal([]byte(`{"id":"c1","object":"chat.completion","created":0,"model":"gpt-5",
		"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
		"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search_text","arguments":"{\"pattern\":\"build\",\"path\":\"notes.txt\"}"}}]}}]}`), &completion)

	msg := completion.Choices[0].Message
	params.Messages = append(params.Messages, msg.ToParam())
	params.Messages = append(params.Messages, openaitool.ChatCalls(ctx, tools, msg)...)

	reply := params.Messages[1].OfTool
	fmt.Println(reply.ToolCallID)
	fmt.Println(reply.Content.OfString.Value)
	// Output:
	// call_1
	// exit: 0
	// output: 2:fix the build
}

// A Responses turn: the function calls among the response's output items
// run and answered with function_call_output items. A value the validator
// rejects is answered with the 614 text, for the model to correct.
func Example_responses() {
	ctx := context.Background()
	dir := workspace()
	defer os.RemoveAll(dir)

	k, _ := kernel.New(dir)
	tools, _ := descriptors.Tools(k)
	params := responses.ResponseNewParams{Model: openai.ChatModelGPT5_5, Tools: openaitool.ResponseTools(tools)}
	_ = params

	var resp responses.Response // client.Responses.New(ctx, params)
	_ = json.Unmarshal([]byte(`{"id":"r1","object":"response","created_at":0,"model":"gpt-5","status":"completed",
		"output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"search_text","arguments":"{\"pattern\":\"milk\"}"},
		{"type":"function_call","id":"fc_2","call_id":"call_2","name":"search_text","arguments":"{\"pattern\":\"x;rm\"}"}]}`), &resp)

	for _, item := range openaitool.ResponseCalls(ctx, tools, &resp) {
		out := item.OfFunctionCallOutput
		fmt.Printf("%s: %.60s\n", out.CallID.Value, strings.TrimSpace(out.Output.OfString.Value))
	}
	// Output:
	// call_1: exit: 0
	// output: ./notes.txt:1:buy milk
	// call_2: error 614: slot "pattern": character ';' (U+003B SEMICOLON)
}
