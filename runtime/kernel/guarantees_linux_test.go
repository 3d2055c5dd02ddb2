//go:build linux

package kernel

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestMissingGuaranteeNeverSilent: a call that cannot get a guarantee is
// never run as if it had it. Without the call namespaces (forced here, as
// a container that refuses them would), strict refuses the call with exit
// 126 naming what is missing, best-effort and off run it with a one-line
// warning saying so, and Guarantees (what explain prints) lists it.
func TestMissingGuaranteeNeverSilent(t *testing.T) {
	none := nsNone
	nsForce.Store(&none)
	defer nsForce.Store(nil)
	echo := "/bin/echo"
	for _, mode := range allModes {
		t.Run(mode.String(), func(t *testing.T) {
			k := modeKernel(t, t.TempDir(), mode)
			g := k.Guarantees(echo)
			require.NotEmpty(t, g.Missing)
			assert.Contains(t, g.Missing[0], "a PID namespace")
			assert.Contains(t, g.Descendants, "process group only")
			res, err := k.Run(context.Background(), []string{echo, "ran"})
			if mode == sandbox.Strict {
				require.ErrorIs(t, err, ErrNotExecutable)
				assert.Equal(t, 126, res.ExitCode)
				assert.Contains(t, res.Output, "strict: not running without a PID namespace")
				assert.NotContains(t, res.Output, "ran\n")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "ran\n", res.Output)
			assert.Contains(t, res.Notice, "warning: the call ran without a PID namespace")
			assert.Contains(t, res.Text(), "warning: the call ran without a PID namespace")
		})
	}
}

// TestHolderLostNeverSilent: a guarantee that held for one call and not for
// the next is reported for the next. Not root, the noexec workspace rests
// on a holder process; once it is gone (killed here), the next confined
// call is refused under strict and warned about under best-effort, and
// Guarantees says so, instead of running with an executable workspace.
func TestHolderLostNeverSilent(t *testing.T) {
	guarantee.AsUser(t, "root keeps the noexec namespace on the spawner's thread: there is no holder")
	for _, mode := range []sandbox.Mode{sandbox.Strict, sandbox.BestEffort} {
		t.Run(mode.String(), func(t *testing.T) {
			ws := t.TempDir()
			requireNoExec(t, ws)
			k := modeKernel(t, ws, mode, inProcess)
			echo, err := k.resolve("echo")
			require.NoError(t, err)
			first := mustRun(t, k, echo, "first")
			require.Equal(t, "first\n", first.Output, first.Text())
			require.Empty(t, first.Notice)

			s, _, err := acquire(k.Policy(echo), k.Policy(echo).Protection(), sandbox.Decide(k.Policy(echo), mode), mode, k.limits.Processes)
			require.NoError(t, err)
			release(s)
			require.NotNil(t, s.holder)
			require.NoError(t, s.holder.proc.Kill())
			for deadline := time.Now().Add(5 * time.Second); !s.holder.exited.Load(); time.Sleep(5 * time.Millisecond) {
				require.True(t, time.Now().Before(deadline), "the holder did not exit")
			}

			g := k.Guarantees(echo)
			require.NotEmpty(t, g.Missing)
			assert.Contains(t, g.WorkspaceCode, "can still be loaded")
			res, err := k.Run(context.Background(), []string{echo, "second"})
			if mode == sandbox.Strict {
				require.ErrorIs(t, err, ErrNotExecutable)
				assert.Contains(t, res.Output, "strict: not running without the noexec workspace")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "second\n", res.Output)
			assert.Contains(t, res.Notice, "warning: the call ran without the noexec workspace")
		})
	}
}

// TestPrepareWorkspace: a holder started ahead of need is the one the
// first confined call in that workspace uses, and the call gets the noexec
// workspace from it.
func TestPrepareWorkspace(t *testing.T) {
	guarantee.AsUser(t, "root needs no holder")
	k := modeKernel(t, t.TempDir(), sandbox.Strict, inProcess)
	prepareWorkspaceLocal(k.Workspace())
	preparedHolders.Lock()
	_, waiting := preparedHolders.m[k.Workspace()]
	preparedHolders.Unlock()
	require.True(t, waiting, "PrepareWorkspace started nothing for %s", k.Workspace())
	res := mustRun(t, k, "echo", "ran")
	require.Equal(t, "ran\n", res.Output, res.Text())
	preparedHolders.Lock()
	_, waiting = preparedHolders.m[k.Workspace()]
	preparedHolders.Unlock()
	assert.False(t, waiting, "the call did not take the prepared holder")
	echo, err := k.resolve("echo")
	require.NoError(t, err)
	assert.Contains(t, k.Guarantees(echo).WorkspaceCode, "mounted noexec")
}
