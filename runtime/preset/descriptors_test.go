package preset_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

func desc(name, description string) string {
	return fmt.Sprintf(`{
  "name": %q,
  "description": %q,
  "command": "wc -l {file}",
  "arguments": {"file": {"type": "path", "description": "File to count", "required": true}}
}
`, name, description)
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func problemLines(problems []error) string {
	var b strings.Builder
	for _, p := range problems {
		for _, e := range tool.Flatten(p) {
			b.WriteString(e.Error() + "\n")
		}
	}
	return b.String()
}

func TestWithToolsDir(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "count.tool.json", desc("count_lines", "Count lines"))
	write(t, dir, "other.tool.json", desc("count_more", "Count more"))
	write(t, dir, "broken.tool.json", `{"name": "broken"`)
	write(t, dir, "grep.tool.json", desc("grep_text", "Shadows the builtin"))
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range p.Registry.Entries() {
		got = append(got, fmt.Sprintf("%s/%s", e.Tool.Name(), e.Form))
	}
	want := "count_lines/descriptor count_more/descriptor find_files/builtin grep_text/builtin sed_print/builtin"
	if strings.Join(got, " ") != want {
		t.Errorf("registry = %s\nwant       %s", strings.Join(got, " "), want)
	}
	if e, _ := p.Registry.Lookup("count_lines"); e.Source != filepath.Join(dir, "count.tool.json") || e.Group != preset.DescriptorGroup {
		t.Errorf("count_lines entry = %+v", e)
	}
	wantProblems := fmt.Sprintf("%s:1:18: error 613: unexpected end of file: the JSON is incomplete\n", filepath.Join(dir, "broken.tool.json")) +
		fmt.Sprintf("%s:2:3: error 613: tool name \"grep_text\" is already defined by builtin grep_text\n", filepath.Join(dir, "grep.tool.json"))
	if got := problemLines(p.Problems); got != wantProblems {
		t.Errorf("Problems:\n%s\nwant:\n%s", got, wantProblems)
	}
	if got := problemLines(p.DescriptorProblems()); got != wantProblems {
		t.Errorf("DescriptorProblems:\n%s", got)
	}
}

// digestTool is a generated-like tool: a base with a Digest method.
type digestTool struct {
	*base.CommandToolBase
	digest string
}

func (d digestTool) Digest() string { return d.digest }

func TestGeneratedDescriptorSkippedByDigest(t *testing.T) {
	same := desc("gen_same", "Generated")
	spec, _, err := tool.DecodeSpec("s", []byte(same))
	if err != nil {
		t.Fatal(err)
	}
	changedSpec := spec
	changedSpec.Name = "gen_changed"
	factory := func(k *kernel.Kernel) ([]tool.Tool, error) {
		a, err := base.New(spec, k)
		if err != nil {
			return nil, err
		}
		b, err := base.New(changedSpec, k)
		if err != nil {
			return nil, err
		}
		return []tool.Tool{a, digestTool{b, tool.Digest(changedSpec)}}, nil
	}
	dir := t.TempDir()
	write(t, dir, "same.tool.json", same)
	write(t, dir, "changed.tool.json", desc("gen_changed", "Edited after generation"))
	// The option order does not matter: descriptors load after every other tool.
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(dir), preset.WithoutBuiltins(),
		preset.WithCommandTools("example.com/agent/tools", factory))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gen_same", "gen_changed"} {
		if e, ok := p.Registry.Lookup(name); !ok || e.Form != tool.FormGenerated {
			t.Errorf("%s: entry %+v, want the generated tool", name, e)
		}
	}
	want := fmt.Sprintf("%s:2:3: error 613: tool \"gen_changed\" differs from the generated tool of that name (example.com/agent/tools (gen_changed)): the descriptor changed since generation, run go generate (or, if this file is not its source, rename the tool)\n",
		filepath.Join(dir, "changed.tool.json"))
	if got := problemLines(p.Problems); got != want {
		t.Errorf("Problems:\n%s\nwant:\n%s", got, want)
	}
}

func TestDescriptorsUsePresetDenyList(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "count.tool.json", desc("count_lines", "Count lines"))
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithoutBuiltins(), preset.WithDenied("wc"), preset.WithToolsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if p.Registry.Len() != 0 || len(p.Problems) != 1 || !strings.Contains(p.Problems[0].Error(), `binary "wc" is on the deny list (entry "wc")`) {
		t.Errorf("registry %d tools, problems:\n%s", p.Registry.Len(), problemLines(p.Problems))
	}
}

