package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Outcome is a tools/call result's structuredContent for a command tool:
// how the command ended, next to the text content the model reads. It is
// what the OutputSchema describes.
type Outcome struct {
	// ExitCode is the command's exit status (kernel.Result.ExitCode: 124 on
	// timeout, 128+n when killed by signal n).
	ExitCode int `json:"exit_code"`
	// Output is stdout and stderr interleaved, bounded by the output limit
	// (kernel.Result.Output); stdout alone when the tool keeps stderr apart
	// (a descriptor's "stderr": "separate").
	Output string `json:"output"`
	// Truncated reports that the middle of the output was dropped.
	Truncated bool `json:"truncated"`
	// Stderr is the command's stderr, bounded on its own, when the tool
	// keeps it apart; nil (left out) when stderr is in Output.
	Stderr *string `json:"stderr,omitempty"`
	// StderrTruncated reports that the middle of Stderr was dropped; nil
	// (left out) when stderr is in Output.
	StderrTruncated *bool `json:"stderr_truncated,omitempty"`
	// TimedOut reports that the timeout ended the command.
	TimedOut bool `json:"timed_out"`
	// LimitReason names the resource limit that ended the command ("cpu
	// time limit 30s exceeded"); "" when none did.
	LimitReason string `json:"limit_reason"`
}

