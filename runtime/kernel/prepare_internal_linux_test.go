//go:build linux

package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestPreparedSpawner: the spare thread Prepare makes becomes the next new
// spawner's thread; its pids cgroup gets the process limit before the first
// child, holds exactly that thread, and caps the call's processes.
// (Sequential: no parallel test runs meanwhile to take the spare.)
func TestPreparedSpawner(t *testing.T) {
	guarantee.AsRoot(t, "an ordinary user's process cap is RLIMIT_NPROC, not a pids cgroup")
	if e := ProcessLimitEnforcement(); !strings.HasPrefix(e, "a pids cgroup") {
		guarantee.Missing(t, "%s", e)
	}
	Prepare(inProcess)
	spare.Lock()
	c := spare.c
	spare.Unlock()
	require.NotNil(t, c, "Prepare made no spare thread")
	st := <-c
	c <- st // put it back for the spawner to take
	require.NoError(t, st.err)
	require.NotNil(t, st.cg)
	max, err := os.ReadFile(filepath.Join(st.cg.dir, "pids.max"))
	require.NoError(t, err)
	assert.Equal(t, "max", strings.TrimSpace(string(max)), "a spare has no limit until a spawner takes it")

	// A workspace of its own: a policy no spawner has yet, so a new one.
	// Subshells only: the execute set allows bash to run nothing else.
	k := modeKernel(t, t.TempDir(), sandbox.BestEffort, WithProcessLimit(5), WithTimeout(20*time.Second), inProcess)
	res := mustRun(t, k, "bash", "-c", "for i in 1 2 3 4 5 6 7 8 9 10; do ( for ((j=0;j<300000;j++)); do :; done ) & done; wait")
	assert.Contains(t, res.Limit, "process limit 5 reached", res.Text())

	spare.Lock()
	assert.Nil(t, spare.c, "the spare was not taken")
	spare.Unlock()
	max, err = os.ReadFile(filepath.Join(st.cg.dir, "pids.max"))
	require.NoError(t, err)
	assert.Equal(t, "6", strings.TrimSpace(string(max)), "the limit plus the spawner thread")
	tasks, err := os.ReadFile(filepath.Join(st.cg.dir, "tasks"))
	require.NoError(t, err)
	assert.Len(t, strings.Fields(string(tasks)), 1, "only the spawner thread is left in its cgroup: %q", tasks)
	pool.Lock()
	defer pool.Unlock()
	found := false
	for _, s := range pool.m {
		found = found || s.cg == st.cg
	}
	assert.True(t, found, "no spawner has the spare's cgroup")
}

// TestPrepareUnused: Prepare makes no spare thread when no cgroup will be
// needed (WithProcessLimit(0)); and a spawner that needs none neither takes
// nor waits for a spare another Prepare made. A spare let go ends its
// thread and removes its cgroup.
func TestPrepareUnused(t *testing.T) {
	guarantee.AsRoot(t, "an ordinary user's process cap is RLIMIT_NPROC, not a pids cgroup")
	if e := ProcessLimitEnforcement(); !strings.HasPrefix(e, "a pids cgroup") {
		guarantee.Missing(t, "%s", e)
	}
	Prepare(WithProcessLimit(0), inProcess)
	spare.Lock()
	c := spare.c
	spare.Unlock()
	require.Nil(t, c, "Prepare made a spare thread though no cgroup is needed")

	Prepare(inProcess)
	k := modeKernel(t, t.TempDir(), sandbox.BestEffort, WithProcessLimit(0), inProcess)
	res := mustRun(t, k, "true")
	assert.Equal(t, 0, res.ExitCode, res.Text())
	st := takeSpare()
	require.NotNil(t, st, "a spawner without a process limit took the spare")
	require.NoError(t, st.err)
	close(st.work)
	assert.Eventually(t, func() bool {
		_, err := os.Stat(st.cg.dir)
		return os.IsNotExist(err)
	}, 5*time.Second, 20*time.Millisecond, "the unused spare's cgroup %s is still there", st.cg.dir)
}
