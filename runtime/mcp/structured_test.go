package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/audit"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// hintTools returns a read-only grep tool, a writing tool that declares
// itself additive, one that writes without saying (destructive by default)
// and a network tool, on k, with the workspace holding a.txt.
func hintTools(t *testing.T, k *kernel.Kernel) []tool.Tool {
	t.Helper()
	if err := os.WriteFile(filepath.Join(k.Workspace(), "a.txt"), []byte("one needle\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	specs := []tool.Spec{
		{Name: "search", Title: "Search text", Description: "grep", Command: "grep -n {pattern} {path}",
			Args: []tool.Arg{{Name: "pattern", Type: tool.String, Required: true, Description: "p"},
				{Name: "path", Type: tool.Path, Required: true, Description: "f"}}},
		{Name: "touch", Description: "touch", Command: "touch {path}", Writes: true, Destructive: new(false),
			Args: []tool.Arg{{Name: "path", Type: tool.Path, Required: true, Description: "f"}}},
		{Name: "copy", Description: "cp", Command: "cp {from} {to}", Writes: true,
			Args: []tool.Arg{{Name: "from", Type: tool.Path, Required: true, Description: "f"},
				{Name: "to", Type: tool.Path, Required: true, Description: "t"}}},
		{Name: "fetch", Description: "curl", Command: "curl -s {url}", Network: true,
			Args: []tool.Arg{{Name: "url", Type: tool.String, Required: true, Description: "u"}}},
	}
	var out []tool.Tool
	for _, s := range specs {
		b, err := base.New(s, k)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// listed returns the tools/list definitions of cs by name.
func listed(t *testing.T, cs *sdk.ClientSession) map[string]*sdk.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

type wantHints struct {
	title                  string
	readOnly               bool
	destructive, openWorld *bool
	outputSchema           bool
}

func checkHints(t *testing.T, defs map[string]*sdk.Tool, want map[string]wantHints) {
	t.Helper()
	for name, w := range want {
		d := defs[name]
		if d == nil {
			t.Errorf("%s: not listed", name)
			continue
		}
		a := d.Annotations
		if a == nil {
			t.Errorf("%s: no annotations", name)
			continue
		}
		if a.Title != w.title || d.Title != w.title {
			t.Errorf("%s: title %q / annotations.title %q, want %q", name, d.Title, a.Title, w.title)
		}
		if a.ReadOnlyHint != w.readOnly {
			t.Errorf("%s: readOnlyHint %v, want %v", name, a.ReadOnlyHint, w.readOnly)
		}
		if !samePtr(a.DestructiveHint, w.destructive) {
			t.Errorf("%s: destructiveHint %v, want %v", name, show(a.DestructiveHint), show(w.destructive))
		}
		if !samePtr(a.OpenWorldHint, w.openWorld) {
			t.Errorf("%s: openWorldHint %v, want %v", name, show(a.OpenWorldHint), show(w.openWorld))
		}
		if (d.OutputSchema != nil) != w.outputSchema {
			t.Errorf("%s: outputSchema %v, want one: %v", name, d.OutputSchema, w.outputSchema)
		}
	}
}

func samePtr(a, b *bool) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
func show(p *bool) any {
	if p == nil {
		return "unset"
	}
	return *p
}

var (
	yes = new(true)
	no  = new(false)
)

// TestAnnotations: tools/list carries what each descriptor declares, read
// by the go-sdk client: readOnlyHint for a tool that does not write, the
// declared or default destructiveHint for one that does, openWorldHint as
// its network access, the title; the exec tool is neither read-only nor
// closed; a tool that is not a command tool claims nothing and has no
// output schema.
func TestAnnotations(t *testing.T) {
	k := newKernel(t)
	tools := hintTools(t, k)
	ex, err := exec.New(k, []string{"ls"})
	if err != nil {
		t.Fatal(err)
	}
	plain := &funcTool{name: "plain", call: func(context.Context, json.RawMessage) (string, error) { return "hi", nil }}
	look := &hintedTool{funcTool{name: "look", call: plain.call}, tool.Hints{Title: "Look", ReadOnly: true, OpenWorld: no}}
	run := &hintedTool{funcTool{name: "run", call: plain.call}, tool.Hints{RunsCommand: true}}
	reg := registry(t, append(tools, plain, look, run)...)
	if err := reg.Add(tool.Entry{Tool: ex, Form: tool.FormExec, Source: "exec"}); err != nil {
		t.Fatal(err)
	}
	// The audit wrapper hides the tools' types from the server: the hints
	// come from the tools as registered.
	var logged lockedBuilder
	aud := audit.New(audit.NewWriter(&logged))
	cs := connect(t, newServer(t, reg, WithToolWrapper(aud.Wrap)), nil)
	defs := listed(t, cs)
	checkHints(t, defs, map[string]wantHints{
		"search": {title: "Search text", readOnly: true, openWorld: no, outputSchema: true},
		"touch":  {readOnly: false, destructive: no, openWorld: no, outputSchema: true},
		"copy":   {readOnly: false, destructive: yes, openWorld: no, outputSchema: true},
		"fetch":  {readOnly: true, openWorld: yes, outputSchema: true},
		"exec":   {title: "Run one command", readOnly: false, destructive: yes, outputSchema: true},
		"look":   {title: "Look", readOnly: true, openWorld: no},
		"run":    {destructive: no, outputSchema: true},
	})
	if p := defs["plain"]; p == nil || p.Annotations != nil || p.OutputSchema != nil {
		t.Errorf("plain tool: annotations %+v, output schema %v; want neither", p.Annotations, p.OutputSchema)
	}
}

// hintedTool is a funcTool stating hints (tool.Hinted), as ExecTool does:
// the server knows tools through runtime/tool's interfaces only.
type hintedTool struct {
	funcTool
	hints tool.Hints
}

func (h *hintedTool) Hints() tool.Hints { return h.hints }

// TestStructuredContent: a command tool's result carries the outcome as
// structuredContent next to the same text, through the audit wrapper; a
// non-zero exit is a result, not an error; a 614 is an isError result with
// no structured content; a tool that runs no command has none.
func TestStructuredContent(t *testing.T) {
	k := newKernel(t)
	plain := &funcTool{name: "plain", call: func(context.Context, json.RawMessage) (string, error) { return "hi", nil }}
	reg := registry(t, append(hintTools(t, k), plain)...)
	var logged lockedBuilder
	aud := audit.New(audit.NewWriter(&logged))
	cs := connect(t, newServer(t, reg, WithToolWrapper(aud.Wrap)), nil)

	res := call(t, cs, "search", map[string]any{"pattern": "needle", "path": "a.txt"})
	if res.IsError {
		t.Fatalf("search failed: %s", text(t, res))
	}
	got := outcome(t, res)
	if got.ExitCode != 0 || got.Output != "1:one needle\n" || got.Truncated || got.TimedOut || got.LimitReason != "" {
		t.Errorf("structured content = %+v", got)
	}
	if txt := text(t, res); txt != "exit: 0\noutput: 1:one needle\n" {
		t.Errorf("text = %q", txt)
	}

	res = call(t, cs, "search", map[string]any{"pattern": "absent", "path": "a.txt"})
	if got := outcome(t, res); res.IsError || got.ExitCode != 1 || got.Output != "" {
		t.Errorf("no match: isError %v, structured %+v", res.IsError, got)
	}

	res = call(t, cs, "search", map[string]any{"pattern": "a;b", "path": "a.txt"})
	if !res.IsError || res.StructuredContent != nil || !strings.Contains(text(t, res), "error 614") {
		t.Errorf("rejected value: isError %v, structured %v, text %q", res.IsError, res.StructuredContent, text(t, res))
	}
	res = call(t, cs, "plain", map[string]any{})
	if res.IsError || res.StructuredContent != nil || text(t, res) != "hi" {
		t.Errorf("plain tool: isError %v, structured %v", res.IsError, res.StructuredContent)
	}
	// The audit log's own observer still saw the runs (observers nest).
	if log := logged.String(); strings.Count(log, `"exit":`) < 2 {
		t.Errorf("audit log lacks the runs' exit codes:\n%s", log)
	}
}

// lockedBuilder is a strings.Builder safe for the audit log's writes.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// outcome decodes a result's structuredContent as the client received it.
func outcome(t *testing.T, res *sdk.CallToolResult) Outcome {
	t.Helper()
	if res.StructuredContent == nil {
		t.Fatalf("no structured content: %+v", res)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var o Outcome
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("structured content %s: %v", data, err)
	}
	for _, key := range []string{"exit_code", "output", "truncated", "timed_out", "limit_reason"} {
		if !strings.Contains(string(data), `"`+key+`"`) {
			t.Errorf("structured content %s lacks %q (the output schema requires it)", data, key)
		}
	}
	return o
}

// TestOutputSchemaDescribesOutcome: the advertised schema lists exactly the
// fields an Outcome marshals, the required ones those of every Outcome, the
// others those of a tool that keeps stderr apart.
func TestOutputSchemaDescribesOutcome(t *testing.T) {
	var s struct {
		Properties map[string]any `json:"properties"`
		Required   []string       `json:"required"`
	}
	if err := json.Unmarshal(OutputSchema, &s); err != nil {
		t.Fatal(err)
	}
	fieldsOf := func(o Outcome) map[string]any {
		data, _ := json.Marshal(o)
		var fields map[string]any
		if err := json.Unmarshal(data, &fields); err != nil {
			t.Fatal(err)
		}
		return fields
	}
	fields := fieldsOf(Outcome{})
	all := fieldsOf(outcomeOf(kernel.Result{SeparateStderr: true}))
	if len(all) != len(s.Properties) || len(s.Required) != len(fields) {
		t.Fatalf("schema properties %v required %v, Outcome fields %v (%v with stderr apart)", s.Properties, s.Required, fields, all)
	}
	for p := range s.Properties {
		if _, ok := all[p]; !ok {
			t.Errorf("schema lists %q, which no Outcome marshals", p)
		}
	}
	for _, r := range s.Required {
		if _, ok := fields[r]; !ok {
			t.Errorf("schema requires %q, which Outcome does not marshal", r)
		}
	}
}

// TestAddTools: generated-style tools added to the user's own go-sdk server
// in one call serve like toolgen serve's: schema in slot order, hints,
// structured content, a real grep run; a tool with a bad schema is refused
// by name while the others are added.
func TestAddTools(t *testing.T) {
	k := newKernel(t)
	tools := hintTools(t, k)
	bad := &funcTool{name: "bad", schema: `{"type":"array"}`}
	srv := sdk.NewServer(&sdk.Implementation{Name: "mine", Version: "1"}, nil)
	err := AddTools(srv, append(tools, bad)...)
	if err == nil || !strings.Contains(err.Error(), `tool "bad"`) {
		t.Fatalf("AddTools error = %v, want one naming the bad tool", err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	defs := listed(t, cs)
	if len(defs) != len(tools) {
		t.Errorf("listed %d tools, want %d", len(defs), len(tools))
	}
	checkHints(t, defs, map[string]wantHints{
		"search": {title: "Search text", readOnly: true, openWorld: no, outputSchema: true},
		"copy":   {readOnly: false, destructive: yes, openWorld: no, outputSchema: true},
	})
	// The client decodes a schema into a map; the raw list keeps the order.
	raw, _ := json.Marshal(defs["copy"].InputSchema)
	if !strings.Contains(string(raw), `"from"`) {
		t.Errorf("copy schema = %s", raw)
	}
	res := call(t, cs, "search", map[string]any{"pattern": "needle", "path": "a.txt"})
	if got := outcome(t, res); got.Output != "1:one needle\n" {
		t.Errorf("structured content %+v", got)
	}
	res = call(t, cs, "search", map[string]any{"pattern": "-e", "path": "a.txt"})
	if !res.IsError || !strings.Contains(text(t, res), "error 614") {
		t.Errorf("option injection: isError %v, %q", res.IsError, text(t, res))
	}
}
