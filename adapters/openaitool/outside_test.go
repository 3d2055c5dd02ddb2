package openaitool_test

import (
	"testing"

	"github.com/nanogpt/toolgen/internal/outside"
)

// agentMain is an outside module's program: generated tools (package
// descriptors) wired into a Chat Completions request and the model's tool
// call (the API's JSON, faked) run, in five lines of wiring, marked.
const agentMain = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/openai/openai-go/v3"

	"github.com/nanogpt/toolgen/adapters/openaitool"
	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

const reply = ` + "`" + `{"id":"c","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",
"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
"function":{"name":"search_text","arguments":"{\"pattern\":\"needle\",\"path\":\"hay.txt\"}"}}]}}]}` + "`" + `

func main() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "agent")
	defer os.RemoveAll(dir)
	os.WriteFile(dir+"/hay.txt", []byte("straw\na needle\n"), 0o644)
	var completion openai.ChatCompletion
	json.Unmarshal([]byte(reply), &completion)

	k, _ := kernel.New(dir)                                                    // 1
	tools, _ := descriptors.Tools(k)                                           // 2
	params := openai.ChatCompletionNewParams{Tools: openaitool.ChatTools(tools)} // 3
	msg := completion.Choices[0].Message                                        // 4
	answers := openaitool.ChatCalls(ctx, tools, msg)                            // 5

	fmt.Println(len(params.Tools) > 0, answers[0].OfTool.ToolCallID)
	fmt.Print(answers[0].OfTool.Content.OfString.Value)
}
`

// TestOutsideModule: a module outside this repository wires the generated
// tools into the SDK with the adapter and runs the model's call: a real grep.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own")
	}
	got := outside.Run(t, ".", agentMain)
	if want := "true call_1\nexit: 0\noutput: 2:a needle\n"; got != want {
		t.Errorf("outside module printed %q, want %q", got, want)
	}
}
