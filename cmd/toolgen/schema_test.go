package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/preset"
)

// TestSchemaMCPIsToolsList: toolgen schema --format mcp prints exactly what
// a server built from the same flags answers to tools/list: titles,
// annotations (read-only, destructive, open-world) and output schemas
// included, for built-in, descriptor and exec tools.
func TestSchemaMCPIsToolsList(t *testing.T) {
	ws, tools := t.TempDir(), t.TempDir()
	for name, body := range map[string]string{
		"touch.tool.json": `{"name":"touch_file","title":"Touch a file","description":"d","command":"touch {path}","writes":true,` +
			`"destructive":false,"arguments":{"path":{"type":"path","description":"p","required":true}}}`,
		"fetch.tool.json": `{"name":"fetch","description":"d","command":"curl -s https://example.org/","network":{"hosts":["example.org:443"]}}`,
		"plain.tool.json": `{"name":"plain","description":"d","command":"ls"}`,
	} {
		if err := os.WriteFile(filepath.Join(tools, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"--tools", tools, "--workspace", ws, "--exec-allow", "ls"}
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"schema", "--format", "mcp"}, args...), &stdout, &stderr); code != exitOK {
		t.Fatalf("schema: exit %d: %s", code, stderr.String())
	}
	var exported struct{ Tools []map[string]any }
	if err := json.Unmarshal(stdout.Bytes(), &exported); err != nil {
		t.Fatal(err)
	}

	var f toolFlags
	fs := serveCmd.newFlagSet(&cmdEnv{stdout: &stdout, stderr: &stderr})
	f.register(fs, true)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	p, err := preset.New(f.options()...)
	if err != nil || len(p.Problems) > 0 {
		t.Fatalf("preset: %v %v", err, p.Problems)
	}
	srv, err := mcp.New(p.Registry)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	listed, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var served []map[string]any
	data, _ := json.Marshal(listed.Tools)
	if err := json.Unmarshal(data, &served); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(exported.Tools, served) {
		t.Errorf("schema --format mcp differs from tools/list:\nschema: %v\nserved: %v", exported.Tools, served)
	}
	// The comparison is not vacuous: what the server adds is there.
	byName := map[string]map[string]any{}
	for _, tl := range exported.Tools {
		byName[tl["name"].(string)] = tl
	}
	for name, key := range map[string]string{"touch_file": "title", "fetch": "annotations", "plain": "outputSchema", "exec": "annotations"} {
		if byName[name] == nil || byName[name][key] == nil {
			t.Errorf("%s: no %s in the export: %v", name, key, byName[name])
		}
	}
}
