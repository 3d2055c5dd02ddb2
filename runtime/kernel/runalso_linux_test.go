//go:build linux

package kernel

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestRunAlso: confined, a command may execute the programs RunAlso names
// besides its own, and nothing else (find -exec of another program is
// "Permission denied", unconfined it runs); a script named there is refused
// like argv[0]; a name not found is left out.
func TestRunAlso(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "f.txt", "hello\n", 0o644)
	script := writeFile(t, t.TempDir(), "s.sh", "#!/bin/sh\necho hi\n", 0o755)
	forModes(t, allModes, func(t *testing.T, mode sandbox.Mode) {
		k := modeKernel(t, ws, mode)
		run := func(also []string, argv ...string) Result {
			res, err := k.RunAlso(context.Background(), argv, also)
			require.NoError(t, err, res.Text())
			return res
		}
		res := run([]string{"grep"}, "find", ".", "-name", "*.txt", "-exec", "grep", "-l", "hello", "{}", "+")
		assert.Equal(t, "./f.txt\n", res.Output, res.Text())
		res = run([]string{"grep", "no-such-program-here"}, "find", ".", "-name", "*.txt", "-exec", "cat", "{}", "+")
		res2 := mustRun(t, k, "find", ".", "-name", "*.txt", "-exec", "grep", "-l", "hello", "{}", "+")
		if mode == sandbox.Off {
			assert.Equal(t, "hello\n", res.Output, "unconfined, find runs any program")
			assert.Equal(t, "./f.txt\n", res2.Output)
			return
		}
		assert.Contains(t, res.Output, "Permission denied", "cat was not named: %s", res.Text())
		assert.NotContains(t, res.Output, "hello")
		assert.Contains(t, res2.Output, "Permission denied", "Run names no program: %s", res2.Text())
		r, err := k.RunAlso(context.Background(), []string{"find", ".", "-exec", script, "{}", "+"}, []string{script})
		require.Error(t, err)
		assert.Equal(t, 126, r.ExitCode)
		assert.True(t, strings.Contains(err.Error(), "is a script"), "%v", err)
		assert.Contains(t, strings.Join(k.ExecSet("/usr/bin/find", "/usr/bin/grep"), " "), "/usr/bin/grep")
	})
}
