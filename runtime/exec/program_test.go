package exec

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestGrantedFileJudged: defence 2 judges the file a granted name runs, not
// only its name: a hard link of a denied program, and a script whose #!
// line names a denied interpreter, are refused when granted (613) and, when
// the file is swapped in after the grant, on every call (614).
func TestGrantedFileJudged(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, bin, name string)
		want  string
	}{
		{"hard link of a denied program", func(t *testing.T, bin, name string) {
			require.NoError(t, os.Link(filepath.Join(bin, "secretsh"), filepath.Join(bin, name)))
		}, "same file as"},
		{"script run by a denied interpreter", func(t *testing.T, bin, name string) {
			writeFile(t, bin, name, "#!/usr/bin/python3\nimport os\n", 0o755)
		}, "python3"},
		{"script run through env", func(t *testing.T, bin, name string) {
			writeFile(t, bin, name, "#!/usr/bin/env perl\n", 0o755)
		}, "perl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newStubEnv(t)
			truth, err := os.ReadFile(trueProgram(t))
			require.NoError(t, err)
			writeFile(t, e.bin, "secretsh", string(truth), 0o755)
			deny := programs.DefaultDenyList().With("secretsh")

			tc.plant(t, e.bin, "lister")
			_, err = New(e.k, []string{"lister"}, WithDenyList(deny))
			var te *tool.Error
			require.True(t, errors.As(err, &te), "New granted %s: %v", tc.name, err)
			assert.Equal(t, tool.CodeSpec, te.Code)
			assert.Contains(t, te.Msg, tc.want)

			// Granted while harmless, swapped afterwards: the call is refused.
			require.NoError(t, os.Remove(filepath.Join(e.bin, "lister")))
			writeFile(t, e.bin, "lister", string(truth), 0o755)
			tl, err := New(e.k, []string{"lister"}, WithDenyList(deny))
			require.NoError(t, err)
			require.NoError(t, os.Remove(filepath.Join(e.bin, "lister")))
			tc.plant(t, e.bin, "lister")
			_, _, err = tl.Plan("lister a.txt")
			assert.Equal(t, DefenceDenyList, refusedBy(t, err))
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
