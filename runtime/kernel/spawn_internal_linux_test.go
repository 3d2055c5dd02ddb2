//go:build linux

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

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestRetireIdle: past maxIdleSpawners, the least recently used spawners
// with no live child are retired (their request channel closed, so their
// thread exits); one with a live child never is, nor the one just made.
func TestRetireIdle(t *testing.T) {
	pool.Lock()
	saved := pool.m
	pool.m = map[string]*spawner{}
	defer func() { pool.m = saved; pool.Unlock() }()
	now := time.Now()
	busy := map[string]bool{}
	for i := range maxIdleSpawners + 10 {
		key := fmt.Sprint("k", i)
		s := &spawner{reqs: make(chan *startReq), last: now.Add(time.Duration(i) * time.Second)}
		if i%3 == 0 { // a live child: never retired
			s.live = 1
			busy[key] = true
		}
		pool.m[key] = s
	}
	keep := pool.m["k0"]
	keep.live = 0
	delete(busy, "k0")
	retireIdle(keep)
	assert.Len(t, pool.m, maxIdleSpawners)
	assert.Same(t, keep, pool.m["k0"], "the spawner just made was retired")
	for key := range busy {
		assert.Contains(t, pool.m, key, "a spawner with a live child was retired")
	}
	// The oldest idle ones went first.
	for i := 1; i < 20; i++ {
		if key := fmt.Sprint("k", i); !busy[key] && i < 15 {
			assert.NotContains(t, pool.m, key)
		}
	}
}

// TestSpawnersAreReused: calls under one policy share one spawner; another
// program or another access gets another.
func TestSpawnersAreReused(t *testing.T) {
	if _, ok := sandbox.Available(); !ok {
		guarantee.Missing(t, "without Landlock every policy shares the unrestricted spawner")
	}
	k := newKernel(t, WithConfinement(sandbox.BestEffort), inProcess)
	mine := func() map[*spawner]bool { // the spawners of k's workspace
		pool.Lock()
		defer pool.Unlock()
		out := map[*spawner]bool{}
		for key, s := range pool.m {
			if strings.HasPrefix(key, k.Workspace()+"\x00") {
				out[s] = true
			}
		}
		return out
	}
	for range 6 {
		mustRun(t, k, "true")
	}
	assert.Len(t, mine(), 1, "the same policy made several spawners")
	mustRun(t, k.WithAccess(Access{Write: true}), "true")
	mustRun(t, k, "false")
	assert.Len(t, mine(), 3, "another access or program shares a spawner")
}

// FuzzReadInterp: whatever a program file holds (the workspace's files are
// hostile), reading its interpreter neither panics nor invents one.
func FuzzReadInterp(f *testing.F) {
	for _, seed := range []string{"#!/bin/sh\necho\n", "#!", "#!   \n", "#!/usr/bin/env python3 -u", "\x7fELF", "\x7fELF\x02\x01\x01", "plain text", ""} {
		f.Add([]byte(seed))
	}
	if b, err := os.ReadFile("/bin/true"); err == nil {
		f.Add(b[:min(len(b), 4096)])
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "prog")
		require.NoError(t, os.WriteFile(p, data, 0o644))
		fh, err := os.Open(p)
		require.NoError(t, err)
		defer fh.Close()
		in := readInterp(fh)
		isScript := len(data) >= 2 && data[0] == '#' && data[1] == '!'
		assert.Equal(t, isScript, in.script != "", "script %q from %q", in.script, data)
		if in.elf != "" {
			assert.True(t, strings.HasPrefix(string(data), "\x7fELF"), "an ELF interpreter from a non-ELF file")
		}
	})
}

// TestSpawnerRestrictionStaysOnItsThread: after confined calls, the host
// process still reads what the commands may not.
func TestSpawnerRestrictionStaysOnItsThread(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	require.NoError(t, os.WriteFile(secret, []byte("s"), 0o644))
	k := newKernel(t, WithConfinement(sandbox.BestEffort))
	for range 20 {
		res, err := k.Run(context.Background(), []string{"cat", secret})
		require.NoError(t, err)
		if _, ok := sandbox.Available(); ok {
			assert.NotEqual(t, 0, res.ExitCode)
		}
		b, err := os.ReadFile(secret)
		require.NoError(t, err, "the host lost access")
		assert.Equal(t, "s", string(b))
	}
}

// TestLimitsApplied: the caps are in force in the child, with the
// post-exec stop (from the first instruction) and without it (where
// tracing is refused: just after the start).
func TestLimitsApplied(t *testing.T) {
	defer noPtrace.Store(false)
	k := newKernel(t, WithMemoryLimit(512<<20), WithCPULimit(7*time.Second))
	for _, stop := range []bool{true, false} {
		noPtrace.Store(!stop)
		script := "ulimit -v; ulimit -t"
		if !stop {
			script = "sleep 0.1; " + script // the caps arrive just after the start
		}
		res := mustRun(t, k, "sh", "-c", script)
		assert.Equal(t, "524288\n7\n", res.Output, "stop %v: %s", stop, res.Text())
	}
}
