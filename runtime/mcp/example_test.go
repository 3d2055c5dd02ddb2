package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// Serve speaks MCP over a stream pair, one JSON-RPC message a line, as
// toolgen serve does on stdin and stdout. It answers every request it read
// and returns when its input ends. A rejected argument is a result with
// isError (the model corrects itself); an unknown tool is a protocol error.
func ExampleServer_Serve() {
	ws, err := os.MkdirTemp("", "mcp-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(ws)
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	// sandbox.Off only keeps this example's output the same on kernels
	// without Landlock (where best-effort adds a note to each result);
	// leave the default in real use.
	p, err := preset.New(preset.WithWorkspace(ws), preset.WithOnly("grep_text"), preset.WithConfinement(sandbox.Off))
	if err != nil {
		log.Fatal(err)
	}
	srv, err := mcp.New(p.Registry, mcp.WithImplementation("toolgen", "example"))
	if err != nil {
		log.Fatal(err)
	}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"grep_text","arguments":{"pattern":"tw","path":"notes.txt"}}}
`)
	var out bytes.Buffer
	if err := srv.Serve(context.Background(), in, &out); err != nil {
		log.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	fmt.Println(len(lines), strings.Contains(lines[0], `"serverInfo":{"name":"toolgen","version":"example"}`))
	fmt.Println(lines[1])
	// Output:
	// 2 true
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"exit: 0\noutput: 2:two\n"}]}}
}
