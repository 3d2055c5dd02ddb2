package base_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestSpecAccessReachesConfiner: tools built on one shared kernel each run
// on a kernel with the access their own Spec declares (which the kernel's
// confinement enforces), and the shared kernel is left as it was.
func TestSpecAccessReachesConfiner(t *testing.T) {
	k := kerneltest.New(t, nil)
	spec := func(name string, writes, network bool) tool.Spec {
		return tool.Spec{Name: name, Description: "d", Command: "true", Writes: writes, Network: network}
	}
	tools := []struct {
		spec tool.Spec
		want kernel.Access
	}{
		{spec("reads", false, false), kernel.Access{}},
		{spec("writes", true, false), kernel.Access{Write: true}},
		{spec("fetches", false, true), kernel.Access{Network: true}},
		{spec("both", true, true), kernel.Access{Write: true, Network: true}},
	}
	for _, tc := range tools {
		b, err := base.New(tc.spec, k)
		require.NoError(t, err)
		assert.Equal(t, tc.want, b.Kernel().Access(), tc.spec.Name)
		_, err = b.Call(context.Background(), json.RawMessage(`{}`))
		require.NoError(t, err)
	}
	assert.Equal(t, kernel.Access{}, k.Access(), "the shared kernel must not change")

	// A read-only Spec on a kernel derived for writing is read-only.
	b, err := base.New(spec("reads", false, false), k.WithAccess(kernel.Access{Write: true}))
	require.NoError(t, err)
	assert.Equal(t, kernel.Access{}, b.Kernel().Access())
}