// OutputSchema is the JSON Schema of Outcome, the outputSchema of every
// command tool the server or AddTools serves.
var OutputSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"exit_code":{"type":"integer","description":"the command's exit status: 124 on timeout, 128+n when killed by signal n"},` +
	`"output":{"type":"string","description":"stdout and stderr interleaved (stdout alone when stderr is kept apart); when truncated, the middle is replaced by a marker line"},` +
	`"truncated":{"type":"boolean","description":"the middle of the output was dropped (output limit)"},` +
	`"stderr":{"type":"string","description":"stderr, when the tool keeps it apart from stdout (output is then stdout alone); absent otherwise"},` +
	`"stderr_truncated":{"type":"boolean","description":"the middle of stderr was dropped (output limit); absent when stderr is in output"},` +
	`"timed_out":{"type":"boolean","description":"the timeout ended the command and its process group"},` +
	`"limit_reason":{"type":"string","description":"the resource limit that ended the command, or empty"}},` +
	`"required":["exit_code","output","truncated","timed_out","limit_reason"],"additionalProperties":false}`)

// outcomeOf is the Outcome of a kernel result.
func outcomeOf(r kernel.Result) Outcome {
	o := Outcome{ExitCode: r.ExitCode, Output: r.Output, Truncated: r.Truncated, TimedOut: r.TimedOut, LimitReason: r.Limit}
	if r.SeparateStderr {
		o.Stderr, o.StderrTruncated = &r.Stderr, &r.StderrTruncated
	}
	return o
}

// runsCommands reports whether a tool runs one command on a kernel per call,
// so that its result has an Outcome: every tool.SpecTool (the command tools
// of package base), and a tool.Hinted one that says so (ExecTool).
func runsCommands(t tool.Tool) bool {
	switch t := t.(type) {
	case tool.SpecTool:
		return true
	case tool.Hinted:
		return t.Hints().RunsCommand
	}
	return false
}

// Annotations returns the MCP annotations of a tool, from its Spec: the
// title; readOnlyHint when it does not write; destructiveHint, for one that
// writes, as the Spec declares it (true when it does not say); openWorldHint
// when it has network access (to every host, or to the hosts it names). A
// tool.Hinted tool gets its Hints (ExecTool: neither read-only nor closed,
// its commands are the model's). Any other tool gets nil: nothing is
// claimed for it.
func Annotations(t tool.Tool) *sdk.ToolAnnotations {
	if st, ok := t.(tool.SpecTool); ok {
		s := st.Spec()
		a := &sdk.ToolAnnotations{Title: s.Title, ReadOnlyHint: !s.Writes, OpenWorldHint: new(s.Network || len(s.Hosts) > 0)}
		if s.Writes {
			a.DestructiveHint = new(s.Destructive == nil || *s.Destructive)
		}
		return a
	}
	if ht, ok := t.(tool.Hinted); ok {
		h := ht.Hints()
		a := &sdk.ToolAnnotations{Title: h.Title, ReadOnlyHint: h.ReadOnly, OpenWorldHint: h.OpenWorld}
		if !h.ReadOnly {
			a.DestructiveHint = new(h.Destructive)
		}
		return a
	}
	return nil
}

// Definition returns a tool's MCP definition: name, title, description,
// input schema passed through byte for byte (compacted, so the properties
// keep the order of the slots), annotations (Annotations) and, for a
// command tool, OutputSchema. An input schema that is not a JSON object
// schema is an error (the SDK would panic on it).
func Definition(t tool.Tool) (*sdk.Tool, error) {
	schema, err := objectSchema(t)
	if err != nil {
		return nil, err
	}
	def := &sdk.Tool{Name: t.Name(), Description: t.Description(), InputSchema: schema,
		Annotations: Annotations(t)}
	if def.Annotations != nil {
		def.Title = def.Annotations.Title
	}
	if runsCommands(t) {
		def.OutputSchema = OutputSchema
	}
	return def, nil
}

// hintsOf is the part of def beyond name, description and input schema,
// marshalled: what a Sync compares besides them.
func hintsOf(def *sdk.Tool) []byte {
	data, _ := json.Marshal(struct {
		Title       string               `json:"title"`
		Annotations *sdk.ToolAnnotations `json:"annotations"`
		Output      any                  `json:"outputSchema"`
	}{def.Title, def.Annotations, def.OutputSchema})
	return data
}

// observed runs call under a kernel observer and returns its text and error
// with the Outcome of the command it ran (nil when it ran none).
func observed(ctx context.Context, call func(context.Context) (string, error)) (string, *Outcome, error) {
	var out *Outcome
	ctx = kernel.WithObserver(ctx, func(r kernel.Result, _ error) {
		o := outcomeOf(r)
		out = &o
	})
	text, err := call(ctx)
	return text, out, err
}

// result is the tools/call result of a call that returned text, err and
// (for a command tool) the outcome: an error is an isError result with the
// error's text; otherwise the text, and the outcome as structuredContent.
func result(text string, out *Outcome, err error) *sdk.CallToolResult {
	if err != nil {
		return errorResult(err)
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
	if out != nil {
		res.StructuredContent = out
	}
	return res
}

// AddTools adds tools to a server of the user's own (sdk.NewServer), each
// with its Definition and a handler that runs it: the text the model sees as
// TextContent, the Outcome as structuredContent, a rejected argument (614)
// or a failed start as an isError result, a panic of a tool as an isError
// result too. Arguments are validated by the tool itself, as everywhere.
// Tools keep their names; one added twice replaces the first. A tool whose
// schema is not an object schema is not added, and the error says which;
// the others are. For a registry, pass reg.Tools().
//
//	tools, err := mytools.Tools(k) // generated by toolgen
//	...
//	err = mcp.AddTools(server, tools...)
func AddTools(srv *sdk.Server, tools ...tool.Tool) error {
	var errs []error
	for _, t := range tools {
		def, err := Definition(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		srv.AddTool(def, handler(t))
	}
	return errors.Join(errs...)
}

// handler is the raw SDK handler of one tool of AddTools.
func handler(t tool.Tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, _ error) {
		defer func() {
			if r := recover(); r != nil {
				res = errorResult(fmt.Errorf("%s: internal error: the tool panicked: %v", t.Name(), r))
			}
		}()
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		ctx = withProgress(ctx, req) // progress.go
		text, out, err := observed(ctx, func(ctx context.Context) (string, error) { return t.Call(ctx, args) })
		return result(text, out, err), nil
	}
}
