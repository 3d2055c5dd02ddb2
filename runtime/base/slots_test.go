package base_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var phraseSpec = tool.Spec{
	Name:        "search_phrase",
	Description: "Search a phrase",
	Command:     "grep -rn {ignore_case} {count} -e {phrase} -- src",
	Args: []tool.Arg{
		{Name: "ignore_case", Type: tool.Boolean, Description: "Ignore case", Flag: "-i"},
		{Name: "count", Type: tool.Boolean, Description: "Count only", Flag: "--count", Default: "false", HasDefault: true},
		{Name: "phrase", Type: tool.Text, Description: "The phrase", Required: true},
	},
}

// TestBooleanAndTextSlots runs real grep: a boolean's word is its flag when
// true and gone when false, null or absent; a text value with spaces is one
// argument.
func TestBooleanAndTextSlots(t *testing.T) {
	k := workspace(t, map[string]string{"src/a.go": "func main() {}\n", "src/b.txt": "Func Main\n"})
	b, err := base.New(phraseSpec, k)
	require.NoError(t, err)
	for _, c := range []struct {
		args string
		argv []string
	}{
		{`{"phrase":"func main"}`, []string{"grep", "-rn", "-e", "func main", "--", "src"}},
		{`{"phrase":"func main","ignore_case":false}`, []string{"grep", "-rn", "-e", "func main", "--", "src"}},
		{`{"phrase":"func main","ignore_case":null}`, []string{"grep", "-rn", "-e", "func main", "--", "src"}},
		{`{"phrase":"func main","ignore_case":true}`, []string{"grep", "-rn", "-i", "-e", "func main", "--", "src"}},
		{`{"phrase":"func main","ignore_case":true,"count":true}`, []string{"grep", "-rn", "-i", "--count", "-e", "func main", "--", "src"}},
		// -e's value is grep's pattern: a leading dash, quotes and operators are data there.
		{`{"phrase":"-r x"}`, []string{"grep", "-rn", "-e", "-r x", "--", "src"}},
		{`{"phrase":"a ＆ b && it's \"x\""}`, []string{"grep", "-rn", "-e", `a ＆ b && it's "x"`, "--", "src"}},
	} {
		argv, err := b.Argv(json.RawMessage(c.args))
		require.NoError(t, err, c.args)
		assert.Equal(t, c.argv, argv, c.args)
	}
	res, err := b.Execute(context.Background(), json.RawMessage(`{"phrase":"func main"}`))
	require.NoError(t, err)
	assert.Contains(t, res.Output, "src/a.go:1:func main")
	assert.NotContains(t, res.Output, "Func Main")
	res, err = b.Execute(context.Background(), json.RawMessage(`{"phrase":"func main","ignore_case":true}`))
	require.NoError(t, err)
	assert.Contains(t, res.Output, "src/b.txt:1:Func Main")

	for _, c := range []struct{ args, want string }{
		{`{"phrase":"x","ignore_case":"true"}`, `slot "ignore_case": want a JSON boolean (true or false), got a string`},
		{`{"phrase":"x","ignore_case":1}`, `got a number`},
		{`{"phrase":"x","ignore_case":[true]}`, `got an array`},
		{`{"phrase":"x","ignore_case":{"v":true}}`, `got an object`},
		{`{"phrase":"func\tmain"}`, `U+0009 CHARACTER TABULATION`},
		{`{"phrase":"func\u3000main"}`, `the only white space a text value may hold is the plain space U+0020`},
		{`{"phrase":"@x"}`, `begins with '@'`},
		{`{"phrase":"a\u200bb"}`, `U+200B ZERO WIDTH SPACE`},
	} {
		_, err := b.Argv(json.RawMessage(c.args))
		require.Error(t, err, c.args)
		assert.Equal(t, tool.CodeValue, tool.CodeOf(err), c.args)
		assert.Contains(t, err.Error(), c.want, c.args)
	}
}

// TestTypedBoolean: a generated-style args struct with *bool reaches the
// same assembly.
func TestTypedBoolean(t *testing.T) {
	type args struct {
		IgnoreCase *bool  `json:"ignore_case,omitempty"`
		Count      *bool  `json:"count,omitempty"`
		Phrase     string `json:"phrase"`
	}
	k := workspace(t, map[string]string{"src/b.txt": "Func Main\n"})
	typed, err := base.NewTyped[args](phraseSpec, k)
	require.NoError(t, err)
	yes := true
	res, err := typed.Run(context.Background(), args{IgnoreCase: &yes, Phrase: "func main"})
	require.NoError(t, err)
	assert.Contains(t, res.Output, "Func Main")
	res, err = typed.Run(context.Background(), args{Phrase: "func main"})
	require.NoError(t, err)
	assert.Equal(t, 1, res.ExitCode, res.Text())
}

