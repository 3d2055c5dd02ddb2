package base_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/base"
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
	k := kerneltest.New(t, nil)
	b, err := base.New(exampleSpec, k)
	require.NoError(t, err)
	want := []string{
		`error 613: example 2: args {"pattern":"x"} assemble argv ["grep","-rn","x","."], want ["grep","-rn","y","."]`,
		`error 613: example 3: args {"pattern":"x;"} were rejected (error 614: slot "pattern": character ';' (U+003B SEMICOLON) at byte offset 1 is not allowed: shell operator and quote characters (' " ` + "`" + ` ; | & $ < >) are rejected), want argv ["grep","-rn","x;","."]`,
		`error 613: example 4: args {"pattern":"x"} were accepted (argv ["grep","-rn","x","."]), want a 614 containing "anything"`,
		`error 613: example 5: args {"pattern":"-x"} were rejected with "error 614: slot \"pattern\": value \"-x\" begins with '-' and would be read as an option; a value that starts an argument may not begin with a dash (the template fixes the options)", which does not contain "U+003B"`,
		`error 613: example 6: args {"pattern":"x"} assemble argv ["grep","-rn","x","."], want []`,
	}
	errs := b.CheckExamples()
	require.Len(t, errs, len(want), "%v", errs)
	for i, err := range errs {
		var te *tool.Error
		if assert.ErrorAs(t, err, &te, "error %d", i) {
			assert.Equal(t, tool.CodeSpec, te.Code, "error %d", i)
			assert.True(t, strings.HasPrefix(te.Field, "examples."), "error %d: field %q", i, te.Field)
		}
		assert.Equal(t, want[i], err.Error(), "error %d", i)
	}
	assert.Equal(t, "examples.2", errs[0].(*tool.Error).Field)

	good := exampleSpec
	good.Examples = good.Examples[:2]
	b, err = base.New(good, k)
	require.NoError(t, err)
	assert.Nil(t, b.CheckExamples(), "valid examples")
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
	require.NoError(t, err)
	b, err := base.New(spec, kerneltest.New(t, nil))
	require.NoError(t, err)
	errs := b.CheckExamples()
	require.Len(t, errs, 1, "%v", errs)
	assert.Equal(t, `count.tool.json:8:5: error 613: example 1: args {"path": "a"} assemble argv ["wc","-l","a"], want ["wc","a"]`,
		pos.Locate(errs[0]).Error())
}
