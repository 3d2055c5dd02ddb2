//go:build linux

package kernel

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nanogpt/toolgen/internal/guarantee"
)

// TestRunSignalExitCodes: a command killed by a signal exits 128+n. (Only
// SIGKILL and the kernel's own signals reach it: see
// TestLeaderIgnoresOwnSignals.)
func TestRunSignalExitCodes(t *testing.T) {
	k := newKernel(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL} {
		m := sleepMarker()
		go func() { _ = syscall.Kill(waitFor(t, m), sig) }()
		res := mustRun(t, k, "sleep", m)
		assert.Equal(t, 128+int(sig), res.ExitCode, sig.String())
	}
}

// TestLeaderIgnoresOwnSignals pins a documented consequence of the PID
// namespace: the command is pid 1 there, and pid 1 ignores every signal it
// has no handler for, except SIGKILL and SIGSTOP from outside and faults
// (SIGSEGV, ...): "kill $$" does nothing.
func TestLeaderIgnoresOwnSignals(t *testing.T) {
	k := newKernel(t)
	if st, _ := nsCurrent(); st == nsNone {
		guarantee.Missing(t, "no PID namespace here")
	}
	res := mustRun(t, k, "sh", "-c", "kill -TERM $$; echo survived")
	assert.Equal(t, 0, res.ExitCode)
	assert.Equal(t, "survived\n", res.Output)
}
