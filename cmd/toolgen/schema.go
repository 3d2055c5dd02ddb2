package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/schema"
)

var schemaCmd = &command{
	name:    "schema",
	summary: "Print the tools' definitions in the shape an API expects (mcp, openai, openai-responses, anthropic), sorted by name.",
	usage:   toolFlagsUsage + " [--format FORMAT] [--strict] | --descriptor",
	run:     runSchema,
}

// schemaHelp follows the flags in "toolgen schema -h".
const schemaHelp = `
Formats (JSON on stdout; each input schema as the tool gives it, properties in slot order):
  mcp               the result of MCP tools/list, exactly as toolgen serve sends it:
                    {"tools": [{"name", "title", "description", "inputSchema", "outputSchema", "annotations"}]}
  openai            the value of a Chat Completions request's "tools" field:
                    [{"type": "function", "function": {"name", "description", "parameters"}}]
  openai-responses  the value of a Responses API request's "tools" field (flat):
                    [{"type": "function", "name", "description", "parameters", "strict"}]
                    ("strict": false unless --strict: that API is strict by default)
  anthropic         the value of a Messages request's "tools" field:
                    [{"name", "description", "input_schema"}]

--strict (openai, openai-responses) writes schemas OpenAI's strict mode accepts as they are:
every property required, the optional ones nullable (toolgen reads null as "not given"),
"additionalProperties": false, and "strict": true on each function. Strict mode refuses
"default", so each default is stated in its property's description instead; any other
keyword outside strict mode's subset is dropped with a note on stderr.

--descriptor prints tool.schema.json instead, the JSON Schema of *.tool.json files
(for editors: "$schema": "./tool.schema.json"); toolgen init writes it.
`

func runSchema(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	fs := c.newFlagSet(env)
	f.register(fs, false)
	format := fs.String("format", "mcp", "the API shape: mcp, openai, openai-responses or anthropic")
	strict := fs.Bool("strict", false, "OpenAI strict mode (openai, openai-responses): every property required, optional ones nullable")
	descriptor := fs.Bool("descriptor", false, "print tool.schema.json, the JSON Schema of descriptor files, and nothing else")
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), schemaHelp) }
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return unexpectedArg(c, env, pos[0], "")
	}
	if *descriptor {
		var other []string
		fs.Visit(func(fl *flag.Flag) {
			if fl.Name != "descriptor" {
				other = append(other, "--"+fl.Name)
			}
		})
		if len(other) > 0 {
			return c.usageErr(env, "--descriptor prints the descriptor file schema; it takes no other flag (got %s)", strings.Join(other, " "))
		}
		env.stdout.Write(schema.Descriptor())
		return exitOK
	}
	fmtName, err := schema.ParseFormat(*format)
	if err != nil {
		return c.usageErr(env, "--format: %v", err)
	}
	if *strict && !fmtName.Strictable() {
		return c.usageErr(env, "--strict is OpenAI's strict mode: use it with --format openai or openai-responses, not %s", fmtName)
	}
	p, code := assemble(c, env, &f)
	if p == nil {
		return code
	}
	if len(p.Problems) > 0 {
		// Definitions without the tools that failed to load would be taken
		// for the whole: the problems are on stderr, stdout stays empty.
		return exitSpec
	}
	tools, err := schemaTools(p.Registry)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen schema: %v\n", err)
		return exitFailure
	}
	out, dropped, err := schema.Export(tools, fmtName, *strict)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen schema: %v\n", err)
		return exitFailure
	}
	for _, d := range dropped {
		fmt.Fprintf(env.stderr, "toolgen schema: note: --strict dropped %s (not in strict mode's subset)\n", d)
	}
	env.stdout.Write(out)
	return exitOK
}

// schemaTools returns the registry's tools, sorted by name, with the input
// schemas the MCP server would serve (the same checks: a JSON object schema)
// and, for the mcp format, each whole definition exactly as serve's
// tools/list sends it (title, annotations, outputSchema).
func schemaTools(reg *tool.Registry) ([]schema.Tool, error) {
	defs, errs := mcp.Tools(reg)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	out := make([]schema.Tool, len(defs))
	for i, d := range defs {
		// Without HTML escaping, as every format is written: "&" stays "&".
		var whole bytes.Buffer
		enc := json.NewEncoder(&whole)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(d); err != nil {
			return nil, fmt.Errorf("tool %q: %w", d.Name, err)
		}
		out[i] = schema.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema.(json.RawMessage),
			MCP: bytes.TrimSpace(whole.Bytes())}
	}
	return out, nil
}
