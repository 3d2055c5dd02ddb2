package exec

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestHoleResponseFiles: binutils read a word "@FILE" as more arguments,
// so "nm @opts.rsp" with the file holding --plugin ./evil.so loaded the
// library (the ExecTool refused --plugin written out, and ran this), and
// "objdump -s @out.rsp" dumped an object outside the workspace. Every word
// that starts with '@' is refused for them, in every confinement mode,
// under the versioned and multiarch names too; ./@x, a file's name, is not.
func TestHoleResponseFiles(t *testing.T) {
	h := newHoleEnv(t, "nm", "objdump")
	evilSharedObject(t, h.ws, h.marker)
	writeFile(t, h.ws, "opts.rsp", "--plugin ./evil.so\n", 0o644)
	require.Contains(t, h.direct("nm", "@opts.rsp", "opts.rsp"), "ARBITRARY-CODE", "nm @opts.rsp does not load the plugin even when run directly")
	require.True(t, h.ran())
	require.NoError(t, os.Remove(h.marker))

	cc, err := osexec.LookPath("cc")
	require.NoError(t, err)
	outside := t.TempDir()
	src := writeFile(t, outside, "s.c", `const char s[] = "S3CR3TS3CR3TS3CR3TS3CR3TS3CR3TS3CR3T";`+"\n", 0o644)
	obj := filepath.Join(outside, "s.o")
	out, err := osexec.Command(cc, "-c", "-o", obj, src).CombinedOutput()
	require.NoError(t, err, "%s", out)
	writeFile(t, h.ws, "out.rsp", obj+"\n", 0o644)
	require.Contains(t, h.direct("objdump", "-s", "@out.rsp"), "S3CR3T", "objdump -s @out.rsp does not dump the outside object even when run directly")

	for _, mode := range []sandbox.Mode{sandbox.Off, sandbox.BestEffort, sandbox.Strict} {
		k, err := kernel.New(h.ws, kernel.WithConfinement(mode))
		require.NoError(t, err)
		grant := []string{"nm", "objdump"}
		for _, b := range []string{"x86_64-linux-gnu-nm", "llvm-nm-14", "llvm-objdump-14"} {
			if _, err := osexec.LookPath(b); err == nil {
				grant = append(grant, b)
			}
		}
		tl, err := New(k, grant)
		require.NoError(t, err)
		for _, c := range []string{"nm @opts.rsp", "nm -C opts.rsp @opts.rsp", "nm -- @opts.rsp", "objdump -s @out.rsp", "objdump -s -- @out.rsp"} {
			refused614(t, tl, c, DefenceFlags)
		}
		for _, b := range grant[2:] {
			refused614(t, tl, b+" @opts.rsp", DefenceFlags)
		}
		text, err := call(t, tl, "nm ./@opts.rsp")
		require.NoError(t, err)
		assert.NotContains(t, text, "ARBITRARY-CODE", "%v", mode)
	}
	assert.False(t, h.ran(), "the plugin was loaded")
}
