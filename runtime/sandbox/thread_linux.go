//go:build linux

package sandbox

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// GoThread runs f on a new goroutine locked for good to an OS thread that
// is not the process's main thread: the thread f confines (RestrictThread,
// NoExecWorkspace) runs nothing else and dies with f's goroutine. The main
// thread is avoided because the Go runtime never ends it: a goroutine that
// exits locked to it leaves it parked with what was done to it, and the
// main thread is the one /proc/self names, so its mount namespace is the
// one /proc/self/mountinfo shows the whole process.
func GoThread(f func()) { goThread(f, onMainThread) }

func onMainThread() bool { return unix.Gettid() == unix.Getpid() }

func goThread(f func(), onMain func() bool) {
	go func() {
		runtime.LockOSThread() // never unlocked where f runs
		if !onMain() {
			f()
			return
		}
		// Hold the main thread (a locked thread runs only its own
		// goroutine) until a retry, which therefore runs elsewhere, has
		// a thread of its own; then let the main thread go.
		locked := make(chan struct{})
		goThread(func() { close(locked); f() }, onMain)
		<-locked
		runtime.UnlockOSThread()
	}()
}
