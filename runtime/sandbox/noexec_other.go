//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
)

// NoExecWorkspace needs Linux mount namespaces; here it fails.
func NoExecWorkspace(dir string) error {
	return errors.New("sandbox: noexec workspace: Linux-only, this is " + runtime.GOOS)
}

// NoExecAvailable reports false: see NoExecWorkspace.
func NoExecAvailable(dir string) (bool, string) { return false, "mount namespaces are Linux-only" }

// NoExecMounts needs Linux mount namespaces; here it fails.
func NoExecMounts(dir string) error {
	return errors.New("sandbox: noexec workspace: mount namespaces are Linux-only")
}
