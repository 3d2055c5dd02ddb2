package base

import (
	"encoding/json"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Schema returns the JSON Schema of a Spec's arguments: an object with one
// property per slot in declared order (type, description, default, enum,
// pattern anchored to the whole value), the required slots, and
// additionalProperties false. A string or text slot of the template
// without an enum or a pattern of its own states its value rules
// (validate.ValueAt, at the slot's place) in its description and as a
// pattern, so a model meets them before its first call. Integer and number slots get minimum 0;
// string, text and path slots are JSON strings, boolean slots JSON
// booleans. It is built as a *jsonschema.Schema (ArgsSchema) and
// marshalled.
func Schema(s *tool.Spec) json.RawMessage {
	data, err := json.Marshal(ArgsSchema(s))
	if err != nil {
		panic("base: Schema: " + err.Error()) // unreachable: the schema holds strings, numbers and booleans only
	}
	return unescapeHTML(data)
}

// unescapeHTML undoes encoding/json's escaping of &, < and > (\u0026,
// \u003c, \u003e) in the valid JSON data, so that descriptions read as
// written; every other escape is kept.
func unescapeHTML(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\\' || i+1 >= len(data) {
			out = append(out, c)
			continue
		}
		if data[i+1] == 'u' && i+6 <= len(data) {
			switch string(data[i+2 : i+6]) {
			case "0026", "003c", "003e":
				r, _ := strconv.ParseUint(string(data[i+2:i+6]), 16, 8)
				out = append(out, byte(r))
				i += 5
				continue
			}
		}
		out = append(out, c, data[i+1]) // any other escape, kept whole
		i++
	}
	return out
}

// ArgsSchema returns the JSON Schema of a Spec's arguments (see Schema) as a
// value of github.com/google/jsonschema-go; its PropertyOrder keeps the
// slots' declared order when it is marshalled.
func ArgsSchema(s *tool.Spec) *jsonschema.Schema {
	root := &jsonschema.Schema{
		Type:                 "object",
		Properties:           make(map[string]*jsonschema.Schema, len(s.Args)),
		PropertyOrder:        make([]string, 0, len(s.Args)),
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}, // false
	}
	var places map[string]validate.Place
	if t, err := validate.ParseTemplate(s.Command); err == nil {
		places = validate.Places(s, t)
	}
	for _, a := range s.Args {
		p := property(a)
		if place, ok := places[a.Name]; ok {
			stateRules(p, a, place)
		}
		root.Properties[a.Name] = p
		root.PropertyOrder = append(root.PropertyOrder, a.Name)
		if a.Required {
			root.Required = append(root.Required, a.Name)
		}
	}
	return root
}

// property is one slot's schema.
func property(a tool.Arg) *jsonschema.Schema {
	p := &jsonschema.Schema{Type: "string", Description: a.Description}
	switch a.Type {
	case tool.Integer:
		p.Type, p.Minimum = "integer", jsonschema.Ptr(0.0)
	case tool.Number:
		p.Type, p.Minimum = "number", jsonschema.Ptr(0.0)
	case tool.Boolean:
		p.Type = "boolean"
	}
	if a.HasDefault {
		p.Default = jsonValue(a.Type, a.Default)
	}
	for _, e := range a.Enum {
		p.Enum = append(p.Enum, jsonValue(a.Type, e))
	}
	if a.Pattern != "" {
		p.Pattern = "^(?:" + a.Pattern + ")$"
	}
	return p
}

// jsonValue is a slot value as the JSON type of its slot: numbers and
// booleans as written, everything else a JSON string.
func jsonValue(t tool.ArgType, v string) json.RawMessage {
	if (t.Numeric() || t == tool.Boolean) && json.Valid([]byte(v)) {
		return json.RawMessage(v)
	}
	data, _ := json.Marshal(v) // a string always marshals
	return data
}
