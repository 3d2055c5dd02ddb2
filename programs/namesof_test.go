package programs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNamesOf: a program is known by its own base name and, when that
// name is a link, by the base name it resolves to (through a chain, a
// relative target, a linked directory); a linked directory alone changes
// no name; a suffix after '.' is dropped.
func TestNamesOf(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	bin := filepath.Join(root, "bin")
	alt := filepath.Join(root, "alt")
	require.NoError(t, os.Mkdir(bin, 0o755))
	require.NoError(t, os.Mkdir(alt, 0o755))
	for _, f := range []string{"bin/vim.basic", "bin/python3.11", "alt/nvim", "bin/c.real"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, f), []byte("x"), 0o755))
	}
	links := [][2]string{
		{"bin/editor", "vim.basic"},
		{"bin/a", "b"}, {"bin/b", "c.real"},
		{"bin/vi", "../alt/nvim"},
		{"linked", "bin"},
		{"bin/gone", "nowhere"},
	}
	for _, l := range links {
		require.NoError(t, os.Symlink(l[1], filepath.Join(root, l[0])))
	}
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"bin/vim.basic", []string{"vim"}},
		{"bin/python3.11", []string{"python3"}},
		{"bin/editor", []string{"editor", "vim"}},
		{"bin/a", []string{"a", "c"}},
		{"bin/vi", []string{"vi", "nvim"}},
		{"linked/vim.basic", []string{"vim"}},
		{"linked/editor", []string{"editor", "vim"}},
		{"bin/gone", []string{"gone"}},
		{"bin/missing", []string{"missing"}},
	} {
		if got := NamesOf(filepath.Join(root, tc.path)); !slices.Equal(got, tc.want) {
			t.Errorf("NamesOf(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
