package anthropictool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/nanogpt/toolgen/adapters/anthropictool"
	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// A Messages turn: the generated tools (package descriptors, made by
// toolgen generate) as the request's tools, and the model's tool_use blocks
// run for real (grep) and answered with tool_result blocks; a rejected
// value is a tool_result with is_error, for the model to correct. The
// message is the JSON the API returns, faked here.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "anthropictool-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\nfix the build\n"), 0o644)

	k, _ := kernel.New(dir)
	tools, _ := descriptors.Tools(k)
	params := anthropic.MessageNewParams{MaxTokens: 1024, Tools: anthropictool.Tools(tools)}

	var msg anthropic.Message // client.Messages.New(ctx, params)
	_ = json.Unmarshal([]byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude","stop_reason":"tool_use",
		"content":[{"type":"text","text":"Searching."},
		{"type":"tool_use","id":"toolu_1","name":"search_text","input":{"pattern":"build","path":"notes.txt"}},
		{"type":"tool_use","id":"toolu_2","name":"search_text","input":{"pattern":"x","path":"../etc"}}]}`), &msg)

	params.Messages = append(params.Messages, msg.ToParam())
	params.Messages = append(params.Messages, anthropic.NewUserMessage(anthropictool.Results(ctx, tools, &msg)...))

	for _, block := range params.Messages[1].OfUser.Content {
		r := block.OfToolResult
		fmt.Printf("%s error=%v: %.58q\n", r.ToolUseID, r.IsError.Value, r.Content[0].OfText.Text)
	}
	// Output:
	// toolu_1 error=false: "exit: 0\noutput: 2:fix the build\n"
	// toolu_2 error=true: "error 614: slot \"path\": path \"../etc\" climbs out of the wo"
}
