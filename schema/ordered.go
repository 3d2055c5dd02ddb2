package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// node is a JSON value that keeps the order of object members, so that a
// rewritten schema lists its properties in slot order like the original.
// Exactly one of obj, arr and raw describes it: obj for objects, arr for
// arrays, raw for scalars (as written).
type node struct {
	obj   []member // object members, in order
	arr   []*node
	raw   json.RawMessage
	isObj bool
	isArr bool
}

type member struct {
	key string
	val *node
}

// parse reads one JSON value keeping member order.
func parse(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return n, nil
}

func parseNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{isObj: true}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseNode(dec)
				if err != nil {
					return nil, err
				}
				n.set(k.(string), v)
			}
			_, err := dec.Token() // '}'
			return n, err
		case '[':
			n := &node{isArr: true}
			for dec.More() {
				v, err := parseNode(dec)
				if err != nil {
					return nil, err
				}
				n.arr = append(n.arr, v)
			}
			_, err := dec.Token() // ']'
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return scalar(t), nil
	}
}

// scalar returns a node holding v (a string, json.Number, bool or nil)
// marshalled, without escaping HTML characters: descriptions keep their
// & < >.
func scalar(v any) *node {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // scalars always marshal
	}
	return &node{raw: bytes.TrimRight(b.Bytes(), "\n")}
}

// get returns the member key of an object node.
func (n *node) get(key string) (*node, bool) {
	if n == nil || !n.isObj {
		return nil, false
	}
	for _, m := range n.obj {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// set replaces member key, or appends it (a repeated key keeps the last
// value, as encoding/json does).
func (n *node) set(key string, v *node) {
	for i, m := range n.obj {
		if m.key == key {
			n.obj[i].val = v
			return
		}
	}
	n.obj = append(n.obj, member{key, v})
}

// del removes member key.
func (n *node) del(key string) {
	for i, m := range n.obj {
		if m.key == key {
			n.obj = append(n.obj[:i], n.obj[i+1:]...)
			return
		}
	}
}

// str returns the node as a Go string, if it is a JSON string.
func (n *node) str() (string, bool) {
	if n == nil || n.isObj || n.isArr {
		return "", false
	}
	var s string
	if json.Unmarshal(n.raw, &s) != nil {
		return "", false
	}
	return s, true
}

// isNull reports whether the node is JSON null.
func (n *node) isNull() bool { return !n.isObj && !n.isArr && string(n.raw) == "null" }

// MarshalJSON writes the node compactly, members in order.
func (n *node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes(), nil
}

func (n *node) write(b *bytes.Buffer) {
	switch {
	case n.isObj:
		b.WriteByte('{')
		for i, m := range n.obj {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(scalar(m.key).raw)
			b.WriteByte(':')
			m.val.write(b)
		}
		b.WriteByte('}')
	case n.isArr:
		b.WriteByte('[')
		for i, v := range n.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	default:
		b.Write(n.raw)
	}
}
