package base_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// tickerSpec runs this test binary as helper-ticker (TestMain).
func tickerSpec(t *testing.T) tool.Spec {
	self, err := os.Executable()
	require.NoError(t, err)
	return tool.Spec{
		Name:        "ticker",
		Description: "print ticks",
		Command:     self + " helper-ticker {n}",
		Args:        []tool.Arg{{Name: "n", Type: tool.Integer, Description: "ticks", Required: true}},
		Timeout:     time.Minute,
		Stderr:      tool.StderrSeparate,
	}
}

// tickerKernel is a kernel on a fresh workspace with no memory cap: the
// ticker is this test binary, which under -race reserves more address
// space than the default cap.
func tickerKernel(t *testing.T) *kernel.Kernel {
	k, err := kernel.New(t.TempDir(), kernel.WithMemoryLimit(0))
	require.NoError(t, err)
	return k
}

// TestLongRunSpec: a Spec's timeout and stderr mode reach the kernel the
// tool runs on, and its progress reaches tool.WithProgress's function.
func TestLongRunSpec(t *testing.T) {
	k := tickerKernel(t)
	b, err := base.New(tickerSpec(t), k)
	require.NoError(t, err)
	assert.Equal(t, time.Minute, b.Kernel().Timeout())
	assert.Equal(t, time.Minute, b.Kernel().Limits().CPU, "the CPU limit follows the tool's timeout")
	assert.True(t, b.Kernel().SeparateStderr())
	assert.Equal(t, kernel.DefaultTimeout, k.Timeout(), "the kernel given to New is unchanged")

	var mu sync.Mutex
	var reports []tool.Progress
	returned := false
	late := 0
	ctx := tool.WithProgress(context.Background(), func(p tool.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if returned {
			late++
		}
		reports = append(reports, p)
	})
	res, err := b.Execute(ctx, json.RawMessage(`{"n": 12}`))
	mu.Lock()
	returned = true
	got := append([]tool.Progress(nil), reports...)
	mu.Unlock()
	require.NoError(t, err, res.Text())
	assert.True(t, strings.HasPrefix(res.Text(), "exit: 0\nstdout: tick 1\ntick 2\n"), res.Text())
	assert.Contains(t, res.Text(), "tick 12\nstderr: warn 1\n")
	assert.True(t, strings.HasSuffix(res.Stderr, "warn 12\n"), res.Stderr)
	require.GreaterOrEqual(t, len(got), 1, "a call of 2.2 s reports its progress at least once a second")
	for _, p := range got {
		assert.GreaterOrEqual(t, p.Elapsed, tool.ProgressInterval)
		assert.Contains(t, p.Tail, "tick ")
		assert.Positive(t, p.Lines)
	}
	time.Sleep(2 * tool.ProgressInterval)
	mu.Lock()
	assert.Zero(t, late, "reports after Execute returned")
	mu.Unlock()

	// Call reports too, and a Spec without the fields keeps the kernel's.
	plain := tickerSpec(t)
	plain.Name, plain.Timeout, plain.Stderr = "plain", 0, ""
	p, err := base.New(plain, k)
	require.NoError(t, err)
	assert.Equal(t, k.Timeout(), p.Kernel().Timeout())
	text, err := p.Call(context.Background(), json.RawMessage(`{"n": 2}`))
	require.NoError(t, err)
	assert.Equal(t, "exit: 0\noutput: tick 1\nwarn 1\ntick 2\nwarn 2\n", text)
}

// TestLongRunSpecRefused: a code-form Spec is held to the descriptor's
// bounds, as a 613 naming the field.
func TestLongRunSpecRefused(t *testing.T) {
	k := workspace(t, nil)
	for _, c := range []struct {
		change func(*tool.Spec)
		want   string
	}{
		{func(s *tool.Spec) { s.Timeout = -time.Second }, `timeout "-1s" is out of range`},
		{func(s *tool.Spec) { s.Timeout = tool.MaxTimeout + time.Nanosecond }, `timeout "24h0m0.000000001s" is out of range`},
		{func(s *tool.Spec) { s.Stderr = "both" }, `stderr "both" is not a mode`},
		{func(s *tool.Spec) { s.Stderr = "Separate" }, `stderr "Separate" is not a mode`},
	} {
		s := tickerSpec(t)
		c.change(&s)
		_, err := base.New(s, k)
		require.Error(t, err)
		assert.Equal(t, tool.CodeSpec, tool.CodeOf(err), err.Error())
		assert.Contains(t, err.Error(), c.want)
	}
	s := tickerSpec(t)
	s.Timeout, s.Stderr = tool.MaxTimeout, tool.StderrMerged
	b, err := base.New(s, k)
	require.NoError(t, err)
	assert.Equal(t, kernel.DefaultMaxTimeout, b.Kernel().Timeout(), "a day, capped at the kernel's maximum")
	assert.False(t, b.Kernel().SeparateStderr())
}
