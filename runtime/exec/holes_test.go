package exec

import (
	"context"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// The holes of issue 11 §6 that only the kernel's confinement caught, tried
// for real with confinement off: each attack is first shown to work when
// the binary is run directly, then ExecTool must refuse it (614) with
// nothing having happened.

// holeEnv is a git workspace with the attacker's program evil, which
// records that it ran in marker (outside the workspace).
type holeEnv struct {
	ws, marker, evil string
	tl               *Tool
}

func newHoleEnv(t *testing.T, allow ...string) *holeEnv {
	t.Helper()
	for _, b := range allow {
		if _, err := osexec.LookPath(b); err != nil {
			t.Skip(b + " not installed")
		}
	}
	h := &holeEnv{ws: gitWorkspace(t), marker: filepath.Join(t.TempDir(), "ran")}
	h.evil = writeFile(t, h.ws, "evil", "#!/bin/sh\necho \"$0 $*\" >> "+h.marker+"\nexit 0\n", 0o755)
	// Confinement off: these holes escaped with it off, and the flag table
	// must close them on its own (the kernel's Landlock would also stop the
	// writes, and "git log --output=log.txt" below could not write at all).
	k, err := kernel.New(h.ws, kernel.WithConfinement(sandbox.Off))
	require.NoError(t, err)
	h.tl, err = New(k, allow)
	require.NoError(t, err)
	return h
}

func (h *holeEnv) ran() bool { _, err := os.Stat(h.marker); return err == nil }

// direct runs argv without ExecTool, with HOME the workspace. A program
// that runs evil may find it "busy" (ETXTBSY) for a moment after it was
// written, while a process forked elsewhere in the test binary still holds
// the written file open until its exec; direct tries again then.
func (h *holeEnv) direct(argv ...string) string {
	var out []byte
	for range 20 {
		cmd := osexec.Command(argv[0], argv[1:]...)
		cmd.Dir = h.ws
		cmd.Env = []string{"PATH=" + "/usr/local/bin:/usr/bin:/bin", "HOME=" + h.ws, "GIT_CONFIG_NOSYSTEM=1"}
		out, _ = cmd.CombinedOutput()
		if !strings.Contains(string(out), "Text file busy") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return string(out)
}

func refused614(t *testing.T, tl *Tool, command string, by Defence) {
	t.Helper()
	text, err := call(t, tl, command)
	require.Error(t, err, "%q ran: %s", command, text)
	assert.Equal(t, tool.CodeValue, tool.CodeOf(err), "%q: %v", command, err)
	assert.Equal(t, by, refusedBy(t, err), "%q: %v", command, err)
	assert.Empty(t, text)
}

func TestHoleGitOutputIntoGitDir(t *testing.T) {
	h := newHoleEnv(t, "git")
	before, err := os.ReadFile(filepath.Join(h.ws, ".git", "config"))
	require.NoError(t, err)
	for _, c := range []string{
		"git log --output=.git/config",
		"git log --format=%s --out .git/config",
		"git format-patch -o .git/hooks HEAD~1",
		"git archive -o .git/config HEAD",
		"git bundle create .git/config HEAD",
		"git bundle create b.bundle HEAD",
		"git checkout-index -a --prefix=.git/",
	} {
		refused614(t, h.tl, c, DefenceFlags)
	}
	after, err := os.ReadFile(filepath.Join(h.ws, ".git", "config"))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), ".git/config changed")
	hooks, _ := os.ReadDir(filepath.Join(h.ws, ".git", "hooks"))
	for _, e := range hooks {
		assert.True(t, strings.HasSuffix(e.Name(), ".sample"), "a hook was written: %s", e.Name())
	}
	text, err := call(t, h.tl, "git status --short")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text, "exit: 0"), text)
	// Writing inside the workspace, outside .git, is still git's business.
	text, err = call(t, h.tl, "git log --output=log.txt -1")
	require.NoError(t, err, text)
	assert.FileExists(t, filepath.Join(h.ws, "log.txt"))
}

func TestHoleCurlConfAbbreviation(t *testing.T) {
	h := newHoleEnv(t, "curl")
	written := filepath.Join(h.ws, "written")
	writeFile(t, h.ws, "cfg", "output = \""+written+"\"\n", 0o644)
	h.direct("curl", "-s", "--conf", "cfg", "file:///dev/null")
	require.FileExists(t, written, "curl does not read --conf even when run directly")
	require.NoError(t, os.Remove(written))
	for _, c := range []string{"curl -s --conf cfg file:///dev/null", "curl -s --con=cfg file:///dev/null",
		"curl -s --config cfg file:///dev/null", "curl -sK cfg file:///dev/null"} {
		refused614(t, h.tl, c, DefenceFlags)
	}
	assert.NoFileExists(t, written)
}

