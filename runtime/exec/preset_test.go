package exec_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// The preset's exec wiring (preset.WithExec) is tested from here, so the
// preset package keeps only its own files.
func TestWithExec(t *testing.T) {
	ws := t.TempDir()
	p, err := preset.New(preset.WithWorkspace(ws), preset.WithExec("ls", "cat"), preset.WithExec("ls"))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := p.Registry.Lookup("exec")
	if !ok || e.Form != tool.FormExec || e.Source != "exec (cat,ls)" {
		t.Fatalf("exec entry = %+v, %v", e, ok)
	}
	text, err := e.Tool.Call(context.Background(), json.RawMessage(`{"command":"ls -la"}`))
	if err != nil || !strings.HasPrefix(text, "exit: 0") {
		t.Errorf("exec ls -la = %q, %v", text, err)
	}
	_, err = e.Tool.Call(context.Background(), json.RawMessage(`{"command":"ls | cat"}`))
	if tool.CodeOf(err) != tool.CodeValue {
		t.Errorf("exec ls | cat = %v, want a 614", err)
	}
}

func TestWithExecOffByDefault(t *testing.T) {
	for _, opts := range [][]preset.Option{nil, {preset.WithExec()}} {
		p, err := preset.New(append(opts, preset.WithWorkspace(t.TempDir()))...)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.Registry.Get("exec"); ok {
			t.Error("exec exists without granted binaries")
		}
	}
}

func TestWithExecDenied(t *testing.T) {
	ws := t.TempDir()
	_, err := preset.New(preset.WithWorkspace(ws), preset.WithExec("ls", "rm"))
	if tool.CodeOf(err) != tool.CodeSpec || !strings.Contains(err.Error(), `"rm"`) {
		t.Errorf("granting rm = %v, want a 613", err)
	}
	_, err = preset.New(preset.WithWorkspace(ws), preset.WithDenied("cat"), preset.WithExec("cat"))
	if tool.CodeOf(err) != tool.CodeSpec {
		t.Errorf("granting cat denied by WithDenied = %v, want a 613", err)
	}
	p, err := preset.New(preset.WithWorkspace(ws), preset.WithDenyListNarrowed("rm"), preset.WithExec("rm"))
	if err != nil {
		t.Fatalf("granting rm with the deny list narrowed = %v", err)
	}
	if _, ok := p.Registry.Get("exec"); !ok {
		t.Error("no exec tool")
	}
}
