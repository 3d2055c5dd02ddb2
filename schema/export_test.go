package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/builtin"
	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/schema"
)

var update = flag.Bool("update", false, "rewrite testdata/export/*.golden")

// everyKind is a tool with every kind of slot: enum with default, required
// integer, optional number, path with default, string with a pattern, and
// text with the characters a JSON encoder likes to escape.
var everyKind = tool.Spec{
	Name:        "every_kind",
	Description: "Exercise every slot kind & keep <this> as written",
	Command:     "echo {mode} --count={count} {ratio} {path} x{suffix}y",
	Args: []tool.Arg{
		{Name: "mode", Type: tool.String, Description: "Mode", Enum: []string{"fast", "slow"}, Default: "fast", HasDefault: true},
		{Name: "count", Type: tool.Integer, Description: "How many", Required: true},
		{Name: "ratio", Type: tool.Number, Description: "Ratio"},
		{Name: "path", Type: tool.Path, Description: "Where", Default: ".", HasDefault: true},
		{Name: "suffix", Type: tool.String, Description: "Suffix", Pattern: `[a-z]+`},
	},
}

// fixture returns the tools the goldens are made of, sorted by name as
// toolgen schema sorts them, with the argument-checking tools they come from.
func fixture(t *testing.T) ([]schema.Tool, map[string]tool.Tool) {
	t.Helper()
	k, err := kernel.New(t.TempDir())
	require.NoError(t, err)
	builtins, err := builtin.All(k)
	require.NoError(t, err)
	every, err := base.New(everyKind, k)
	require.NoError(t, err)
	ex, err := exec.New(k, []string{"ls"})
	require.NoError(t, err)
	impls := map[string]tool.Tool{}
	var tools []schema.Tool
	add := func(tl tool.Tool) {
		impls[tl.Name()] = tl
		tools = append(tools, schema.Tool{Name: tl.Name(), Description: tl.Description(), InputSchema: tl.InputSchema()})
	}
	add(every)
	add(ex)
	for _, b := range builtins {
		add(b)
	}
	slices.SortFunc(tools, func(a, b schema.Tool) int { return strings.Compare(a.Name, b.Name) })
	return tools, impls
}

// TestExportGolden pins every format, with and without strict where it
// exists. go test ./schema -run TestExportGolden -update rewrites them.
func TestExportGolden(t *testing.T) {
	tools, _ := fixture(t)
	for _, f := range schema.Formats() {
		for _, strict := range []bool{false, true} {
			if strict && !f.Strictable() {
				continue
			}
			name := string(f)
			if strict {
				name += "-strict"
			}
			t.Run(name, func(t *testing.T) {
				got, dropped, err := schema.Export(tools, f, strict)
				require.NoError(t, err)
				assert.Empty(t, dropped, "toolgen's own schemas use only strict keywords (default moves to the description)")
				file := filepath.Join("testdata", "export", name+".golden")
				if *update {
					require.NoError(t, os.WriteFile(file, got, 0o644))
				}
				want, err := os.ReadFile(file)
				require.NoError(t, err, "run go test ./schema -update")
				assert.Equal(t, string(want), string(got))
			})
		}
	}
}

