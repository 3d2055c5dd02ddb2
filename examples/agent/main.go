// Command agent is a minimal agent showing toolgen's go:generate story end
// to end: the descriptors in tools/ are compiled into tools/tools_gen.go by
// go generate (see the go:generate line in tools/doc.go), and this program
// builds the tools on a kernel and runs them, once typed and once as a model
// would, by name with JSON arguments.
//
// From the repository's root (its tools read main.go of the workspace):
//
//	go generate ./examples/agent/...
//	go run ./examples/agent -workspace examples/agent
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/nanogpt/toolgen/examples/agent/tools"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/preset"
)

func main() {
	workspace := flag.String("workspace", ".", "directory the tools run in; paths must stay inside it")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *workspace); err != nil {
		log.Fatal(err)
	}
}

// run builds the generated tools on a kernel confined to workspace and runs
// them, printing what the model would see.
func run(ctx context.Context, w io.Writer, workspace string) error {
	k, err := kernel.New(workspace)
	if err != nil {
		return err
	}

	// Typed: a generated tool with its Go argument struct. Optional slots
	// are pointers; nil means the descriptor's default.
	list, err := tools.NewFileList(k)
	if err != nil {
		return err
	}
	res, err := list.Run(ctx, tools.FileListArgs{Depth: new(int64(1))})
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("file_list: exit %d: %s", res.ExitCode, res.Output)
	}
	fmt.Fprintf(w, "file_list {depth: 1}:\n%s\n", res.Text())

	// As the model calls it: the same tools in a registry, by name, with
	// JSON arguments. A rejected value is a 614 the model can act on.
	p, err := preset.New(preset.WithWorkspace(workspace), preset.WithoutBuiltins(),
		preset.WithCommandTools("github.com/nanogpt/toolgen/examples/agent/tools", tools.Tools))
	if err != nil {
		return err
	}
	for _, call := range []struct{ name, args string }{
		{"count_matches", `{"pattern":"func","path":"main.go"}`},
		{"count_matches", `{"pattern":"func;id","path":"main.go"}`},
	} {
		t, ok := p.Registry.Get(call.name)
		if !ok {
			return fmt.Errorf("no tool %s", call.name)
		}
		out, err := t.Call(ctx, json.RawMessage(call.args))
		if err != nil {
			out = err.Error()
		}
		fmt.Fprintf(w, "%s %s:\n%s\n", call.name, call.args, out)
	}
	return nil
}
