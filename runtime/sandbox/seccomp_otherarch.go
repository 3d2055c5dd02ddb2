//go:build !linux || (!amd64 && !arm64)

package sandbox

import "runtime"

// restrictSyscalls installs nothing: no filter is built for this system
// or architecture, and SeccompFilter says so.
func restrictSyscalls(spawnFlags uint32) error { return nil }

// SeccompFilter reports that confined commands get no seccomp filter on
// this system or architecture.
func SeccompFilter() (string, bool) {
	return "none: no filter is built for " + runtime.GOOS + "/" + runtime.GOARCH, false
}
