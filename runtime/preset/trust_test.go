package preset_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

const (
	readDesc  = `{"name":"say_hi","description":"d","command":"echo hi"}`
	writeDesc = `{"name":"make_file","description":"d","command":"touch {p}","writes":true,"arguments":{"p":{"type":"path","description":"p","required":true}}}`
)

func trustDir(t *testing.T, ws string) string {
	t.Helper()
	dir := filepath.Join(ws, "tools")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"hi.tool.json": readDesc, "w.tool.json": writeDesc} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func names(p *preset.Preset) map[string]bool {
	out := map[string]bool{}
	for _, t := range p.Registry.Tools() {
		out[t.Name()] = true
	}
	return out
}

func problemText(p *preset.Preset) string {
	var b strings.Builder
	for _, e := range p.Problems {
		b.WriteString(e.Error() + "\n")
	}
	return b.String()
}

// TestToolsDirInsideWorkspace: a descriptor that writes may not load from a
// tools directory inside the workspace, and with a writer (exec) served, no
// descriptor loads; outside the workspace, or when allowed, all load.
func TestToolsDirInsideWorkspace(t *testing.T) {
	ws := t.TempDir()
	dir := trustDir(t, ws)

	p, err := preset.New(preset.WithWorkspace(ws), preset.WithToolsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	got := names(p)
	if !got["say_hi"] || got["make_file"] {
		t.Fatalf("read-only inside workspace: tools %v", got)
	}
	if len(p.Problems) != 1 || tool.CodeOf(p.Problems[0]) != tool.CodeSpec ||
		!strings.Contains(p.Problems[0].Error(), `tool "make_file" writes, and its tools directory lies inside the workspace`) {
		t.Fatalf("problems:\n%s", problemText(p))
	}

	p, err = preset.New(preset.WithWorkspace(ws), preset.WithExec("ls"), preset.WithToolsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p); got["say_hi"] || got["make_file"] {
		t.Fatalf("exec granted: descriptors loaded %v", got)
	}
	if len(p.Problems) != 2 || !strings.Contains(problemText(p), "exec (its granted binaries may write) can write there") {
		t.Fatalf("problems:\n%s", problemText(p))
	}

	p, err = preset.New(preset.WithWorkspace(ws), preset.WithExec("ls"), preset.WithToolsDir(dir), preset.WithToolsInWorkspace())
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p); !got["say_hi"] || !got["make_file"] || len(p.Problems) != 0 {
		t.Fatalf("allowed: tools %v problems:\n%s", got, problemText(p))
	}

	other := t.TempDir()
	p, err = preset.New(preset.WithWorkspace(other), preset.WithExec("ls"), preset.WithToolsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p); !got["say_hi"] || !got["make_file"] || len(p.Problems) != 0 {
		t.Fatalf("outside the workspace: tools %v problems:\n%s", got, problemText(p))
	}
}
