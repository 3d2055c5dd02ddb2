//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
)

// ProtectMounts needs Linux mount namespaces; here it fails.
func ProtectMounts(pr Protection) error {
	return errors.New("sandbox: protected paths: mount namespaces are Linux-only, this is " + runtime.GOOS)
}

// ProtectWorkspace needs Linux mount namespaces; here it fails.
func ProtectWorkspace(pr Protection) error { return ProtectMounts(pr) }