func TestToolsDirOptions(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	if _, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(missing, loader.WithoutCreate())); err == nil {
		t.Error("WithoutCreate: a missing tools directory was accepted")
	}
	if _, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(missing)); err != nil {
		t.Errorf("a missing tools directory was not created: %v", err)
	}
	p, err := preset.New(preset.WithWorkspace(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Watch(context.Background(), nil); err == nil {
		t.Error("Watch without a tools directory succeeded")
	}
	if p.DescriptorProblems() != nil {
		t.Error("DescriptorProblems without a tools directory")
	}
}

// TestWatchSwapsAtomically edits descriptors while readers look at the
// registry: every reader always sees the full set, and the edits arrive.
func TestWatchSwapsAtomically(t *testing.T) {
	dir := t.TempDir()
	const n = 20
	for i := range n {
		write(t, dir, fmt.Sprintf("t%02d.tool.json", i), desc(fmt.Sprintf("tool_%02d", i), "v0"))
	}
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithToolsDir(dir, loader.WithDebounce(5*time.Millisecond)))
	if err != nil {
		t.Fatal(err)
	}
	total := p.Registry.Len()
	if total != n+3 {
		t.Fatalf("registry has %d tools, want %d", total, n+3)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var changes atomic.Int32
	watchDone := make(chan error, 1)
	go func() { watchDone <- p.Watch(ctx, func() { changes.Add(1) }) }()

	var bad atomic.Int32
	var readers sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if got := len(p.Registry.Tools()); got != total {
					bad.Add(1)
				}
			}
		})
	}
	waitWatching(t, p)
	for round := 1; round <= 10; round++ {
		for i := range n {
			write(t, dir, fmt.Sprintf("t%02d.tool.json", i), desc(fmt.Sprintf("tool_%02d", i), fmt.Sprintf("v%d", round)))
		}
		time.Sleep(15 * time.Millisecond)
	}
	// A file may be caught half-written (its 613 reported, its last version
	// kept); its next event completes it. Wait for every edit to land.
	allAt := func(want string) bool {
		for i := range n {
			tl, ok := p.Registry.Get(fmt.Sprintf("tool_%02d", i))
			if !ok || tl.Description() != want {
				return false
			}
		}
		return len(p.DescriptorProblems()) == 0
	}
	for deadline := time.Now().Add(5 * time.Second); !allAt("v10"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("edits did not arrive; problems:\n%s", problemLines(p.DescriptorProblems()))
		}
	}
	close(stop)
	readers.Wait()
	if bad.Load() > 0 {
		t.Errorf("readers saw a partial registry %d times", bad.Load())
	}
	if changes.Load() == 0 {
		t.Error("onChange was never called")
	}

	// A broken file keeps its last good tool and reports its 613.
	write(t, dir, "t05.tool.json", `{"name": "tool_05", "description": "half`)
	// The write may be seen first as an empty file (its own 613); wait for
	// the complete, broken content to be the one reported.
	brokenAt := filepath.Join(dir, "t05.tool.json") + ":1:"
	for deadline := time.Now().Add(5 * time.Second); !strings.HasPrefix(problemLines(p.DescriptorProblems()), brokenAt); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the broken file was not reported; problems:\n%s", problemLines(p.DescriptorProblems()))
		}
	}
	if tl, ok := p.Registry.Get("tool_05"); !ok || tl.Description() != "v10" {
		t.Errorf("tool_05 after its file broke: %v", tl)
	}
	// A file dropped in later appears; one removed disappears.
	write(t, dir, "new.tool.json", desc("dropped_in", "new"))
	if err := os.Remove(filepath.Join(dir, "t00.tool.json")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, added := p.Registry.Get("dropped_in")
		_, kept := p.Registry.Get("tool_00")
		if added && !kept {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("added/removed files were not reflected")
		}
	}
	cancel()
	if err := <-watchDone; err != nil {
		t.Errorf("Watch returned %v", err)
	}
}

// waitWatching waits until a Watch of p is armed: a change made then is
// seen.
func waitWatching(t *testing.T, p *preset.Preset) {
	t.Helper()
	select {
	case <-p.Watching():
	case <-time.After(10 * time.Second):
		t.Fatal("Watch was not armed within 10 s")
	}
}
