package base_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// exampleSpec is grep -rn {pattern} {path} with examples of every outcome:
// the first two hold, the others fail in each way CheckExamples knows.
var exampleSpec = tool.Spec{
	Name:        "search",
	Description: "search",
	Command:     "grep -rn {pattern} {path}",
	Args: []tool.Arg{
		{Name: "pattern", Type: tool.String, Description: "p", Required: true},
		{Name: "path", Type: tool.Path, Description: "p", Default: ".", HasDefault: true},
	},
	Examples: []tool.Example{
		{Args: `{"pattern":"x","path":"./a/"}`, Argv: []string{"grep", "-rn", "x", "./a/"}},
		{Args: `{"pattern":"a;b"}`, Rejects: "U+003B SEMICOLON"},
		{Args: `{"pattern":"x"}`, Argv: []string{"grep", "-rn", "y", "."}},
		{Args: `{"pattern":"x;"}`, Argv: []string{"grep", "-rn", "x;", "."}},
		{Args: `{"pattern":"x"}`, Rejects: "anything"},
		{Args: `{"pattern":"-x"}`, Rejects: "U+003B"},
		{Args: `{"pattern":"x"}`, Argv: []string{}},
	},
}

func TestCheckExamples(t *testing.T) {
	k, err := kernel.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := base.New(exampleSpec, k)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`error 613: example 2: args {"pattern":"x"} assemble argv ["grep","-rn","x","."], want ["grep","-rn","y","."]`,
		`error 613: example 3: args {"pattern":"x;"} were rejected (error 614: slot "pattern": character ';' (U+003B SEMICOLON) at byte offset 1 is not allowed: shell operator and quote characters (' " ` + "`" + ` ; | & $ < >) are rejected), want argv ["grep","-rn","x;","."]`,
		`error 613: example 4: args {"pattern":"x"} were accepted (argv ["grep","-rn","x","."]), want a 614 containing "anything"`,
		`error 613: example 5: args {"pattern":"-x"} were rejected with "error 614: slot \"pattern\": value \"-x\" begins with '-' and would be read as an option; a value that starts an argument may not begin with a dash (the template fixes the options)", which does not contain "U+003B"`,
		`error 613: example 6: args {"pattern":"x"} assemble argv ["grep","-rn","x","."], want []`,
	}
	errs := b.CheckExamples()
	if len(errs) != len(want) {
		t.Fatalf("CheckExamples = %d errors, want %d: %v", len(errs), len(want), errs)
	}
	for i, err := range errs {
		var te *tool.Error
		if !errors.As(err, &te) || te.Code != tool.CodeSpec || !strings.HasPrefix(te.Field, "examples.") {
			t.Errorf("error %d is not a 613 on examples.N: %#v", i, err)
		}
		if err.Error() != want[i] {
			t.Errorf("error %d:\n got %s\nwant %s", i, err, want[i])
		}
	}
	if errs[0].(*tool.Error).Field != "examples.2" {
		t.Errorf("Field = %q, want examples.2", errs[0].(*tool.Error).Field)
	}

	good := exampleSpec
	good.Examples = good.Examples[:2]
	b, err = base.New(good, k)
	if err != nil {
		t.Fatal(err)
	}
	if errs := b.CheckExamples(); errs != nil {
		t.Errorf("valid examples: %v", errs)
	}
}

// TestCheckExamplesLocated: with the descriptor's Positions, a failing
// example points at its place in the file.
func TestCheckExamplesLocated(t *testing.T) {
	src := `{
  "name": "count",
  "description": "count lines",
  "command": "wc -l {path}",
  "arguments": {"path": {"type": "path", "description": "file", "required": true}},
  "examples": [
    {"args": {"path": "a"}, "argv": ["wc", "-l", "a"]},
    {"args": {"path": "a"}, "argv": ["wc", "a"]}
  ]
}`
	spec, pos, err := tool.DecodeSpec("count.tool.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k, err := kernel.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := base.New(spec, k)
	if err != nil {
		t.Fatal(err)
	}
	errs := b.CheckExamples()
	if len(errs) != 1 {
		t.Fatalf("CheckExamples = %v", errs)
	}
	got := pos.Locate(errs[0]).Error()
	want := `count.tool.json:8:5: error 613: example 1: args {"path": "a"} assemble argv ["wc","-l","a"], want ["wc","a"]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
