package sandbox_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestBundlesAreCopies: what an importer does to a bundle it was given
// changes neither the next copy nor what a policy reads.
func TestBundlesAreCopies(t *testing.T) {
	for _, get := range []func() sandbox.Bundle{sandbox.System, sandbox.Network, sandbox.Build} {
		b := get()
		want := get()
		b.Name = "widened"
		b.Dirs[0] = "/"
		b.Files[0] = "/etc/shadow"
		b.Dirs = append(b.Dirs, "/home")
		assert.Equal(t, want, get(), "a change to a returned bundle leaks into the next")
	}
	for _, b := range (sandbox.Policy{Workspace: "/ws", Network: true}).Bundles() {
		b.Dirs[0] = "/"
	}
	for _, b := range (sandbox.Policy{Workspace: "/ws", Network: true}).Bundles() {
		assert.NotContains(t, b.Dirs, "/", "a change to Bundles' result leaks into the next policy")
	}
	assert.Equal(t, []sandbox.Bundle{sandbox.System()}, sandbox.Policy{Workspace: "/ws"}.Bundles())
	assert.Equal(t, []sandbox.Bundle{sandbox.System(), sandbox.Network()}, sandbox.Policy{Workspace: "/ws", Network: true}.Bundles())
}
