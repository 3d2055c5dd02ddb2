package temporaltool_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nanogpt/toolgen/gen"
)

// TestGeneratedFresh: the committed code of internal/testtools is what
// toolgen generate --temporal writes for its descriptors, so the stubs the
// real-server tests call are the generator's current output.
func TestGeneratedFresh(t *testing.T) {
	dir := filepath.Join("internal", "testtools")
	descs, err := gen.ReadDir(dir)
	require(t, err)
	target, err := gen.Resolve(dir, "", "tools_gen.go", "tools_gen_test.go", gen.TemporalName("tools_gen.go"))
	require(t, err)
	out, err := gen.Generate(gen.Config{Package: target.Name, Source: target.Source(dir), Reserved: target.Reserved, Temporal: true}, descs)
	require(t, err)
	for name, want := range map[string][]byte{"tools_gen.go": out.Code, gen.TemporalName("tools_gen.go"): out.Temporal} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./internal/testtools", name)
		}
	}
}
