package base

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// MaxArgsBytes bounds the JSON arguments of one call. A slot value is one
// word; anything near this size is not a command argument.
const MaxArgsBytes = 64 << 10

// value is one slot's value after decoding: its text and whether it was
// given (or defaulted).
type value struct {
	text string
	set  bool
}

// DecodeArgs checks and decodes the model's JSON arguments for the slots
// args exactly as every command tool's Call does (one decoder for every
// form): a JSON object or null, at most MaxArgsBytes, no unknown or
// repeated key, the JSON type each slot wants, every required slot present;
// defaults filled in. It returns the text of each slot that has a value,
// by name. A problem is a 614 *tool.Error naming the slot.
func DecodeArgs(data json.RawMessage, args ...tool.Arg) (map[string]string, error) {
	b := &CommandToolBase{index: make(map[string]int, len(args))}
	for i, a := range args {
		b.slots = append(b.slots, slot{arg: a})
		b.index[a.Name] = i
	}
	values, err := b.decode(data)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(values))
	for i, v := range values {
		if v.set {
			out[args[i].Name] = v.text
		}
	}
	return out, nil
}

// decode turns the model's JSON arguments into one value per slot, checking
// the JSON shape: an object, no unknown keys, the right JSON type per slot,
// every required slot present. Defaults are filled in.
func (b *CommandToolBase) decode(args json.RawMessage) ([]value, error) {
	if len(args) > MaxArgsBytes {
		return nil, tool.ValueErrorf("", "arguments are %d bytes; the limit is %d", len(args), MaxArgsBytes)
	}
	values := make([]value, len(b.slots))
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		if err := b.decodeObject(trimmed, values); err != nil {
			return nil, err
		}
	}
	for i := range b.slots {
		a := &b.slots[i].arg
		switch {
		case values[i].set:
		case a.HasDefault:
			values[i] = value{text: a.Default, set: true}
		case a.Required:
			return nil, tool.ValueErrorf(a.Name, "required argument is missing (%s: %s)", a.Type, a.Description)
		}
	}
	return values, nil
}

// decodeObject fills values from the JSON object data.
func (b *CommandToolBase) decodeObject(data []byte, values []value) error {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		return tool.ValueErrorf("", "arguments are not valid JSON: %v", err)
	}
	seen := make([]bool, len(values))
	err := eachMember(data, func(key string, rv []byte) error {
		i, ok := b.index[key]
		if !ok {
			return b.unknownArg(key)
		}
		if seen[i] {
			// Which one counts is not defined by JSON, and readers differ.
			return tool.ValueErrorf(key, "argument given twice; give each argument once")
		}
		seen[i] = true
		text, isSet, err := decodeValue(&b.slots[i].arg, rv)
		if err != nil {
			return err
		}
		values[i] = value{text: text, set: isSet}
		return nil
	})
	if errors.Is(err, errNotObject) {
		return tool.ValueErrorf("", "arguments must be a JSON object of slot values, like {\"name\": \"value\"}")
	}
	return err
}

func (b *CommandToolBase) unknownArg(key string) error {
	names := make([]string, len(b.slots))
	for i, s := range b.slots {
		names[i] = s.arg.Name
	}
	if len(names) == 0 {
		return tool.ValueErrorf(key, "unknown argument: this tool takes no arguments")
	}
	return tool.ValueErrorf(key, "unknown argument; this tool takes: %s", strings.Join(names, ", "))
}

// decodeValue returns the text of one JSON value for slot a. JSON null means
// "not given".
func decodeValue(a *tool.Arg, rv json.RawMessage) (string, bool, error) {
	rv = bytes.TrimSpace(rv)
	if len(rv) == 0 || string(rv) == "null" {
		return "", false, nil
	}
	switch a.Type {
	case tool.Boolean:
		if s := string(rv); s == "true" || s == "false" {
			return s, true, nil
		}
		return "", false, tool.ValueErrorf(a.Name, "want a JSON boolean (true or false), got %s", jsonKind(rv))
	case tool.Integer, tool.Number:
		if rv[0] == '"' {
			return "", false, tool.ValueErrorf(a.Name, "want a JSON number (like 5), not a string")
		}
		if rv[0] != '-' && (rv[0] < '0' || rv[0] > '9') {
			return "", false, tool.ValueErrorf(a.Name, "want a JSON number (like 5), got %s", jsonKind(rv))
		}
		return string(rv), true, nil
	default:
		if rv[0] != '"' {
			return "", false, tool.ValueErrorf(a.Name, "want a JSON string, got %s", jsonKind(rv))
		}
		s, err := unquote(rv)
		if err != nil {
			return "", false, tool.ValueErrorf(a.Name, "bad JSON string: %v", err)
		}
		return s, true, nil
	}
}

func jsonKind(rv json.RawMessage) string {
	switch rv[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	}
	return "a number"
}

// assemble checks each value by the slot-value rules and builds the argv.
// An optional slot with no value drops the whole word it stands in; a
// boolean slot's word is its flag when true and is dropped otherwise.
func (b *CommandToolBase) assemble(values []value) ([]string, error) {
	root := b.kernel.Workspace()
	for i := range b.slots {
		s := &b.slots[i]
		if !values[i].set {
			continue
		}
		if err := validate.ValueAt(&s.arg, values[i].text, s.place); err != nil {
			return nil, b.teach(err, values[i].text)
		}
		if err := validate.ResponseFileValue(&s.arg, values[i].text, s.respProg, s.respFiles); err != nil {
			return nil, err
		}
		if s.arg.Type == tool.Path {
			p, err := validate.Path(s.arg.Name, values[i].text, root)
			if err != nil {
				return nil, err
			}
			values[i].text = p
		}
	}
	argv := make([]string, 0, len(b.tmpl.Words))
	var from []validate.Word // the template word of each argv word
	for _, w := range b.tmpl.Words {
		if word, ok := b.word(w, values); ok {
			argv = append(argv, word)
			from = append(from, w)
		}
	}
	if err := b.checkFiles(argv, from); err != nil {
		return nil, err
	}
	return argv, nil
}

// word assembles one template word; ok is false when an unset optional slot
// drops it.
func (b *CommandToolBase) word(w validate.Word, values []value) (string, bool) {
	if len(w) == 1 {
		if w[0].Slot == "" {
			return w[0].Lit, true
		}
		i := b.index[w[0].Slot]
		v := values[i]
		if a := &b.slots[i].arg; a.Type == tool.Boolean { // its flag when true, nothing otherwise
			return a.Flag, v.set && v.text == "true"
		}
		return v.text, v.set
	}
	var sb strings.Builder
	for _, p := range w {
		if p.Slot == "" {
			sb.WriteString(p.Lit)
			continue
		}
		v := values[b.index[p.Slot]]
		if !v.set {
			return "", false
		}
		sb.WriteString(v.text)
	}
	return sb.String(), true
}

// teach adds a hint to a rejection when the value is an option the template
// already passes.
func (b *CommandToolBase) teach(err *tool.Error, v string) error {
	for _, w := range b.tmpl.Words[1:] {
		if len(w) == 1 && w[0].Slot == "" && w[0].Lit == v {
			err.Msg += fmt.Sprintf("; the template already passes %s", v)
			break
		}
	}
	return err
}
