package preset_test

import (
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestExtendedDenyListReachesPrebuiltTools: a binary the assembling code
// denies is refused in tools built before the preset existed (generated
// tools were validated against the default list) and in the built-ins.
func TestExtendedDenyListReachesPrebuiltTools(t *testing.T) {
	ws := t.TempDir()
	_, err := preset.New(preset.WithWorkspace(ws), preset.WithDenied("wc"),
		preset.WithCommandTools("github.com/nanogpt/toolgen/descriptors", descriptors.Tools))
	if tool.CodeOf(err) != tool.CodeSpec || !strings.Contains(err.Error(), `tool "count_lines"`) ||
		!strings.Contains(err.Error(), `binary "wc" is on the deny list`) {
		t.Fatalf("generated tool running a denied binary: err = %v", err)
	}
	_, err = preset.New(preset.WithWorkspace(ws), preset.WithDenied("grep"))
	if tool.CodeOf(err) != tool.CodeSpec || !strings.Contains(err.Error(), `binary "grep" is on the deny list`) {
		t.Fatalf("built-in running a denied binary: err = %v", err)
	}
	p, err := preset.New(preset.WithWorkspace(ws),
		preset.WithCommandTools("github.com/nanogpt/toolgen/descriptors", descriptors.Tools))
	if err != nil || p.Registry.Len() != 9 {
		t.Fatalf("default deny list: err %v, %d tools", err, p.Registry.Len())
	}
}
