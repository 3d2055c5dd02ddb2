package base

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzEachMember checks the flat-object scanner against encoding/json: for
// every valid JSON object, the scanner yields exactly the members (keys and
// raw values) that encoding/json decodes, in order; it never panics on any
// valid JSON.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1}`, `{"a":"x","b":[1,{"c":"}"}],"d":null}`, ` { "k\"q" : "v\\\"" , "z" : true } `,
		`{"a":{"b":{"c":[[[]]]}}}`, `[1,2]`, `"str"`, `123`, `{"\u0041":"\u00e9"}`, `{"a":"x","a":"y"}`,
		`{"pattern":"func\\s+main","path":"."}`, `{"e":-1.5e10}`,
		`null`, ` null `, `{"a":null}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data := []byte(s)
		if !json.Valid(data) {
			return
		}
		var keys []string
		var raws [][]byte
		err := eachMember(bytes.TrimSpace(data), func(key string, raw []byte) error {
			keys = append(keys, key)
			raws = append(raws, raw)
			return nil
		})
		// The oracle: data is an object when encoding/json decodes it into a
		// map and it is not null (which json.Unmarshal takes for a nil map).
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil || m == nil {
			if err == nil {
				t.Fatalf("scanner accepted a non-object %q", s)
			}
			return
		}
		if err != nil {
			t.Fatalf("scanner refused object %q: %v", s, err)
		}
		seen := map[string]bool{}
		for i, k := range keys {
			if !json.Valid(raws[i]) {
				t.Fatalf("member %q: raw value %q is not a JSON value (input %q)", k, raws[i], s)
			}
			seen[k] = true
		}
		if !utf8.Valid(data) {
			// encoding/json mends invalid UTF-8 in keys; the scanner keeps the
			// bytes (so a value with invalid UTF-8 is rejected, not mended).
			return
		}
		if len(seen) != len(m) {
			t.Fatalf("scanner keys %q, encoding/json keys %v (input %q)", keys, m, s)
		}
		for k := range m {
			if !seen[k] {
				t.Fatalf("scanner missed key %q (input %q)", k, s)
			}
		}
	})
}
