package tool_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var update = flag.Bool("update", false, "rewrite testdata/descriptors/invalid/*.err from the current messages")

// check decodes and validates a descriptor exactly as the loader does and
// returns the spec and the located problems.
func check(name string, data []byte) (tool.Spec, error) {
	s, _, _, err := validate.Descriptor(name, data)
	return s, err
}

// lines renders err as toolgen check prints it: one problem a line.
func lines(err error) string {
	var b strings.Builder
	for _, e := range tool.Flatten(err) {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

func corpus(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "descriptors", dir, "*"+tool.DescriptorExt))
	if err != nil || len(files) == 0 {
		t.Fatalf("no descriptors in testdata/descriptors/%s: %v", dir, err)
	}
	return files
}

func TestDecodeSpecValidCorpus(t *testing.T) {
	for _, file := range corpus(t, "valid") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := check(filepath.Base(file), data)
			if err != nil {
				t.Fatalf("valid descriptor refused:\n%s", lines(err))
			}
			if s.Name == "" || s.Description == "" || s.Command == "" {
				t.Fatalf("decoded spec lacks a required field: %+v", s)
			}
		})
	}
}

// TestDecodeSpecInvalidCorpus pins every invalid descriptor's problems,
// message and position, in NAME.err beside it (go test -update rewrites
// them). Each file gives exactly one 613 unless listed in several.
func TestDecodeSpecInvalidCorpus(t *testing.T) {
	several := map[string]bool{
		"missing-fields.tool.json": true, // name, description and command are all missing
		"many-problems.tool.json":  true, // every problem of the file is reported
		"bad-slot-name.tool.json":  true, // both the template's {Path} and the declaration
		"duplicate-key.tool.json":  true, // and the template's undeclared {pattern}
		// every independent problem of the file at once: the decoder's and
		// the validator's
		"independent-problems.tool.json": true,
	}
	for _, file := range corpus(t, "invalid") {
		base := filepath.Base(file)
		t.Run(base, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = check(base, data)
			if err == nil {
				t.Fatal("invalid descriptor accepted")
			}
			problems := tool.Flatten(err)
			if len(problems) != 1 && !several[base] {
				t.Errorf("want exactly one 613, got %d:\n%s", len(problems), lines(err))
			}
			for _, p := range problems {
				var te *tool.Error
				if !errors.As(p, &te) || te.Code != tool.CodeSpec || te.File != base {
					t.Errorf("problem is not a 613 *tool.Error naming %s: %#v", base, p)
				}
			}
			got := lines(err)
			golden := strings.TrimSuffix(file, tool.DescriptorExt) + ".err"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("problems differ from %s\ngot:\n%swant:\n%s", golden, got, want)
			}
		})
	}
}

func TestDecodeSpecKeepsOrderAndValues(t *testing.T) {
	data := []byte(`{
  "name": "t",
  "description": "d",
  "command": "x {zeta} {alpha} {mid} {num}",
  "writes": true,
  "network": true,
  "arguments": {
    "zeta":  {"type": "string", "description": "z", "required": true, "pattern": "[a-z]+"},
    "alpha": {"type": "integer", "description": "a", "default": 10, "enum": [5, 10]},
    "mid":   {"type": "path", "description": "m", "default": ""},
    "num":   {"type": "number", "description": "n", "default": 0.25}
  },
  "examples": [{"args": {"zeta": "q"}, "argv": ["x", "q", "10", "0.25"]}, {"rejects": "zeta"}]
}`)
	s, _, err := tool.DecodeSpec("t.tool.json", data)
	if err != nil {
		t.Fatal(err)
	}
	want := tool.Spec{
		Name: "t", Description: "d", Command: "x {zeta} {alpha} {mid} {num}", Writes: true, Network: true,
		Args: []tool.Arg{
			{Name: "zeta", Type: tool.String, Description: "z", Required: true, Pattern: "[a-z]+"},
			{Name: "alpha", Type: tool.Integer, Description: "a", Default: "10", HasDefault: true, Enum: []string{"5", "10"}},
			{Name: "mid", Type: tool.Path, Description: "m", Default: "", HasDefault: true},
			{Name: "num", Type: tool.Number, Description: "n", Default: "0.25", HasDefault: true},
		},
		Examples: []tool.Example{
			{Args: `{"zeta": "q"}`, Argv: []string{"x", "q", "10", "0.25"}},
			{Rejects: "zeta"},
		},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("decoded\n%#v\nwant\n%#v", s, want)
	}
}

