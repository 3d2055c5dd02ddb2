package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/schema"
)

// TestRootCopy keeps the repository root's tool.schema.json identical to the
// embedded one.
func TestRootCopy(t *testing.T) {
	root, err := os.ReadFile(filepath.Join("..", schema.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(root, schema.Descriptor()) {
		t.Errorf("../%s differs from schema/%[1]s; copy schema/%[1]s over it", schema.FileName)
	}
}

func resolved(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(schema.Descriptor(), &s); err != nil {
		t.Fatalf("schema is not a JSON Schema: %v", err)
	}
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q, want draft 2020-12", s.Schema)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v", err)
	}
	return rs
}

// schemaCheck validates a descriptor file as an editor would: the file must
// be JSON (RFC 8259: UTF-8, no byte order mark) and an instance of the
// schema.
func schemaCheck(rs *jsonschema.Resolved, data []byte) error {
	if !utf8.Valid(data) {
		return errors.New("not UTF-8")
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return rs.Validate(v)
}

// goCheck is the Go side: the decoder and THE validator.
func goCheck(file string, data []byte) error {
	s, pos, err := tool.DecodeSpec(file, data)
	if err != nil {
		return err
	}
	_, err = validate.Spec(&s)
	return pos.Locate(err)
}

// schemaBlind lists the invalid descriptors of the corpus whose problem a
// JSON Schema cannot express, with the reason. The test requires the schema
// to accept exactly these (so the list stays true) and to reject every other
// invalid descriptor.
var schemaBlind = map[string]string{
	"duplicate-key.tool.json":        "JSON parsers keep one of two equal keys",
	"duplicate-slot.tool.json":       "JSON parsers keep one of two equal keys",
	"duplicate-slot-field.tool.json": "JSON parsers keep one of two equal keys",
	"denied-rm.tool.json":            "the deny list normalises binary names (case, paths, versions)",
	"denied-bin-rm.tool.json":        "the deny list normalises binary names (case, paths, versions)",
	"denied-upper-rm.tool.json":      "the deny list normalises binary names (case, paths, versions)",
	"denied-dotdot-sh.tool.json":     "the deny list normalises binary names (case, paths, versions)",
	"denied-python.tool.json":        "the deny list normalises binary names (case, paths, versions)",
	"denied-shell.tool.json":         "the deny list normalises binary names (case, paths, versions)",
	"slot-undeclared.tool.json":      "slots used in the template against slots declared",
	"slot-unused.tool.json":          "slots used in the template against slots declared",
	"template-adjacent.tool.json":    "adjacent slots need lookaround, which RE2 lacks",
	"enum-default.tool.json":         "a default inside its enum relates two values",
	"default-pattern.tool.json":      "a default matching its pattern relates two values",
	"default-dash.tool.json":         "a leading dash is refused only where the slot starts a word",
	"default-absolute.tool.json":     "path confinement is checked by the validator",
	"default-escape.tool.json":       "path confinement is checked by the validator",
	"pattern-not-re2.tool.json":      "whether a pattern is valid RE2",
	"pattern-backref.tool.json":      "whether a pattern is valid RE2",
	"example-wrong-argv.tool.json":   "examples are checked by running the tool's own validation",
	"git-config-slot.tool.json":      "which option of which binary a slot's word follows",
	"sed-script-slot.tool.json":      "which option of which binary a slot's word follows",
	"find-exec-slot.tool.json":       "which option of which binary a slot's word follows",
	"sort-compress-slot.tool.json":   "which option of which binary a slot's word follows",
	"text-sed-script.tool.json":      "which option of which binary a slot's word follows",
	"boolean-glued.tool.json":        "a slot's declared type against where the template puts it",
	"glued-optional.tool.json":       "a slot's declaration against the text of its template word",
	"network-duplicate.tool.json":    "network hosts equal once case and a trailing dot are ignored",
	"timeout-big.tool.json":          "a duration compared with a day, whatever unit it is written in",
}

// corpus returns every descriptor the tests use: the decoder's table, the
// loader's fixtures and the project's own descriptors.
func corpus(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{
		"../runtime/tool/testdata/descriptors/*/*.tool.json",
		"../runtime/loader/testdata/*/*.tool.json",
		"../runtime/loader/testdata/*/*/*.tool.json",
		"../descriptors/*.tool.json",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Fatalf("corpus has only %d descriptors", len(files))
	}
	sort.Strings(files)
	return files
}

// TestSchemaAgreesWithValidator proves the schema and the Go validator agree
// on every descriptor of the corpus: valid ones pass both, invalid ones fail
// both unless their problem is one a schema cannot express (schemaBlind).
func TestSchemaAgreesWithValidator(t *testing.T) {
	rs := resolved(t)
	var valid, invalid, blind int
	for _, file := range corpus(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(file)
		goErr := goCheck(base, data)
		schemaErr := schemaCheck(rs, data)
		reason, isBlind := schemaBlind[base]
		switch {
		case goErr == nil:
			valid++
			if schemaErr != nil {
				t.Errorf("%s: valid for the validator, refused by the schema: %v", file, schemaErr)
			}
		case isBlind:
			blind++
			if schemaErr != nil {
				t.Errorf("%s: listed as schema-blind (%s) but the schema refuses it: %v", file, reason, schemaErr)
			}
		default:
			invalid++
			if schemaErr == nil {
				t.Errorf("%s: invalid for the validator, accepted by the schema:\n%v", file, goErr)
			}
		}
	}
	t.Logf("%d valid (both accept), %d invalid (both refuse), %d beyond a schema (validator only)", valid, invalid, blind)
	if valid < 8 || invalid < 40 {
		t.Errorf("corpus too small: %d valid, %d invalid", valid, invalid)
	}
}

// TestSchemaCompletesEveryField keeps the schema's field list in step with
// the decoder's: every field the decoder knows is a property of the schema
// (with a description, for completion), and no other.
func TestSchemaCompletesEveryField(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema.Descriptor(), &s); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"descriptor": {"$comment", "$schema", "arguments", "command", "description", "destructive", "examples", "name", "network", "output_limit", "runs_code", "stderr", "timeout", "title", "writes"},
		"slot":       {"default", "description", "enum", "flag", "pattern", "required", "type"},
		"example":    {"args", "argv", "rejects"},
	}
	got := map[string]map[string]*jsonschema.Schema{
		"descriptor": s.Properties,
		"slot":       s.Defs["slot"].Properties,
		"example":    s.Defs["example"].Properties,
	}
	for kind, fields := range want {
		var names []string
		for name, p := range got[kind] {
			names = append(names, name)
			if p.Description == "" {
				t.Errorf("%s field %q has no description", kind, name)
			}
		}
		sort.Strings(names)
		if !slices.Equal(names, fields) {
			t.Errorf("%s fields = %v, want %v", kind, names, fields)
		}
	}
	// Every field the decoder knows, and no other, is accepted by the schema.
	data := []byte(`{"name":"x","description":"d","command":"ls","arguments":{},"writes":false,"network":false,"examples":[],"nope":1}`)
	if _, _, err := tool.DecodeSpec("x.tool.json", data); err == nil {
		t.Error("decoder accepted an unknown field")
	}
	if err := schemaCheck(resolved(t), data); err == nil {
		t.Error("schema accepted an unknown field")
	}
}
