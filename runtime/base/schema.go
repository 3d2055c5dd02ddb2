package base

import (
	"bytes"
	"encoding/json"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// Schema returns the JSON Schema of a Spec's arguments: an object with one
// property per slot in declared order (type, description, default, enum,
// pattern anchored to the whole value), the required slots, and
// additionalProperties false. Integer and number slots get minimum 0.
func Schema(s *tool.Spec) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, a := range s.Args {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, a.Name)
		b.WriteByte(':')
		writeProperty(&b, a)
		if a.Required {
			required = append(required, a.Name)
		}
	}
	b.WriteString(`}`)
	if len(required) > 0 {
		b.WriteString(`,"required":`)
		writeJSON(&b, required)
	}
	b.WriteString(`,"additionalProperties":false}`)
	return json.RawMessage(b.Bytes())
}

func writeProperty(b *bytes.Buffer, a tool.Arg) {
	b.WriteString(`{"type":`)
	switch a.Type {
	case tool.Integer:
		b.WriteString(`"integer","minimum":0`)
	case tool.Number:
		b.WriteString(`"number","minimum":0`)
	default:
		b.WriteString(`"string"`)
	}
	b.WriteString(`,"description":`)
	writeJSON(b, a.Description)
	if a.HasDefault {
		b.WriteString(`,"default":`)
		writeValue(b, a.Type, a.Default)
	}
	if len(a.Enum) > 0 {
		b.WriteString(`,"enum":[`)
		for i, e := range a.Enum {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, a.Type, e)
		}
		b.WriteByte(']')
	}
	if a.Pattern != "" {
		b.WriteString(`,"pattern":`)
		writeJSON(b, "^(?:"+a.Pattern+")$")
	}
	b.WriteByte('}')
}

// writeValue writes a slot value as the JSON type of its slot.
func writeValue(b *bytes.Buffer, t tool.ArgType, v string) {
	if (t == tool.Integer || t == tool.Number) && json.Valid([]byte(v)) {
		b.WriteString(v)
		return
	}
	writeJSON(b, v)
}

func writeJSON(b *bytes.Buffer, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // strings and string slices always marshal
	}
	b.Write(data)
}