func TestPositions(t *testing.T) {
	data := []byte("{\r\n  \"name\": \"t\",\r\n  \"description\": \"Zählt\", \"command\": \"ls {p}\",\r\n" +
		"  \"arguments\": {\"p\": {\"type\": \"path\", \"description\": \"d\", \"enum\": [\".\", \"a\"]}}\r\n}")
	_, pos, err := tool.DecodeSpec("p.tool.json", data)
	if err != nil {
		t.Fatal(err)
	}
	for field, want := range map[string]tool.Pos{
		"name":                  {Line: 2, Col: 3},
		"description":           {Line: 3, Col: 3},
		"command":               {Line: 3, Col: 28}, // byte column: "ä" is two bytes
		"arguments":             {Line: 4, Col: 3},
		"arguments.p":           {Line: 4, Col: 17},
		"arguments.p.type":      {Line: 4, Col: 23},
		"arguments.p.enum.1":    {Line: 4, Col: 73},
		"arguments.p.default":   {Line: 4, Col: 17}, // absent: falls back to the slot
		"arguments.p.type.more": {Line: 4, Col: 23},
	} {
		got, ok := pos.Of(field)
		if !ok || got != want {
			t.Errorf("Of(%q) = %v, %v; want %v", field, got, ok, want)
		}
	}
	if _, ok := pos.Of("examples"); ok {
		t.Error("Of(examples) found a position for a field the file does not have")
	}
	var nilPos *tool.Positions
	if _, ok := nilPos.Of("name"); ok || nilPos.Locate(nil) != nil {
		t.Error("a nil *Positions must find nothing and locate nothing")
	}
}

func TestLocate(t *testing.T) {
	data := []byte("{\n  \"name\": \"t\",\n  \"description\": \"d\",\n  \"command\": \"ls\"\n}\n")
	_, pos, err := tool.DecodeSpec("dir/l.tool.json", data)
	if err != nil {
		t.Fatal(err)
	}
	located := &tool.Error{Code: tool.CodeSpec, File: "other.tool.json", Line: 9, Col: 9, Field: "name", Msg: "kept"}
	err = pos.Locate(errors.Join(
		tool.SpecErrorf("command", "bad command"),
		errors.Join(tool.SpecErrorf("nowhere", "no position")),
		located,
		errors.New("plain"),
	))
	want := "dir/l.tool.json: error 613: no position\n" +
		"plain\n" +
		"dir/l.tool.json:4:3: error 613: bad command\n" +
		"other.tool.json:9:9: error 613: kept\n"
	if got := lines(err); got != want {
		t.Errorf("Locate:\n%swant:\n%s", got, want)
	}
}

// TestDecodeSpecAttacks feeds inputs too large or too deep to keep as files.
// Each gives one located 613 and no panic.
func TestDecodeSpecAttacks(t *testing.T) {
	deep := func(open, close string, n int) []byte {
		return []byte(`{"name": "t", "description": "d", "command": "ls", "examples": [{"args": {"a": ` +
			strings.Repeat(open, n) + strings.Repeat(close, n) + `}, "argv": ["ls"]}]}`)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"deep arrays in example args", deep("[", "]", 100000), `a.tool.json:1:10076: error 613: invalid JSON: invalid character '[' exceeded max depth`},
		{"deep objects in example args", deep(`{"a":`, "}", 100000), `a.tool.json:1:50060: error 613: invalid JSON: invalid character '{' exceeded max depth`},
		{"deep arrays at the top", []byte(strings.Repeat("[", 1<<20)), `a.tool.json:1:1: error 613: a descriptor must be a JSON object, found an array`},
		{"deep value of a field", []byte(`{"name": ` + strings.Repeat("[", 1<<20)), `a.tool.json:1:10: error 613: name must be a string, found an array`},
		{"huge padding then junk", append(bytes.Repeat([]byte(" \n"), 1<<20), '!'), `a.tool.json:1048577:1: error 613: invalid JSON: invalid character '!' looking for beginning of value`},
		{"NUL late in the file", []byte("{\"name\": \"t\"\n\n   \x00}"), `a.tool.json:3:4: error 613: file holds a NUL byte; a descriptor is UTF-8 text`},
		{"overlong UTF-8", []byte("{\"name\": \"\xc0\xaf\"}"), `a.tool.json:1:11: error 613: file is not valid UTF-8`},
		{"UTF-16 with BOM", []byte("\xff\xfe{\x00}\x00"), `a.tool.json:1:4: error 613: file holds a NUL byte; a descriptor is UTF-8 text`},
		{"escaped NUL in name", []byte(`{"name": "a\u0000b", "description": "d", "command": "ls"}`), ``},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := check("a.tool.json", c.data)
			if err == nil {
				t.Fatal("accepted")
			}
			got := strings.Split(lines(err), "\n")[0]
			if c.want != "" && !strings.HasPrefix(got, c.want) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if tool.CodeOf(err) != tool.CodeSpec {
				t.Errorf("not a 613: %v", err)
			}
		})
	}
}