// TestSchemaOfBooleanAndText: boolean is a JSON Schema boolean with a
// boolean default; text is a string whose description and pattern state
// its rule (here grep's pattern, after -e: data, which may begin with '-').
func TestSchemaOfBooleanAndText(t *testing.T) {
	got := string(base.Schema(&phraseSpec))
	assert.Equal(t, `{"type":"object","properties":{`+
		`"ignore_case":{"type":"boolean","description":"Ignore case"},`+
		`"count":{"type":"boolean","description":"Count only","default":false},`+
		`"phrase":{"type":"string","description":"The phrase. Any printable text: spaces, quotes and operator characters are fine; `+
		`no tabs, newlines or invisible characters; it may begin with '-' but not with '@'.",`+
		`"pattern":"^(?:[^\\x00-\\x1f\\x7f-\\x9f@][^\\x00-\\x1f\\x7f-\\x9f]*)?$"}},`+
		`"required":["phrase"],"additionalProperties":false}`, got)
}

// TestSpecOutputLimit: a Spec's OutputLimit replaces the kernel's (the
// run's) for that tool, either way; without one the kernel's applies.
func TestSpecOutputLimit(t *testing.T) {
	body := strings.Repeat("x", 5000)
	spec := tool.Spec{Name: "cat_file", Description: "Print a file", Command: "cat {f}", Args: []tool.Arg{
		{Name: "f", Type: tool.Path, Description: "File", Required: true},
	}}
	for _, c := range []struct {
		run, own, want int
	}{
		{0, 0, kernel.DefaultOutputLimit},
		{100, 0, 100},
		{100, 64, 64},
		{16, 4096, 4096},
		{0, tool.MaxOutputLimit, tool.MaxOutputLimit},
	} {
		dir := workspace(t, map[string]string{"f.txt": body}).Workspace()
		var opts []kernel.Option
		if c.run > 0 {
			opts = append(opts, kernel.WithOutputLimit(c.run))
		}
		k, err := kernel.New(dir, opts...)
		require.NoError(t, err)
		s := spec
		s.OutputLimit = c.own
		b, err := base.New(s, k)
		require.NoError(t, err)
		assert.Equal(t, c.want, b.Kernel().OutputLimit(), "run %d, own %d", c.run, c.own)
		res, err := b.Execute(context.Background(), json.RawMessage(`{"f":"f.txt"}`))
		require.NoError(t, err)
		assert.Equal(t, c.want < len(body), res.Truncated, "run %d, own %d", c.run, c.own)
		assert.LessOrEqual(t, strings.Count(res.Output, "x"), c.want, "run %d, own %d", c.run, c.own)
	}
	_, err := kernel.New(t.TempDir(), kernel.WithOutputLimit(kernel.MaxOutputLimit+1))
	assert.ErrorContains(t, err, "kernel: output limit 1048577 is more than MaxOutputLimit (1048576 bytes)")
}

// TestBooleanFlagRunsProgram: when a boolean's flag makes find run a
// program written in the template (-exec), that program joins the execute
// set, so the confined call runs it (strict refuses to run at all where
// Landlock cannot enforce the policy).
func TestBooleanFlagRunsProgram(t *testing.T) {
	spec := tool.Spec{Name: "find_todo", Description: "d", Command: "find a -name {name} {grep} grep -l TODO {} +", Args: []tool.Arg{
		{Name: "name", Type: tool.String, Description: "n", Required: true},
		{Name: "grep", Type: tool.Boolean, Description: "g", Flag: "-exec"},
	}}
	k := workspace(t, map[string]string{"a/x.go": "// TODO\n", "a/y.go": "package a\n"})
	if _, ok := sandbox.Available(); !ok {
		guarantee.Missing(t, "Landlock cannot enforce the policy here")
	}
	km, err := kernel.New(k.Workspace(), kernel.WithConfinement(sandbox.Strict))
	require.NoError(t, err)
	b, err := base.New(spec, km)
	require.NoError(t, err)
	assert.Equal(t, []string{"grep"}, b.RunsAlso())
	res, err := b.Execute(context.Background(), json.RawMessage(`{"name":"*.go","grep":true}`))
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode, res.Text())
	assert.Equal(t, "a/x.go\n", res.Output)
}
