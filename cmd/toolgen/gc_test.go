package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestServeGCPercent: serve collects at GOGC=50 unless the user chose a
// target with GOGC, which then stays as the runtime read it.
func TestServeGCPercent(t *testing.T) {
	restore := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(restore) })

	t.Setenv("GOGC", "")
	serveGCPercent()
	assert.Equal(t, 50, debug.SetGCPercent(100), "without GOGC")

	t.Setenv("GOGC", "300")
	serveGCPercent()
	assert.Equal(t, 100, debug.SetGCPercent(100), "GOGC set: the target is left alone")
}
