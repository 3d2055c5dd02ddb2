//go:build linux

package kernel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
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

// TestGitLookSameEnvironment: the look at the configuration runs with the
// run's environment, and a look that fails makes git refuse to run. A
// repository's include.path = ~/x made the look (which had no HOME) fail
// with "could not expand include path" while the run (HOME is the private
// directory, where ~/x does not exist) read the configuration fine: none of
// the repository's named settings was forced off, and with --confine off
// git diff ran the repository's textconv script.
func TestGitLookSameEnvironment(t *testing.T) {
	for _, include := range []string{"~/nonexistent", "~/.config/x"} {
		r := newProgRepo(t)
		r.appendFile(t, ".gitattributes", "* diff=evil\n")
		r.appendFile(t, ".git/config", "[include]\n\tpath = "+include+"\n[diff \"evil\"]\n\ttextconv = "+r.cat+"\n")
		r.appendFile(t, "f.txt", "two\n")
		forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
			k := modeKernel(t, r.ws, mode)
			res, err := k.Run(context.Background(), []string{"git", "diff"})
			require.NoError(t, err)
			assert.False(t, r.ran(), "the repository's textconv ran: %s", res.Text())
		})
	}
}

// TestGitLookFailsClosed: a configuration the look cannot read makes git
// refuse to run, naming why, whatever the run would make of it.
func TestGitLookFailsClosed(t *testing.T) {
	r := newProgRepo(t)
	r.appendFile(t, ".git/config", "[bad\n")
	k := modeKernel(t, r.ws, sandbox.Off)
	res, err := k.Run(context.Background(), []string{"git", "log", "-1"})
	require.NoError(t, err)
	assert.NotEqual(t, 0, res.ExitCode, res.Output)
	env := k.ChildEnv([]string{filepath.Join("/usr/bin", "git"), "log"})
	assert.Contains(t, strings.Join(env, "\n"), "could not be checked: fatal: bad config line")
}

// TestGitLookBare: git --bare takes the working directory as the
// repository, so a workspace that holds a repository of its own at its top
// (HEAD, objects, refs and a config of the attacker's, besides .git) gives
// the run another configuration than .git's. The look did not pass --bare
// on and read .git/config: the top config's textconv was not forced off,
// and with --confine off git --bare log -p ran it.
func TestGitLookBare(t *testing.T) {
	r := newProgRepo(t)
	r.appendFile(t, "f.txt", "two\n")
	progGit(t, r.ws, "commit", "-q", "-am", "second")
	for _, name := range []string{"HEAD", "objects", "refs"} {
		out, err := exec.Command("cp", "-r", filepath.Join(r.ws, ".git", name), r.ws).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	require.NoError(t, os.Mkdir(filepath.Join(r.ws, "info"), 0o755))
	r.appendFile(t, "info/attributes", "* diff=evil\n")
	r.appendFile(t, "config", "[core]\n\trepositoryformatversion = 0\n\tbare = true\n[diff \"evil\"]\n\ttextconv = "+r.cat+"\n")
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, r.ws, mode)
		res, err := k.Run(context.Background(), []string{"git", "--bare", "log", "-p", "-1"})
		require.NoError(t, err)
		assert.False(t, r.ran(), "the top config's textconv ran: %s", res.Text())
	})
}
