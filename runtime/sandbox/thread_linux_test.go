//go:build linux

package sandbox

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/unix"
)

// TestGoThreadLeavesTheMainThread: when the new goroutine finds itself on
// the main thread, f runs on another thread, locked, and the first one is
// let go.
func TestGoThreadLeavesTheMainThread(t *testing.T) {
	var first atomic.Int64
	calls := 0
	// Pretend the first thread met is the main thread.
	onMain := func() bool {
		calls++
		if calls == 1 {
			first.Store(int64(unix.Gettid()))
			return true
		}
		return false
	}
	ran := make(chan int)
	goThread(func() { ran <- unix.Gettid() }, onMain)
	tid := <-ran
	assert.NotEqual(t, first.Load(), int64(tid), "f ran on the thread taken for the main thread")
	assert.Equal(t, 2, calls)
}

// TestGoThreadNotMain: GoThread's goroutine never runs f on the main thread.
func TestGoThreadNotMain(t *testing.T) {
	for range 50 {
		ran := make(chan int)
		GoThread(func() { ran <- unix.Gettid() })
		assert.NotEqual(t, unix.Getpid(), <-ran)
	}
}
