package preset_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestWithConfinement checks the wiring only: this test binary does not call
// sandbox.Init, so a confined call must fail saying so (package sandbox
// tests the confinement itself, with a binary that does).
func TestWithConfinement(t *testing.T) {
	ws := t.TempDir()
	call := func(p *preset.Preset) string {
		tl, ok := p.Registry.Get("find_files")
		if !ok {
			t.Fatal("no find_files")
		}
		text, _ := tl.Call(context.Background(), json.RawMessage(`{"pattern":"*.go"}`))
		return text
	}

	for _, opts := range [][]preset.Option{nil, {preset.WithConfinement(sandbox.Off)}} {
		p, err := preset.New(append(opts, preset.WithWorkspace(ws))...)
		if err != nil {
			t.Fatal(err)
		}
		if p.Kernel.Confiner() != nil {
			t.Error("a confiner without confinement asked for")
		}
		if text := call(p); !strings.HasPrefix(text, "exit: 0") {
			t.Errorf("unconfined call: %s", text)
		}
	}

	p, err := preset.New(preset.WithWorkspace(ws), preset.WithConfinement(sandbox.Strict))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := p.Kernel.Confiner().(*sandbox.Confiner); !ok || c.Mode() != sandbox.Strict {
		t.Fatalf("Confiner() = %v, want a strict *sandbox.Confiner", p.Kernel.Confiner())
	}
	if text := call(p); !strings.HasPrefix(text, "exit: 126") || !strings.Contains(text, "does not call sandbox.Init") {
		t.Errorf("confined call in a program without sandbox.Init: %s", text)
	}

	if _, err := preset.New(preset.WithWorkspace(ws), preset.WithConfinement(sandbox.Mode(9))); err == nil {
		t.Error("New accepted an unknown confinement mode")
	}
}
