//go:build linux

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// fileIsTerminal reports whether f is open on a terminal.
func fileIsTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
