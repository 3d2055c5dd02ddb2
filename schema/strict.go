package schema

import (
	"encoding/json"
	"fmt"
	"strings"
)

// strictKeywords are the JSON Schema keywords OpenAI's strict mode (Structured
// Outputs, "strict": true on a function) accepts, per its documented subset:
// the types with enum/const and anyOf, string pattern and format, the numeric
// bounds and multipleOf, array items with minItems/maxItems, objects with
// properties, required and additionalProperties (which must be false), and
// $ref/$defs. Anything else — default above all, but also minLength,
// maxLength, patternProperties, uniqueItems, title, examples — makes the API
// refuse the whole request, so Strict drops it.
var strictKeywords = map[string]bool{
	"type": true, "description": true, "enum": true, "const": true, "anyOf": true,
	"pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"items": true, "minItems": true, "maxItems": true,
	"properties": true, "required": true, "additionalProperties": true,
	"$ref": true, "$defs": true,
}

// Strict rewrites an object schema into the form OpenAI's strict mode
// accepts, keeping what it means for toolgen: every property is listed in
// required, an optional one (not required before) becomes nullable — its type
// gains "null" (and its enum, if any, null) — because toolgen treats a null
// argument as an absent one; each object gets "additionalProperties": false;
// a default, which strict mode refuses, moves into the property's
// description ("null means the default, ..."), so the model still knows it.
// Every other keyword outside the strict subset is dropped; dropped lists
// them as JSON pointers (e.g. "/properties/path/title"). Properties keep
// their order. Strict fails when schema is not a JSON object schema.
func Strict(schema json.RawMessage) (out json.RawMessage, dropped []string, err error) {
	root, err := parse(schema)
	if err != nil {
		return nil, nil, fmt.Errorf("schema: input schema is not JSON: %v", err)
	}
	if t, _ := root.get("type"); !root.isObj || t == nil || string(t.raw) != `"object"` {
		return nil, nil, fmt.Errorf(`schema: strict mode needs an object schema ("type": "object") at the root`)
	}
	s := &strictener{}
	s.rewrite(root, "")
	data, _ := root.MarshalJSON()
	return data, s.dropped, nil
}

type strictener struct{ dropped []string }

// rewrite makes the subschema n (at JSON pointer ptr) strict, in place.
func (s *strictener) rewrite(n *node, ptr string) {
	if !n.isObj {
		return
	}
	if def, ok := n.get("default"); ok {
		text, _ := n.get("description")
		desc, _ := text.str()
		d, _ := def.MarshalJSON()
		desc = strings.TrimSpace(desc + " (null means the default, " + string(d) + ")")
		n.set("description", scalar(desc))
		n.del("default")
	}
	kept := n.obj[:0:0]
	for _, m := range n.obj {
		if strictKeywords[m.key] {
			kept = append(kept, m)
		} else {
			s.dropped = append(s.dropped, ptr+"/"+escapePointer(m.key))
		}
	}
	n.obj = kept
	if props, ok := n.get("properties"); ok && props.isObj {
		required := map[string]bool{}
		if r, ok := n.get("required"); ok {
			for _, v := range r.arr {
				if name, ok := v.str(); ok {
					required[name] = true
				}
			}
		}
		all := &node{isArr: true}
		for _, m := range props.obj {
			s.rewrite(m.val, ptr+"/properties/"+escapePointer(m.key))
			if !required[m.key] {
				nullable(m.val)
			}
			all.arr = append(all.arr, scalar(m.key))
		}
		n.set("required", all)
	}
	if t, ok := n.get("type"); ok && (string(t.raw) == `"object"` || hasType(t, "object")) {
		n.set("additionalProperties", scalar(false))
		if _, ok := n.get("properties"); !ok {
			n.set("properties", &node{isObj: true})
			n.set("required", &node{isArr: true})
		}
	}
	if items, ok := n.get("items"); ok {
		s.rewrite(items, ptr+"/items")
	}
	for _, key := range []string{"anyOf"} {
		if list, ok := n.get(key); ok {
			for i, v := range list.arr {
				s.rewrite(v, fmt.Sprintf("%s/%s/%d", ptr, key, i))
			}
		}
	}
	if defs, ok := n.get("$defs"); ok && defs.isObj {
		for _, m := range defs.obj {
			s.rewrite(m.val, ptr+"/$defs/"+escapePointer(m.key))
		}
	}
}

// nullable lets the subschema n also accept null.
func nullable(n *node) {
	if !n.isObj {
		return
	}
	t, ok := n.get("type")
	switch {
	case ok && t.isArr:
		if !hasType(t, "null") {
			t.arr = append(t.arr, scalar("null"))
		}
	case ok:
		if string(t.raw) != `"null"` {
			n.set("type", &node{isArr: true, arr: []*node{t, scalar("null")}})
		}
	default: // no type (anyOf, $ref): one more alternative, unless there is one
		if alts, ok := n.get("anyOf"); ok {
			for _, a := range alts.arr {
				if t, ok := a.get("type"); ok && string(t.raw) == `"null"` {
					return
				}
			}
		}
		inner := &node{isObj: true, obj: n.obj}
		n.obj = []member{{"anyOf", &node{isArr: true, arr: []*node{inner, {isObj: true, obj: []member{{"type", scalar("null")}}}}}}}
		return
	}
	if enum, ok := n.get("enum"); ok && enum.isArr {
		for _, v := range enum.arr {
			if v.isNull() {
				return
			}
		}
		enum.arr = append(enum.arr, scalar(nil))
	}
}

// hasType reports whether the type array t lists name.
func hasType(t *node, name string) bool {
	for _, v := range t.arr {
		if s, _ := v.str(); s == name {
			return true
		}
	}
	return false
}

// escapePointer escapes a key for a JSON pointer (RFC 6901).
func escapePointer(key string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
