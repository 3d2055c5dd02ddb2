package preset_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestWithConfinement checks the wiring: the default is best-effort, the
// option sets the mode, an unknown mode is refused, and a call runs in
// every mode (package sandbox tests the confinement itself).
func TestWithConfinement(t *testing.T) {
	ws := t.TempDir()
	for _, tc := range []struct {
		opts []preset.Option
		want sandbox.Mode
	}{
		{nil, sandbox.BestEffort},
		{[]preset.Option{preset.WithConfinement(sandbox.Off)}, sandbox.Off},
		{[]preset.Option{preset.WithConfinement(sandbox.Strict)}, sandbox.Strict},
	} {
		p, err := preset.New(append(tc.opts, preset.WithWorkspace(ws))...)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Kernel.Confinement(); got != tc.want {
			t.Errorf("Confinement() = %v, want %v", got, tc.want)
		}
		tl, ok := p.Registry.Get("find_files")
		if !ok {
			t.Fatal("no find_files")
		}
		text, _ := tl.Call(context.Background(), json.RawMessage(`{"pattern":"*.go"}`))
		abi, full := sandbox.Available()
		if tc.want == sandbox.Strict && !full {
			if !strings.HasPrefix(text, "exit: 126") {
				t.Errorf("strict without full Landlock (ABI %d): %s", abi, text)
			}
		} else if !strings.HasPrefix(text, "exit: 0") {
			t.Errorf("%v: %s", tc.want, text)
		}
	}
	if _, err := preset.New(preset.WithWorkspace(ws), preset.WithConfinement(sandbox.Mode(9))); err == nil {
		t.Error("New accepted an unknown confinement mode")
	}
}
