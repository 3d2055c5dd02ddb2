package mcp

import (
	"testing"

	"github.com/nanogpt/toolgen/internal/outside"
)

// agentMain is an outside module's program: generated tools (package
// descriptors) added to the module's own go-sdk server in five lines of
// wiring, marked; a go-sdk client then calls one, and a real grep runs.
const agentMain = `package main

import (
	"context"
	"fmt"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/mcp"
)

func main() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "agent")
	defer os.RemoveAll(dir)
	os.WriteFile(dir+"/hay.txt", []byte("straw\na needle\n"), 0o644)

	server := sdk.NewServer(&sdk.Implementation{Name: "agent", Version: "1"}, nil) // 1
	k, _ := kernel.New(dir)                                                         // 2
	tools, _ := descriptors.Tools(k)                                                // 3
	if err := mcp.AddTools(server, tools...); err != nil {                          // 4
		panic(err) // 5
	}

	st, ct := sdk.NewInMemoryTransports()
	ss, _ := server.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := sdk.NewClient(&sdk.Implementation{Name: "model", Version: "1"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_text",
		Arguments: map[string]any{"pattern": "needle", "path": "hay.txt"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.StructuredContent.(map[string]any)["exit_code"])
	fmt.Print(res.Content[0].(*sdk.TextContent).Text)
}
`

// TestOutsideModule: a module outside this repository adds the generated
// tools to its own go-sdk server in one call and a client's call runs grep.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own")
	}
	got := outside.Run(t, "../..", agentMain)
	if want := "0\nexit: 0\noutput: 2:a needle\n"; got != want {
		t.Errorf("outside module printed %q, want %q", got, want)
	}
}
