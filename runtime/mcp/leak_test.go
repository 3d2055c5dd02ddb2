package mcp

import (
	"context"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/internal/guarantee"
)

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		guarantee.Missing(t, "no /proc/self/fd: %v", err)
	}
	return len(ents)
}

// Test1000ConcurrentCallsLeaveNothingBehind runs 1,000 calls of a real
// command at once through one session, then closes it and checks that
// goroutines, file descriptors and child processes are back to where they
// were.
func Test1000ConcurrentCallsLeaveNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 1,000 processes")
	}
	k := newKernel(t)
	reg := registry(t, commandTool(t, k, "echo_word", "echo {word}", "word"))
	srv := newServer(t, reg)

	session := func(n int) (ok int64) {
		st, ct := sdk.NewInMemoryTransports()
		ss, err := srv.Connect(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var good atomic.Int64
		for range n {
			wg.Go(func() {
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "echo_word",
					Arguments: map[string]any{"word": "hi"}})
				if err == nil && !res.IsError && res.Content[0].(*sdk.TextContent).Text == "exit: 0\noutput: hi\n" {
					good.Add(1)
				} else if err != nil {
					t.Errorf("call: %v", err)
				} else {
					t.Errorf("call: %+v", res.Content[0])
				}
			})
		}
		wg.Wait()
		cs.Close()
		ss.Wait()
		return good.Load()
	}

	session(3) // warm up: lazily started runtime and SDK goroutines
	runtime.GC()
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)

	start := time.Now()
	if ok := session(1000); ok != 1000 {
		t.Fatalf("%d of 1000 calls succeeded", ok)
	}
	t.Logf("1000 concurrent calls in %v", time.Since(start))

	assertNoLeaks(t, goroutines, fds)
}

// assertNoLeaks checks that the goroutines and open fds are back to their
// baselines within 10 s, and that no child process is left.
func assertNoLeaks(t *testing.T, goroutines, fds int) {
	t.Helper()
	if !eventually(10*time.Second, func() bool { return runtime.NumGoroutine() <= goroutines }) {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d, baseline %d\n%s", runtime.NumGoroutine(), goroutines, buf[:runtime.Stack(buf, true)])
	}
	if !eventually(10*time.Second, func() bool { return openFDs(t) <= fds }) {
		t.Errorf("open fds: %d, baseline %d", openFDs(t), fds)
	}
	if kids := children(); len(kids) > 0 {
		t.Errorf("child processes left (zombie when state is Z): %+v", kids)
	}
}
