package validate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestSpecRelativeBinary: a relative path names a file of the workspace
// (issue 11 §2); Spec refuses it in every form, and still reports the deny
// list beside it.
func TestSpecRelativeBinary(t *testing.T) {
	for _, bin := range []string{"./build.sh", "./sh", "bin/x", "bin/../x", "x/", "../../usr/bin/git",
		".//x", "a/b/c/d/e/f", "./x/../../../bin/ls", "tools/./run", "_/x", "x/."} {
		s := tool.Spec{Name: "t", Description: "d", Command: bin + " {p}",
			Args: []tool.Arg{{Name: "p", Type: tool.String, Description: "p", Required: true}}}
		_, err := Spec(&s)
		require.Error(t, err, bin)
		assert.Contains(t, err.Error(), `binary "`+bin+`" is a relative path`)
		assert.Equal(t, tool.CodeSpec, tool.CodeOf(err))
	}
	s := tool.Spec{Name: "t", Description: "d", Command: "../../bin/sh"}
	_, err := Spec(&s)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a relative path")
	assert.Contains(t, err.Error(), `is on the deny list (entry "sh")`)
	for _, ok := range []string{"git", "/usr/bin/git", "/opt/x/bin/tool", "c++filt"} {
		s := tool.Spec{Name: "t", Description: "d", Command: ok}
		_, err := Spec(&s)
		assert.NoError(t, err, ok)
	}
}

// binEnv is a workspace and a PATH directory outside it, for CheckBinary:
//
//	ws/evil                 an executable of the repository
//	ws/bin/tool             a PATH entry inside the workspace holds it
//	ws/sys -> /usr/bin      a symlink in the workspace to a system directory
//	pathdir/good            an executable outside (#!/usr/bin/true: judged by its interpreter)
//	pathdir/into_ws -> ws/evil
//	pathdir/via_ws  -> ws/sys/true (ends outside, but passes through the workspace)
//	pathdir/dirlink -> ws/bin (a directory symlink into the workspace)
//	pathdir/py      -> /usr/bin/python3 (when installed)
type binEnv struct{ ws, pathdir string }

func newBinEnv(t *testing.T) binEnv {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	e := binEnv{ws: filepath.Join(base, "ws"), pathdir: filepath.Join(base, "pathdir")}
	require.NoError(t, os.MkdirAll(filepath.Join(e.ws, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(e.pathdir, 0o755))
	for _, f := range []string{filepath.Join(e.ws, "evil"), filepath.Join(e.ws, "bin", "tool"), filepath.Join(e.pathdir, "good")} {
		require.NoError(t, os.WriteFile(f, []byte("#!/usr/bin/true\n"), 0o755))
	}
	for link, target := range map[string]string{
		filepath.Join(e.ws, "sys"):          "/usr/bin",
		filepath.Join(e.pathdir, "into_ws"): filepath.Join(e.ws, "evil"),
		filepath.Join(e.pathdir, "via_ws"):  filepath.Join(e.ws, "sys", "true"),
		filepath.Join(e.pathdir, "dirlink"): filepath.Join(e.ws, "bin"),
		filepath.Join(e.pathdir, "py"):      "/usr/bin/python3",
	} {
		require.NoError(t, os.Symlink(target, link))
	}
	return e
}

// lookPath searches dirs as the kernel's LookPath does its PATH.
func lookPathIn(dirs ...string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, d := range dirs {
			p := filepath.Join(d, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return p, nil
			}
		}
		return "", fs.ErrNotExist
	}
}

func TestCheckBinary(t *testing.T) {
	e := newBinEnv(t)
	look := lookPathIn(e.pathdir, "/usr/bin", "/bin")
	lookWS := lookPathIn(filepath.Join(e.ws, "bin"), "/usr/bin") // a PATH entry inside the workspace
	lookDirLink := lookPathIn(filepath.Join(e.pathdir, "dirlink"), "/usr/bin")
	_, pyErr := os.Stat("/usr/bin/python3")
	for _, tc := range []struct {
		bin  string
		look func(string) (string, error)
		want string // "" accepted
	}{
		{"good", look, ""},
		{"ls", look, ""},
		{"/usr/bin/ls", look, ""},
		{"not-installed", look, ""}, // fails with 127 when it runs
		{"into_ws", look, "resolves inside the workspace"},
		{"via_ws", look, "resolves inside the workspace"},
		{"tool", lookWS, "resolves inside the workspace"},
		{"tool", lookDirLink, "resolves inside the workspace"},
		{e.ws + "/evil", look, "resolves inside the workspace"},
		{e.ws + "/missing", look, "resolves inside the workspace"},
		{e.ws + "/sys/ls", look, "resolves inside the workspace"}, // ends outside, through the workspace
		{e.ws + "/../ws/evil", look, "resolves inside the workspace"},
		{e.pathdir + "/into_ws", look, "resolves inside the workspace"},
		{e.pathdir + "/dirlink/tool", look, "resolves inside the workspace"},
		{"./evil", look, "is a relative path"},
		{"bin/tool", look, "is a relative path"},
		{"py", look, "python"},
		{"/usr/bin/x86_64", look, `entry "x86_64"`},
		{"/usr/bin/pdb3", look, `entry "pdb`},
		{"/usr/bin/red", look, `entry "red"`},
	} {
		if tc.bin == "py" && pyErr != nil {
			continue
		}
		if _, err := os.Lstat(tc.bin); strings.HasPrefix(tc.bin, "/usr/") && err != nil {
			continue // not installed here
		}
		err := CheckBinary(tc.bin, e.ws, tc.look)
		if tc.want == "" {
			assert.NoError(t, err, tc.bin)
			continue
		}
		if assert.Error(t, err, tc.bin) {
			var te *tool.Error
			require.True(t, errors.As(err, &te), tc.bin)
			assert.Equal(t, tool.CodeSpec, te.Code, tc.bin)
			assert.Equal(t, "command", te.Field, tc.bin)
			assert.Contains(t, te.Msg, tc.want, tc.bin)
		}
	}
	// The workspace given through a symlink is the same workspace.
	link := filepath.Join(t.TempDir(), "wslink")
	require.NoError(t, os.Symlink(e.ws, link))
	assert.Error(t, CheckBinary("into_ws", link, look))
	assert.Error(t, CheckBinary(link+"/evil", e.ws, look))
	// The deny list of the options is used.
	err := CheckBinary("good", e.ws, look, WithDenyList(programs.DefaultDenyList().With("good")))
	assert.ErrorContains(t, err, `entry "good"`)
}

// TestCheckBinaryLoop: a symlink loop on the way to the binary is a 613,
// not a hang.
func TestCheckBinaryLoop(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Symlink(dir+"/b", dir+"/a"))
	require.NoError(t, os.Symlink(dir+"/a", dir+"/b"))
	err := CheckBinary(dir+"/a", t.TempDir(), lookPathIn())
	assert.ErrorContains(t, err, "too many levels of symlinks")
}