func TestHoleZipUnzipCommand(t *testing.T) {
	h := newHoleEnv(t, "zip")
	out := h.direct("zip", "-q", "-T", "--unz="+h.evil, "d1.zip", "a.txt")
	require.True(t, h.ran(), "zip --unz does not run the program even when run directly: %s", out)
	require.NoError(t, os.Remove(h.marker))
	for _, c := range []string{"zip -q -T --unz=./evil d2.zip a.txt", "zip -q -T --unzip-command ./evil d2.zip a.txt",
		"zip -q -TT./evil d2.zip a.txt", "zip -q -T -TT ./evil d2.zip a.txt"} {
		refused614(t, h.tl, c, DefenceFlags)
	}
	assert.False(t, h.ran())
}

func TestHoleDateAttachedPath(t *testing.T) {
	h := newHoleEnv(t, "date")
	outside := writeFile(t, t.TempDir(), "secret", "s3cr3t-line\n", 0o600)
	require.Contains(t, h.direct("date", "-uf"+outside), "s3cr3t-line", "date -f does not show the file even when run directly")
	require.NoError(t, os.Symlink(filepath.Dir(outside), filepath.Join(h.ws, "link")))
	for _, c := range []string{"date -uf" + outside, "date -uflink/secret", "date -uf../secret", "date -Ruf" + outside} {
		refused614(t, h.tl, c, DefenceWorkspace)
	}
	text, err := call(t, h.tl, "date -u")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text, "exit: 0"), text)
}

// TestHoleGitAliasNotBuiltin: a repository's alias.refs runs a program on
// a git where refs is no built-in (2.39); ExecTool asks the git it runs for
// its built-ins and refuses the rest. Where refs is a built-in, the
// built-in runs and the alias never does.
func TestHoleGitAliasNotBuiltin(t *testing.T) {
	h := newHoleEnv(t, "git")
	f, err := os.OpenFile(filepath.Join(h.ws, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("[alias]\n\trefs = !" + h.evil + "\n\tst = !" + h.evil + "\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	git, err := h.tl.Kernel().LookPath("git")
	require.NoError(t, err)
	builtins, err := gitBuiltins(git)
	require.NoError(t, err)
	isBuiltin := false
	for _, b := range builtins {
		isBuiltin = isBuiltin || b == "refs"
	}
	if !isBuiltin {
		h.direct("git", "refs")
		require.True(t, h.ran(), "alias.refs does not run even when git runs directly")
		require.NoError(t, os.Remove(h.marker))
		refused614(t, h.tl, "git refs", DefenceFlags)
	} else {
		_, _ = call(t, h.tl, "git refs")
	}
	refused614(t, h.tl, "git st", DefenceFlags)
	assert.False(t, h.ran(), "the alias ran")
}

// TestHoleRepeatedCommandKey: the last "command" no longer wins; the call
// is a 614 and runs nothing.
func TestHoleRepeatedCommandKey(t *testing.T) {
	h := newHoleEnv(t, "ls", "touch")
	_, err := h.tl.Call(context.Background(), json.RawMessage(`{"command":"ls","command":"touch pwned"}`))
	require.Error(t, err)
	assert.Equal(t, tool.CodeValue, tool.CodeOf(err))
	assert.Contains(t, err.Error(), "given twice")
	assert.NoFileExists(t, filepath.Join(h.ws, "pwned"))
}

// TestHoleRepositoryConfigThroughExecTool: ExecTool runs git on the same
// kernel as every form, so a repository's .git/config cannot make an
// allowed command run its program (issue 11 §1: core.fsmonitor for git
// status, log.showSignature with gpg.program, a promisor remote's
// uploadpack through a missing mailmap.blob).
func TestHoleRepositoryConfigThroughExecTool(t *testing.T) {
	h := newHoleEnv(t, "git")
	f, err := os.OpenFile(filepath.Join(h.ws, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("[core]\n\tfsmonitor = " + h.evil + "\n[log]\n\tshowSignature = true\n[gpg]\n\tprogram = " + h.evil +
		"\n[remote \"origin\"]\n\turl = " + h.ws + "\n\tpromisor = true\n\tuploadpack = " + h.evil +
		"\n[mailmap]\n\tblob = 0123456789abcdef0123456789abcdef01234567\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	h.direct("git", "status")
	h.direct("git", "log", "--oneline", "-n", "3")
	require.True(t, h.ran(), "the configuration runs nothing even when git runs directly")
	require.NoError(t, os.Remove(h.marker))
	for _, c := range []string{"git status", "git log --oneline -n 3", "git show --stat HEAD"} {
		text, err := call(t, h.tl, c)
		require.NoError(t, err, c)
		assert.True(t, strings.HasPrefix(text, "exit: 0"), "%s: %s", c, text)
	}
	assert.False(t, h.ran(), "the repository's program ran through ExecTool")
}
