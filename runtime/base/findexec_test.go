package base_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var findExecSpec = tool.Spec{Name: "files_containing", Description: "d",
	Command: "find {path} -name {name} -exec grep -l {pattern} {} +",
	Args: []tool.Arg{
		{Name: "path", Type: tool.Path, Description: "p", Default: ".", HasDefault: true},
		{Name: "name", Type: tool.String, Description: "n", Required: true},
		{Name: "pattern", Type: tool.String, Description: "p", Required: true},
	}}

// TestFindExecPlaceholder: a template may hold find's {} (literal text, no
// slot), and the program find -exec runs, written out in the template,
// runs confined too (it joins the execute set); the model's pattern is one
// argument of grep, checked by the slot rules, and a slot for the program
// is refused (613).
func TestFindExecPlaceholder(t *testing.T) {
	k := workspace(t, map[string]string{"a/x.go": "package a // TODO here\n", "a/y.go": "package a\n", "b/z.txt": "TODO\n"})
	for _, mode := range []sandbox.Mode{sandbox.Strict, sandbox.BestEffort, sandbox.Off} {
		t.Run(mode.String(), func(t *testing.T) {
			if _, ok := sandbox.Available(); !ok && mode == sandbox.Strict {
				guarantee.Missing(t, "Landlock cannot enforce the policy here")
			}
			b, err := base.New(findExecSpec, kerneltest.In(t, k.Workspace(), kernel.WithConfinement(mode)))
			require.NoError(t, err)
			assert.Equal(t, []string{"grep"}, b.RunsAlso())
			args := json.RawMessage(`{"name":"*.go","pattern":"TODO"}`)
			argv, err := b.Argv(args)
			require.NoError(t, err)
			assert.Equal(t, []string{"find", ".", "-name", "*.go", "-exec", "grep", "-l", "TODO", "{}", "+"}, argv)
			res, err := b.Execute(context.Background(), args)
			require.NoError(t, err)
			assert.Equal(t, 0, res.ExitCode, res.Text())
			assert.Equal(t, "./a/x.go\n", res.Output)

			_, err = b.Call(context.Background(), json.RawMessage(`{"name":"*.go","pattern":"-r"}`))
			assert.Equal(t, tool.CodeValue, tool.CodeOf(err), "%v", err)
		})
	}
	spec := findExecSpec
	spec.Command = "find {path} -name {name} -exec {pattern} {} +"
	_, err := base.New(spec, k)
	require.Error(t, err)
	assert.Equal(t, tool.CodeSpec, tool.CodeOf(err))
	assert.Contains(t, err.Error(), "it is the program find's -exec runs")
}
