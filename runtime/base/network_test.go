package base_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestCodeFormHosts: a code-form Spec's Hosts become its kernel's
// Access.Hosts (the Spec the tool keeps is a copy), and a bad entry is a
// 613 naming network.hosts.N.
func TestCodeFormHosts(t *testing.T) {
	k, err := kernel.New(t.TempDir())
	require.NoError(t, err)
	hosts := []string{"api.github.com:443", "localhost:8080"}
	spec := tool.Spec{Name: "gh", Description: "GitHub", Command: "curl -sS https://api.github.com/", Hosts: hosts}
	b, err := base.New(spec, k)
	require.NoError(t, err)
	assert.Equal(t, kernel.Access{Hosts: []string{"api.github.com:443", "localhost:8080"}}, b.Kernel().Access())
	hosts[0] = "evil.example:443"
	assert.Equal(t, "api.github.com:443", b.Spec().Hosts[0], "the tool's Spec shares the caller's slice")
	assert.Equal(t, "api.github.com:443", b.Kernel().Access().Hosts[0], "the kernel shares the caller's slice")
	assert.Equal(t, kernel.Access{}, k.Access(), "the shared kernel changed")

	spec.Hosts = []string{"api.github.com:443", "evil.example@api.github.com:443"}
	_, err = base.New(spec, k)
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeSpec, te.Code)
	assert.Equal(t, "network.hosts.1", te.Field)
}
