package preset_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/preset"
)

func TestLimitsReachTheKernel(t *testing.T) {
	p, err := preset.New(preset.WithWorkspace(t.TempDir()), preset.WithTimeout(7*time.Second))
	require.NoError(t, err)
	assert.Equal(t, kernel.Limits{Memory: kernel.DefaultMemoryLimit, CPU: 7 * time.Second, Processes: kernel.DefaultProcessLimit},
		p.Kernel.Limits(), "unset: the kernel's defaults")

	p, err = preset.New(preset.WithWorkspace(t.TempDir()),
		preset.WithMemoryLimit(512<<20), preset.WithCPULimit(3*time.Second), preset.WithProcessLimit(9))
	require.NoError(t, err)
	assert.Equal(t, kernel.Limits{Memory: 512 << 20, CPU: 3 * time.Second, Processes: 9}, p.Kernel.Limits())

	p, err = preset.New(preset.WithWorkspace(t.TempDir()), preset.WithMemoryLimit(0), preset.WithProcessLimit(0))
	require.NoError(t, err)
	assert.Zero(t, p.Kernel.Limits().Memory, "0: no cap")
	assert.Zero(t, p.Kernel.Limits().Processes)

	_, err = preset.New(preset.WithWorkspace(t.TempDir()), preset.WithMemoryLimit(1024))
	assert.ErrorContains(t, err, "at least 16 MiB")
	_, err = preset.New(preset.WithWorkspace(t.TempDir()), preset.WithProcessLimit(-1))
	assert.Error(t, err)
}
