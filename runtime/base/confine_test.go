package base_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// accessRecorder is a kernel.Confiner that runs argv unchanged and records
// the access it was asked to enforce.
type accessRecorder struct {
	mu   sync.Mutex
	seen []kernel.Access
}

func (r *accessRecorder) Confine(argv []string, _ string, a kernel.Access) ([]string, string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, a)
	return argv, "", nil
}

// TestSpecAccessReachesConfiner: tools built on one shared kernel each run
// with the access their own Spec declares, and the shared kernel is left as
// it was.
func TestSpecAccessReachesConfiner(t *testing.T) {
	r := &accessRecorder{}
	k, err := kernel.New(t.TempDir(), kernel.WithConfiner(r))
	require.NoError(t, err)
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
	require.Len(t, r.seen, len(tools))
	for i, tc := range tools {
		assert.Equal(t, tc.want, r.seen[i], tc.spec.Name)
	}
	assert.Equal(t, kernel.Access{}, k.Access(), "the shared kernel must not change")

	// A read-only Spec on a kernel derived for writing is read-only.
	b, err := base.New(spec("reads", false, false), k.WithAccess(kernel.Access{Write: true}))
	require.NoError(t, err)
	assert.Equal(t, kernel.Access{}, b.Kernel().Access())
}
