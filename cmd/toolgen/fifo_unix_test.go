//go:build unix

package main

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// oNonblock opens a FIFO without waiting for its other end.
const oNonblock = syscall.O_NONBLOCK

// mkfifo makes a FIFO at path.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, syscall.Mkfifo(path, 0o644))
}
