package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Tool is one tool's definition, independent of the API it goes to.
type Tool struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of the tool's arguments, an object
	// schema, as the tool gives it (and as MCP serves it).
	InputSchema json.RawMessage
	// MCP is the tool's whole definition as an MCP server lists it in
	// tools/list (title, annotations and outputSchema included), a JSON
	// object. When set, the mcp format writes it as it is; when nil, it
	// writes name, description and inputSchema. The other formats ignore it.
	MCP json.RawMessage
}

// Format names the shape an API expects its tool definitions in.
type Format string

// The formats Export writes.
const (
	// MCP is the result of MCP tools/list: {"tools": [{"name", "description",
	// "inputSchema"}]}.
	MCP Format = "mcp"
	// OpenAI is the value of a Chat Completions request's "tools" field:
	// [{"type": "function", "function": {"name", "description",
	// "parameters"[, "strict"]}}].
	OpenAI Format = "openai"
	// OpenAIResponses is the value of a Responses API request's "tools"
	// field, the flat form: [{"type": "function", "name", "description",
	// "parameters", "strict"}]. That API enforces strict mode unless told
	// otherwise, so "strict" is always written: false unless asked for.
	OpenAIResponses Format = "openai-responses"
	// Anthropic is the value of a Messages request's "tools" field:
	// [{"name", "description", "input_schema"}].
	Anthropic Format = "anthropic"
)

// Formats lists every format, in the order help texts give them.
func Formats() []Format { return []Format{MCP, OpenAI, OpenAIResponses, Anthropic} }

// ParseFormat returns the format called name.
func ParseFormat(name string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == name {
			return f, nil
		}
	}
	names := make([]string, 0, 4)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown format %q: want %s", name, strings.Join(names, ", "))
}

// Strictable reports whether the format has OpenAI's strict mode.
func (f Format) Strictable() bool { return f == OpenAI || f == OpenAIResponses }

// Export writes tools in the shape format names, indented JSON with a final
// newline, HTML characters not escaped; the tools keep their order and each
// input schema its properties' order. With strict (OpenAI formats only),
// every input schema is rewritten by Strict and the function is marked
// "strict": true; the keywords Strict dropped are returned, each prefixed
// with its tool's name ("grep_text: /properties/x/title"). Export fails on
// an input schema that is not a JSON object schema.
func Export(tools []Tool, format Format, strict bool) (out []byte, dropped []string, err error) {
	if strict && !format.Strictable() {
		return nil, nil, fmt.Errorf("format %s has no strict mode (only %s and %s do)", format, OpenAI, OpenAIResponses)
	}
	defs := make([]any, len(tools))
	for i, t := range tools {
		params := t.InputSchema
		if strict {
			var drops []string
			params, drops, err = Strict(t.InputSchema)
			if err != nil {
				return nil, nil, fmt.Errorf("tool %q: %v", t.Name, err)
			}
			for _, d := range drops {
				dropped = append(dropped, t.Name+": "+d)
			}
		} else if !json.Valid(params) {
			return nil, nil, fmt.Errorf("tool %q: input schema is not JSON", t.Name)
		}
		defs[i] = shape(format, t, params, strict)
	}
	var v any = defs
	if format == MCP {
		v = struct {
			Tools []any `json:"tools"`
		}{defs}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), dropped, nil
}

// shape returns one tool's definition in format.
func shape(format Format, t Tool, params json.RawMessage, strict bool) any {
	switch format {
	case OpenAI:
		type function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			Strict      bool            `json:"strict,omitempty"`
		}
		return struct {
			Type     string   `json:"type"`
			Function function `json:"function"`
		}{"function", function{t.Name, t.Description, params, strict}}
	case OpenAIResponses:
		return struct {
			Type        string          `json:"type"`
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			Strict      bool            `json:"strict"`
		}{"function", t.Name, t.Description, params, strict}
	case Anthropic:
		return struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		}{t.Name, t.Description, params}
	default: // MCP
		if t.MCP != nil {
			return t.MCP
		}
		return struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}{t.Name, t.Description, params}
	}
}
