package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var schemaCmd = &command{
	name:    "schema",
	summary: "Print the tools' definitions in the shape an API expects (mcp, openai, anthropic), sorted by name.",
	usage:   "[--tools DIR] [--workspace DIR] [--exec-allow BIN,...] [--only NAME,...] [--no-builtins] [--format mcp|openai|anthropic]",
	run:     runSchema,
}

// schemaHelp follows the flags in "toolgen schema -h".
const schemaHelp = `
Formats (JSON on stdout; each input schema as the tool gives it, properties in slot order):
  mcp        the result of MCP tools/list: {"tools": [{"name", "description", "inputSchema"}]}
  openai     the value of a Chat Completions request's "tools" field:
             [{"type": "function", "function": {"name", "description", "parameters"}}]
  anthropic  the value of a Messages request's "tools" field:
             [{"name", "description", "input_schema"}]
`

// schemaFormats maps each --format to the shape it prints. Each input schema
// is passed through as raw JSON, so the properties keep the slots' order.
var schemaFormats = map[string]func(tools []schemaTool) any{
	// MCP: exactly the result of tools/list.
	"mcp": func(tools []schemaTool) any {
		type def struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		defs := make([]def, len(tools))
		for i, t := range tools {
			defs[i] = def{t.name, t.description, t.schema}
		}
		return struct {
			Tools []def `json:"tools"`
		}{defs}
	},
	// OpenAI Chat Completions: the value of the request's "tools" field.
	"openai": func(tools []schemaTool) any {
		type function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		type def struct {
			Type     string   `json:"type"`
			Function function `json:"function"`
		}
		defs := make([]def, len(tools))
		for i, t := range tools {
			defs[i] = def{"function", function{t.name, t.description, t.schema}}
		}
		return defs
	},
	// Anthropic Messages: the value of the request's "tools" field.
	"anthropic": func(tools []schemaTool) any {
		type def struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		}
		defs := make([]def, len(tools))
		for i, t := range tools {
			defs[i] = def{t.name, t.description, t.schema}
		}
		return defs
	},
}

// schemaTool is one tool's definition, independent of the API.
type schemaTool struct {
	name, description string
	schema            json.RawMessage
}

func runSchema(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	fs := c.newFlagSet(env)
	f.register(fs, false)
	format := fs.String("format", "mcp", "the API shape: mcp, openai or anthropic")
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), schemaHelp) }
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return c.usageErr(env, "unexpected argument %q", pos[0])
	}
	shape, ok := schemaFormats[*format]
	if !ok {
		return c.usageErr(env, "unknown --format %q: want mcp, openai or anthropic", *format)
	}
	p, code := assemble(env, &f)
	if p == nil {
		return code
	}
	tools, err := schemaTools(p.Registry)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen schema: %v\n", err)
		return exitFailure
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // descriptions keep their & < >
	if err := enc.Encode(shape(tools)); err != nil {
		fmt.Fprintf(env.stderr, "toolgen schema: %v\n", err)
		return exitFailure
	}
	env.stdout.Write(out.Bytes())
	return exitOK
}

// schemaTools returns the registry's tools, sorted by name, with the input
// schemas the MCP server would serve (the same checks: a JSON object schema).
func schemaTools(reg *tool.Registry) ([]schemaTool, error) {
	defs, errs := mcp.Tools(reg)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	out := make([]schemaTool, len(defs))
	for i, d := range defs {
		out[i] = schemaTool{d.Name, d.Description, d.InputSchema.(json.RawMessage)}
	}
	return out, nil
}
