package kernel

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestGitLookManyNames: a repository whose configuration names a great
// many settings the look forces off (here 30,000 aliases, 400 KB of
// .git/config) must neither hang the call nor make its environment
// unbounded. Merging 60,000 forced entries one by one into the child's
// environment was quadratic: the call never reached its timeout (which
// counts only once the child runs) and kept a core busy for hours, in
// every mode, for every git command, git --version included. The look now
// fails closed past a bound: git refuses to run, naming the reason.
func TestGitLookManyNames(t *testing.T) {
	ws := gitRepo(t)
	var b strings.Builder
	b.WriteString("[alias]\n")
	for i := range 30000 {
		fmt.Fprintf(&b, "\ta%05d = log\n", i)
	}
	f, err := os.OpenFile(filepath.Join(ws, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(b.String())
	require.NoError(t, err)
	require.NoError(t, f.Close())

	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, ws, mode)
		type ran struct {
			res Result
			err error
		}
		done := make(chan ran, 1)
		go func() {
			res, err := k.Run(context.Background(), []string{"git", "log", "--oneline"})
			done <- ran{res, err}
		}()
		select {
		case r := <-done:
			require.NoError(t, r.err)
			assert.NotEqual(t, 0, r.res.ExitCode, r.res.Output)
			assert.Contains(t, r.res.Output, "settings that run programs")
			assert.NotContains(t, r.res.Output, "first", "git ran without the forced settings")
		case <-time.After(60 * time.Second):
			t.Fatal("the call did not return within a minute (its own timeout is 30s)")
		}
	})
}

// TestMergeEnv: mergeEnv is setEnv applied entry by entry.
func TestMergeEnv(t *testing.T) {
	base := []string{"PATH=/bin", "HOME=/h", "A=1"}
	extra := []string{"A=2", "B=1", "HOME=/x", "B=2", "C=", "A=3"}
	want := append([]string(nil), base...)
	for _, kv := range extra {
		want = setEnv(want, kv)
	}
	assert.Equal(t, want, mergeEnv(append([]string(nil), base...), extra))
	assert.Equal(t, []string{"PATH=/bin", "HOME=/x", "A=3", "B=2", "C="}, want)
}
