//go:build !unix

package main

import "testing"

// oNonblock is 0 where there are no FIFOs.
const oNonblock = 0

// mkfifo skips the test: there are no FIFOs to plant here.
func mkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skip("no FIFOs on this system")
}
