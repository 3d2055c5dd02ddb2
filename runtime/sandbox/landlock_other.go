//go:build !linux

package sandbox

import (
	"errors"
	"runtime"
)

// probe reports that there is no Landlock: it is Linux-only.
func probe() abiInfo {
	return abiInfo{reason: "Landlock is Linux-only, this is " + runtime.GOOS}
}

// RestrictThread cannot restrict anything here: Decide never asks it to
// (d.Apply is false without Landlock), and it says so if asked anyway.
func RestrictThread(p Policy, d Decision) error {
	if !d.Apply {
		return nil
	}
	return errors.New("sandbox: " + probeABI().reason)
}
