package exec

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestCallReportsProgress: an ExecTool call that runs longer than
// tool.ProgressInterval reports to tool.WithProgress's function, as every
// command tool's does.
func TestCallReportsProgress(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(filepath.Join(dir, "ticker"), os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	// No memory cap: the ticker is this test binary, which under -race
	// reserves more address space than the default cap.
	k, err := kernel.New(t.TempDir(), kernel.WithPath(dir+":"+kernel.DefaultPath), kernel.WithMemoryLimit(0))
	if err != nil {
		t.Fatal(err)
	}
	et, err := New(k, []string{"ticker"})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var reports []tool.Progress
	ctx := tool.WithProgress(context.Background(), func(p tool.Progress) {
		mu.Lock()
		reports = append(reports, p)
		mu.Unlock()
	})
	text, err := et.Call(ctx, json.RawMessage(`{"command": "ticker helper-ticker 8"}`))
	if err != nil || !strings.HasSuffix(text, "tick 8\n") {
		t.Fatalf("Call = %q, %v", text, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) == 0 || !strings.Contains(reports[0].Tail, "tick ") || reports[0].Elapsed < tool.ProgressInterval {
		t.Errorf("reports %+v: want one a second with the output so far", reports)
	}
}
