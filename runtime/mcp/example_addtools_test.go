package mcp_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/mcp"
)

// Generated tools (package descriptors, made by toolgen generate) added to
// an MCP server of your own in one call; a client then sees their
// annotations and gets the command's outcome as structured content next to
// the text. Here the client is in memory; a real one connects over stdio
// or HTTP.
func ExampleAddTools() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "mcp-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\nfix the build\n"), 0o644)

	server := sdk.NewServer(&sdk.Implementation{Name: "agent", Version: "1"}, nil)
	k, _ := kernel.New(dir)
	tools, _ := descriptors.Tools(k)
	if err := mcp.AddTools(server, tools...); err != nil {
		log.Fatal(err)
	}

	st, ct := sdk.NewInMemoryTransports()
	ss, _ := server.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := sdk.NewClient(&sdk.Implementation{Name: "model", Version: "1"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()

	list, _ := cs.ListTools(ctx, nil)
	for _, t := range list.Tools {
		if t.Name == "search_text" {
			fmt.Println("read-only:", t.Annotations.ReadOnlyHint, "open world:", *t.Annotations.OpenWorldHint)
		}
	}
	res, _ := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_text",
		Arguments: map[string]any{"pattern": "milk", "path": "notes.txt"}})
	out := res.StructuredContent.(map[string]any)
	fmt.Println("exit code:", out["exit_code"], "truncated:", out["truncated"])
	fmt.Print(res.Content[0].(*sdk.TextContent).Text)
	// Output:
	// read-only: true open world: false
	// exit code: 0 truncated: false
	// exit: 0
	// output: 1:buy milk
}
