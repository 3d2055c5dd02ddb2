package builtin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/builtin"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestSpecsAreCopies: a caller that changes a Spec it was given (its
// command, a slot's pattern) changes neither the next Spec nor the tools
// built after it.
func TestSpecsAreCopies(t *testing.T) {
	for _, get := range []func() tool.Spec{builtin.GrepSpec, builtin.FindSpec, builtin.SedPrintSpec} {
		s, want := get(), get()
		s.Command = "sh -c {pattern}"
		s.Args[0].Pattern = ".*"
		s.Args[0].Name = "script"
		s.Args = append(s.Args, tool.Arg{Name: "extra", Type: tool.String})
		assert.Equal(t, want, get(), "%s: a change to a returned Spec leaks into the next", want.Name)
	}
	tools, err := builtin.All(kerneltest.New(t, nil))
	require.NoError(t, err)
	for i, get := range []func() tool.Spec{builtin.GrepSpec, builtin.FindSpec, builtin.SedPrintSpec} {
		assert.Equal(t, get(), tools[i].Spec(), "the tool is built from the Spec")
	}
}