// namePattern is the function/tool name rule of the OpenAI and Anthropic
// APIs (and a safe one for MCP clients).
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func decode(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(data, &v))
	return v
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestExportFieldRules checks each format against the field rules of its API:
// exactly the fields the API defines, names it accepts, object schemas.
func TestExportFieldRules(t *testing.T) {
	tools, _ := fixture(t)
	for _, tc := range []struct {
		format schema.Format
		strict bool
		// defs returns the tool definitions of the exported document.
		defs func(v any) []any
		// fields are the fields of one definition; check the rest of it.
		fields []string
		check  func(t *testing.T, def map[string]any) (name string, params any)
	}{
		{schema.MCP, false, func(v any) []any {
			m := v.(map[string]any)
			assert.Equal(t, []string{"tools"}, keys(m))
			return m["tools"].([]any)
		}, []string{"description", "inputSchema", "name"}, func(t *testing.T, d map[string]any) (string, any) {
			return d["name"].(string), d["inputSchema"]
		}},
		{schema.OpenAI, false, func(v any) []any { return v.([]any) }, []string{"function", "type"},
			func(t *testing.T, d map[string]any) (string, any) {
				assert.Equal(t, "function", d["type"])
				fn := d["function"].(map[string]any)
				assert.Equal(t, []string{"description", "name", "parameters"}, keys(fn))
				return fn["name"].(string), fn["parameters"]
			}},
		{schema.OpenAI, true, func(v any) []any { return v.([]any) }, []string{"function", "type"},
			func(t *testing.T, d map[string]any) (string, any) {
				fn := d["function"].(map[string]any)
				assert.Equal(t, []string{"description", "name", "parameters", "strict"}, keys(fn))
				assert.Equal(t, true, fn["strict"])
				return fn["name"].(string), fn["parameters"]
			}},
		{schema.OpenAIResponses, false, func(v any) []any { return v.([]any) }, []string{"description", "name", "parameters", "strict", "type"},
			func(t *testing.T, d map[string]any) (string, any) {
				assert.Equal(t, "function", d["type"])
				assert.Equal(t, false, d["strict"], "the Responses API is strict unless told otherwise")
				return d["name"].(string), d["parameters"]
			}},
		{schema.OpenAIResponses, true, func(v any) []any { return v.([]any) }, []string{"description", "name", "parameters", "strict", "type"},
			func(t *testing.T, d map[string]any) (string, any) {
				assert.Equal(t, true, d["strict"])
				return d["name"].(string), d["parameters"]
			}},
		{schema.Anthropic, false, func(v any) []any { return v.([]any) }, []string{"description", "input_schema", "name"},
			func(t *testing.T, d map[string]any) (string, any) {
				return d["name"].(string), d["input_schema"]
			}},
	} {
		t.Run(string(tc.format)+map[bool]string{true: "-strict"}[tc.strict], func(t *testing.T) {
			out, _, err := schema.Export(tools, tc.format, tc.strict)
			require.NoError(t, err)
			assert.True(t, bytes.HasSuffix(out, []byte("}\n")) || bytes.HasSuffix(out, []byte("]\n")))
			assert.NotContains(t, string(out), `\u0026`, "no HTML escaping")
			defs := tc.defs(decode(t, out))
			require.Len(t, defs, len(tools))
			for i, d := range defs {
				def := d.(map[string]any)
				assert.Equal(t, tc.fields, keys(def))
				name, params := tc.check(t, def)
				assert.Equal(t, tools[i].Name, name, "order kept")
				assert.Regexp(t, namePattern, name)
				p := params.(map[string]any)
				assert.Equal(t, "object", p["type"], "%s: parameters must be an object schema", name)
				if tc.strict {
					assertStrict(t, name, p)
				} else {
					assert.JSONEq(t, string(tools[i].InputSchema), mustJSON(t, p), "%s: schema passed as the tool gives it", name)
				}
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}

// strictAllowed is OpenAI's documented strict-mode subset of JSON Schema.
var strictAllowed = map[string]bool{
	"type": true, "description": true, "enum": true, "const": true, "anyOf": true,
	"pattern": true, "format": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "items": true, "minItems": true, "maxItems": true,
	"properties": true, "required": true, "additionalProperties": true, "$ref": true, "$defs": true,
}

// assertStrict checks the strict-mode rules on a (sub)schema: only keywords
// of the subset (no default), every object closed (additionalProperties
// false) with every property required.
func assertStrict(t *testing.T, where string, s map[string]any) {
	t.Helper()
	for k, v := range s {
		assert.True(t, strictAllowed[k], "%s: keyword %q is not in the strict subset", where, k)
		switch k {
		case "properties":
			props := v.(map[string]any)
			var req []string
			for _, r := range s["required"].([]any) {
				req = append(req, r.(string))
			}
			slices.Sort(req)
			assert.Equal(t, keys(props), req, "%s: every property must be required", where)
			assert.Equal(t, false, s["additionalProperties"], "%s: additionalProperties must be false", where)
			for name, p := range props {
				assertStrict(t, where+"."+name, p.(map[string]any))
			}
		case "items":
			assertStrict(t, where+"[]", v.(map[string]any))
		case "anyOf":
			for _, alt := range v.([]any) {
				assertStrict(t, where+"|", alt.(map[string]any))
			}
		}
	}
	if s["type"] == "object" {
		assert.Contains(t, s, "properties", "%s: object without properties", where)
	}
}

// TestStrictKeepsMeaning: the strict schema is a valid JSON Schema; the
// arguments a strict-mode model must send — every key present, null for an
// optional slot it leaves out — are accepted both by that schema and by the
// tool itself (toolgen reads null as absent), with the same argv as leaving
// the keys out; the defaults stay stated, in the descriptions.
func TestStrictKeepsMeaning(t *testing.T) {
	tools, impls := fixture(t)
	minimal := map[string]string{ // the required slots of each fixture tool
		"every_kind": `{"count":1}`, "exec": `{"command":"ls"}`, "find_files": `{"pattern":"*.go"}`,
		"grep_text": `{"pattern":"x"}`, "sed_print": `{"range":"1,2","path":"a"}`,
	}
	for _, tl := range tools {
		strict, dropped, err := schema.Strict(tl.InputSchema)
		require.NoError(t, err, tl.Name)
		assert.Empty(t, dropped)
		var js jsonschema.Schema
		require.NoError(t, json.Unmarshal(strict, &js), tl.Name)
		rs, err := js.Resolve(nil)
		require.NoError(t, err, tl.Name)

		args := map[string]any{}
		require.NoError(t, json.Unmarshal([]byte(minimal[tl.Name]), &args))
		for name := range js.Properties {
			if _, ok := args[name]; !ok {
				args[name] = nil
			}
		}
		assert.NoError(t, rs.Validate(args), "%s: strict schema refuses %v", tl.Name, args)
		full, _ := json.Marshal(args)
		if st, ok := impls[tl.Name].(interface {
			Argv(json.RawMessage) ([]string, error)
		}); ok {
			want, err := st.Argv(json.RawMessage(minimal[tl.Name]))
			require.NoError(t, err, tl.Name)
			got, err := st.Argv(full)
			require.NoError(t, err, "%s: the tool refuses the strict-mode arguments %s", tl.Name, full)
			assert.Equal(t, want, got, "%s: null means absent", tl.Name)
		}
		// A key left out, or one more key, is refused, as strict mode wants.
		if len(args) > 1 {
			for name := range args {
				if minimal[tl.Name] != "" && strings.Contains(minimal[tl.Name], `"`+name+`"`) {
					continue
				}
				less := maps(args)
				delete(less, name)
				assert.Error(t, rs.Validate(less), "%s: %s left out", tl.Name, name)
				break
			}
		}
		more := maps(args)
		more["extra"] = "x"
		assert.Error(t, rs.Validate(more), "%s: extra key", tl.Name)
	}
	every, _, _ := schema.Strict(tools[slices.IndexFunc(tools, func(x schema.Tool) bool { return x.Name == "every_kind" })].InputSchema)
	assert.Contains(t, string(every), `"description":"Mode (null means the default, \"fast\")"`)
	assert.Contains(t, string(every), `"type":["string","null"]`)
	assert.Contains(t, string(every), `"enum":["fast","slow",null]`)
	assert.Contains(t, string(every), `"pattern":"^(?:[a-z]+)$"`, "pattern is in the strict subset: kept")
	assert.Contains(t, string(every), `"count":{"type":"integer","description":"How many","minimum":0}`, "a required slot stays non-null")
	assert.NotContains(t, string(every), `"default"`)
}

func maps(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestStrictRewrites covers what toolgen's own schemas never hold: keywords
// outside the subset, nested objects, arrays, anyOf, a type list; and the
// inputs Strict refuses.
func TestStrictRewrites(t *testing.T) {
	for _, tc := range []struct{ name, in, want, dropped string }{
		{"drops what strict refuses",
			`{"type":"object","title":"T","properties":{"a":{"type":"string","minLength":1,"maxLength":3,"format":"uuid"}},"required":["a"],"examples":[{}]}`,
			`{"type":"object","properties":{"a":{"type":"string","format":"uuid"}},"required":["a"],"additionalProperties":false}`,
			"/title /examples /properties/a/minLength /properties/a/maxLength"},
		{"closes nested objects and arrays of objects",
			`{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"integer"}}},"l":{"type":"array","items":{"type":"object"},"uniqueItems":true}},"additionalProperties":true}`,
			`{"type":"object","properties":{"o":{"type":["object","null"],"properties":{"x":{"type":["integer","null"]}},"required":["x"],"additionalProperties":false},"l":{"type":["array","null"],"items":{"type":"object","additionalProperties":false,"properties":{},"required":[]}}},"additionalProperties":false,"required":["o","l"]}`,
			"/properties/l/uniqueItems"},
		{"type lists and untyped optionals",
			`{"type":"object","properties":{"t":{"type":["string","integer"]},"n":{"type":["string","null"]},"u":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`,
			`{"type":"object","properties":{"t":{"type":["string","integer","null"]},"n":{"type":["string","null"]},"u":{"anyOf":[{"anyOf":[{"type":"string"},{"type":"integer"}]},{"type":"null"}]}},"required":["t","n","u"],"additionalProperties":false}`,
			""},
		{"keys needing pointer escapes, repeated keys, HTML characters",
			`{"type":"object","properties":{"a/b~c":{"type":"string","x-y":1,"description":"<&>"}},"properties":{"a/b~c":{"type":"string","x-y":1,"description":"<&>"}}}`,
			`{"type":"object","properties":{"a/b~c":{"type":["string","null"],"description":"<&>"}},"required":["a/b~c"],"additionalProperties":false}`,
			"/properties/a~1b~0c/x-y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, dropped, err := schema.Strict(json.RawMessage(tc.in))
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
			assert.Equal(t, tc.dropped, strings.Join(dropped, " "))
		})
	}
	for _, bad := range []string{``, `null`, `[]`, `"object"`, `{"type":"string"}`, `{"properties":{}}`, `{"type":"object"`, `{"type":"object"} {}`, `{"type":["object"]}`} {
		_, _, err := schema.Strict(json.RawMessage(bad))
		assert.Error(t, err, "%q", bad)
	}
}

func TestExportErrors(t *testing.T) {
	tools := []schema.Tool{{Name: "x", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	for _, f := range []schema.Format{schema.MCP, schema.Anthropic} {
		_, _, err := schema.Export(tools, f, true)
		assert.ErrorContains(t, err, "has no strict mode", f)
	}
	_, _, err := schema.Export([]schema.Tool{{Name: "x", InputSchema: json.RawMessage(`{`)}}, schema.OpenAI, false)
	assert.ErrorContains(t, err, `tool "x": input schema is not JSON`)
	_, _, err = schema.Export([]schema.Tool{{Name: "x", InputSchema: json.RawMessage(`{"type":"string"}`)}}, schema.OpenAI, true)
	assert.ErrorContains(t, err, `tool "x": schema: strict mode needs an object schema`)
	_, err = schema.ParseFormat("gemini")
	assert.EqualError(t, err, `unknown format "gemini": want mcp, openai, openai-responses, anthropic`)
	f, err := schema.ParseFormat("openai-responses")
	require.NoError(t, err)
	assert.Equal(t, schema.OpenAIResponses, f)
	out, _, err := schema.Export(nil, schema.OpenAI, false)
	require.NoError(t, err)
	assert.Equal(t, "[]\n", string(out))
}

// FuzzStrict: for any input Strict either refuses it or returns JSON that
// keeps the strict rules, and its output is a fixed point.
func FuzzStrict(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`,
		`{"type":"object","properties":{"a":{"enum":[1,null],"type":"integer"}},"required":["a","zz"]}`,
		`{"type":"object","properties":{"o":{"type":"object","properties":{"p":{"anyOf":[{"type":"object"}]}}}}}`,
		`{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":{}}}}},"$defs":{"d":{"type":"object","title":"x"}}}`,
		`{"type":"object","required":"nope","properties":[]}`,
		`{"type":"object","properties":{"a":true}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, _, err := schema.Strict(json.RawMessage(in))
		if err != nil {
			return
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("Strict(%q) = %s, not a JSON object: %v", in, out, err)
		}
		if v["type"] != "object" || v["additionalProperties"] != false {
			t.Fatalf("Strict(%q) = %s: root not a closed object", in, out)
		}
		if _, ok := v["default"]; ok {
			t.Fatalf("Strict(%q) kept a default", in)
		}
		again, dropped, err := schema.Strict(out)
		if err != nil || !bytes.Equal(again, out) || len(dropped) > 0 {
			t.Fatalf("Strict is not idempotent on %q:\n%s\n%s (%v, %v)", in, out, again, dropped, err)
		}
	})
}
