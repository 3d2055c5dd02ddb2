package base_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var headSpec = tool.Spec{
	Name:        "head_lines",
	Description: "Print the first lines of a file",
	Command:     "head -n {count} {path}",
	Args: []tool.Arg{
		{Name: "count", Type: tool.Integer, Description: "lines", Default: "10", HasDefault: true},
		{Name: "path", Type: tool.Path, Description: "file", Required: true},
	},
}

type headArgs struct {
	Count *int64 `json:"count,omitempty"`
	Path  string `json:"path"`
}

// TestTypedRunResult: Run gives Go callers the typed result beside the
// model's text, a failing command is a Result (not an error), a rejected
// value is a 614 with nothing run.
func TestTypedRunResult(t *testing.T) {
	k := workspace(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	h, err := base.NewTyped[headArgs](headSpec, k)
	require.NoError(t, err)
	ctx := context.Background()

	res, err := h.Run(ctx, headArgs{Count: new(int64(2)), Path: "a.txt"})
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode)
	assert.Equal(t, "one\ntwo\n", res.Output)
	assert.Equal(t, "exit: 0\noutput: one\ntwo\n", res.Text())
	assert.Positive(t, res.Duration)
	assert.False(t, res.Truncated)
	assert.False(t, res.TimedOut)

	res, err = h.Run(ctx, headArgs{Path: "missing.txt"})
	require.NoError(t, err, "a command that fails is a result")
	assert.NotZero(t, res.ExitCode)
	assert.Contains(t, res.Output, "missing.txt")

	res, err = h.Run(ctx, headArgs{Count: new(int64(-1)), Path: "a.txt"})
	assert.Equal(t, tool.CodeValue, tool.CodeOf(err))
	assert.Equal(t, kernel.Result{}, res, "a rejected call runs nothing")

	text, err := h.Call(ctx, []byte(`{"count":1,"path":"a.txt"}`))
	require.NoError(t, err)
	assert.Equal(t, "exit: 0\noutput: one\n", text)
	assert.Equal(t, tool.Digest(headSpec), h.Digest())
}

// TestNewTypedFields: a field of the argument struct that names no slot is
// a 613 (its value could never reach the command).
func TestNewTypedFields(t *testing.T) {
	k := workspace(t, nil)
	type extra struct {
		Path  string `json:"path"`
		Lines int    `json:"lines"`
		Other string
		Skip  string `json:"-"`
		skip  string // unexported: not marshalled, not checked
	}
	_, err := base.NewTyped[extra](headSpec, k)
	assert.Equal(t, tool.CodeSpec, tool.CodeOf(err))
	assert.ErrorContains(t, err, `field Lines of base_test.extra (json "lines") names no slot of the tool`)
	assert.ErrorContains(t, err, `field Other of base_test.extra (json "Other")`)
	assert.NotContains(t, err.Error(), "Skip")
	_ = extra{}.skip

	_, err = base.NewTyped[map[string]any](headSpec, k)
	assert.NoError(t, err, "a non-struct argument type is not checked")
}

// TestNewGeneratedDigest: a generated tool whose Spec no longer has the
// digest it was generated with is a 613 telling to run go generate; the
// options reach the validator.
func TestNewGeneratedDigest(t *testing.T) {
	k := workspace(t, nil)
	_, err := base.NewGenerated[headArgs](headSpec, "sha256:0", k)
	assert.Equal(t, tool.CodeSpec, tool.CodeOf(err))
	assert.ErrorContains(t, err, "run go generate")

	h, err := base.NewGenerated[headArgs](headSpec, tool.Digest(headSpec), k)
	require.NoError(t, err)
	assert.Equal(t, tool.Digest(headSpec), h.Digest())

	_, err = base.NewGenerated[headArgs](headSpec, tool.Digest(headSpec), k, base.WithDenyList(programs.DefaultDenyList().With("head")))
	assert.ErrorContains(t, err, `generated tool "head_lines": error 613: binary "head" is on the deny list (entry "head")`)
}

// TestBuild: Build keeps the order and joins the errors of every tool that
// fails, returning none.
func TestBuild(t *testing.T) {
	k := workspace(t, nil)
	good := func(k *kernel.Kernel, opts ...base.Option) (*base.Typed[headArgs], error) {
		return base.NewTyped[headArgs](headSpec, k, opts...)
	}
	bad := func(name string) func(k *kernel.Kernel, opts ...base.Option) (*base.Typed[headArgs], error) {
		return func(k *kernel.Kernel, opts ...base.Option) (*base.Typed[headArgs], error) {
			s := headSpec
			s.Name, s.Command = name, "rm {count} {path}"
			return base.NewTyped[headArgs](s, k, opts...)
		}
	}
	tools, err := base.Build(k, base.Erase(good))
	require.NoError(t, err)
	require.Len(t, tools, 1)
	assert.Equal(t, "head_lines", tools[0].Name())

	tools, err = base.Build(k, base.Erase(bad("one")), base.Erase(good), base.Erase(bad("two")))
	assert.Nil(t, tools)
	assert.Len(t, tool.Flatten(err), 2)
	assert.ErrorContains(t, err, `binary "rm" is on the deny list`)
}

// TestDenyList: the public deny list is the validator's, with copies on
// change.
func TestDenyList(t *testing.T) {
	d := programs.DefaultDenyList()
	entry, denied := d.Match("/usr/bin/Python3.11")
	assert.True(t, denied)
	assert.Equal(t, "python*", entry)
	narrowed := d.Without("python*")
	_, denied = narrowed.Match("python3")
	assert.False(t, denied)
	_, denied = d.Match("python3")
	assert.True(t, denied, "Without returns a copy")
	assert.Equal(t, []string{"foo", "rm"}, programs.NewDenyList("RM", "/bin/Foo.exe").Entries())
	_, denied = programs.DenyList{}.Match("rm")
	assert.False(t, denied, "the zero DenyList denies nothing")
}
