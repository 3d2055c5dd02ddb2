//go:build !linux

package sandbox

import "runtime"

// GoThread runs f on a new goroutine locked for good to an OS thread of its
// own (see the Linux version; nothing is confined here).
func GoThread(f func()) {
	go func() {
		runtime.LockOSThread()
		f()
	}()
}
