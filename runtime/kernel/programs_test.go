//go:build unix

package kernel

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// A hostile repository: its .git/config (or a tracked .gitconfig read as
// the global configuration while HOME is the workspace) names a program of
// the repository's own, evil, which records that it ran. Every attack first
// runs without the kernel (a plain exec with HOME=workspace, as git would be
// run without programEnv) to show that it works, then through Kernel.Run
// with confinement off, where it must not.

// progRepo is a workspace holding a git repository with one commit and the
// attacker's programs.
type progRepo struct {
	ws     string // the workspace
	marker string // written by evil and evilcat when they run; outside ws
	evil   string // records, exits 1
	cat    string // records, then prints its file argument or stdin
}

func progGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + DefaultPath, "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

func newProgRepo(t testing.TB) *progRepo {
	t.Helper()
	guarantee.Program(t, "git")
	r := &progRepo{ws: t.TempDir(), marker: filepath.Join(t.TempDir(), "ran")}
	progGit(t, r.ws, "init", "-q", "-b", "main")
	progGit(t, r.ws, "config", "user.name", "a")
	progGit(t, r.ws, "config", "user.email", "a@example.com")
	require.NoError(t, os.WriteFile(filepath.Join(r.ws, "f.txt"), []byte("one\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(r.ws, ".mailmap"), []byte("B <b@example.com> <a@example.com>\n"), 0o644))
	progGit(t, r.ws, "add", "f.txt", ".mailmap")
	progGit(t, r.ws, "commit", "-q", "-m", "first")
	r.evil = r.script(t, "evil", "exit 1")
	r.cat = r.script(t, "evilcat", `if [ -f "$1" ]; then exec cat "$1"; fi; exec cat`)
	return r
}

// gitForced returns the settings the hook forces on every git, (name,
// value) in order, as its environment gives them to git
// (GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n), for a look that finds nothing
// set.
func gitForced(t testing.TB, ws string) [][2]string {
	t.Helper()
	git, err := exec.LookPath("git")
	require.NoError(t, err)
	none := func(context.Context, []string, []string, io.Writer, io.Writer, time.Duration) error {
		return exec.Command("false").Run()
	}
	vars := map[string]string{}
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real // the kernel's workspace is resolved
	}
	env := programs.Hook{}.Env(git, ws, t.TempDir(), []string{"status"}, none)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	var out [][2]string
	for i := 0; ; i++ {
		k, ok := vars["GIT_CONFIG_KEY_"+strconv.Itoa(i)]
		if !ok {
			break
		}
		out = append(out, [2]string{k, vars["GIT_CONFIG_VALUE_"+strconv.Itoa(i)]})
	}
	require.NotEmpty(t, out, "the hook forces no git setting")
	return out
}

// script writes an executable of the attacker's into the workspace.
func (r *progRepo) script(t testing.TB, name, tail string) string {
	t.Helper()
	p := filepath.Join(r.ws, name)
	body := fmt.Sprintf("#!/bin/sh\necho \"$0 $*\" >> %s\n%s\n", r.marker, tail)
	require.NoError(t, os.WriteFile(p, []byte(body), 0o755))
	return p
}

func (r *progRepo) appendFile(t testing.TB, name, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(r.ws, name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// attrs commits a .gitattributes line.
func (r *progRepo) attrs(t testing.TB, line string) {
	t.Helper()
	r.appendFile(t, ".gitattributes", line+"\n")
	progGit(t, r.ws, "add", ".gitattributes")
	progGit(t, r.ws, "commit", "-q", "-m", "attrs")
}

// submodule adds a repository sm with a filter of the attacker's in its own
// .git/config and a file whose stat data no longer matches its index, as a
// gitlink of r (with gitmodules as .gitmodules when not empty).
func (r *progRepo) submodule(t testing.TB, gitmodules string) {
	t.Helper()
	sm := filepath.Join(r.ws, "sm")
	require.NoError(t, os.Mkdir(sm, 0o755))
	progGit(t, sm, "init", "-q", "-b", "main")
	progGit(t, sm, "config", "user.name", "a")
	progGit(t, sm, "config", "user.email", "a@example.com")
	require.NoError(t, os.WriteFile(filepath.Join(sm, "g.txt"), []byte("g\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sm, ".gitattributes"), []byte("*.txt filter=y\n"), 0o644))
	progGit(t, sm, "add", ".")
	progGit(t, sm, "commit", "-q", "-m", "sm")
	progGit(t, r.ws, "add", "sm")
	if gitmodules != "" {
		r.appendFile(t, ".gitmodules", gitmodules)
		progGit(t, r.ws, "add", ".gitmodules")
	}
	progGit(t, r.ws, "commit", "-q", "-m", "gitlink")
	r.appendFile(t, "sm/.git/config", "[filter \"y\"]\n\tclean = "+r.cat+"\n")
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(sm, "g.txt"), future, future))
}

func (r *progRepo) ran() bool {
	_, err := os.Stat(r.marker)
	return err == nil
}

// plainRun runs argv as it would run without programEnv: HOME is the
// workspace, nothing else is forced.
func (r *progRepo) plainRun(t testing.TB, argv []string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = r.ws
	cmd.Env = []string{"PATH=" + DefaultPath, "HOME=" + r.ws, childLocale}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func (r *progRepo) kernelRun(t testing.TB, argv []string, opts ...Option) Result {
	t.Helper()
	// Confinement off unless opts say otherwise: these tests are about what
	// the program table forces on its own.
	opts = append([]Option{withPrograms, WithConfinement(sandbox.Off), WithTimeout(20 * time.Second), WithOutputLimit(4096)}, opts...)
	k, err := New(r.ws, opts...)
	require.NoError(t, err)
	res, err := k.Run(context.Background(), argv)
	require.NoError(t, err)
	return res
}

// gitAttack is one way a repository's configuration makes git run a
// program.
type gitAttack struct {
	name   string
	config string // git configuration text, with EVIL, EVILCAT and WS replaced
	setup  func(t testing.TB, r *progRepo)
	argv   []string
	global bool // the attack also works from a .gitconfig in HOME (tried there too)
}

func (a gitAttack) text(r *progRepo) string {
	return strings.NewReplacer("EVILCAT", r.cat, "EVIL", r.evil, "WS", r.ws).Replace(a.config)
}

// signedCommit makes HEAD a commit carrying a (fake) signature of kind
// header, which git hands to the gpg program to verify.
func signedCommit(sig string) func(t testing.TB, r *progRepo) {
	return func(t testing.TB, r *progRepo) {
		tree := progGit(t, r.ws, "rev-parse", "HEAD^{tree}")
		parent := progGit(t, r.ws, "rev-parse", "HEAD")
		lines := strings.Split(sig, "\n")
		body := fmt.Sprintf("tree %s\nparent %s\nauthor a <a@example.com> 1 +0000\ncommitter a <a@example.com> 1 +0000\ngpgsig %s\n\nsigned\n",
			tree, parent, strings.Join(lines, "\n "))
		p := filepath.Join(t.TempDir(), "commit")
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		oid := progGit(t, r.ws, "hash-object", "-t", "commit", "-w", p)
		progGit(t, r.ws, "update-ref", "HEAD", oid)
	}
}

const (
	pgpSig  = "-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n=abcd\n-----END PGP SIGNATURE-----"
	x509Sig = "-----BEGIN SIGNED MESSAGE-----\n\nMIAGCSqGSIb3\n-----END SIGNED MESSAGE-----"
)

// missingOID is an object id no repository here holds.
const missingOID = "0123456789abcdef0123456789abcdef01234567"

// authServer answers every request with 401, so git asks for credentials.
func authServer(t testing.TB) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(s.Close)
	return s.URL + "/repo.git"
}

// dirtyIndex makes f.txt differ from the index by its stat data only, so
// git status has to read (and filter) its content again.
func dirtyIndex(t testing.TB, r *progRepo) {
	t.Helper()
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(r.ws, "f.txt"), future, future))
}

func gitAttacks(t testing.TB) []gitAttack {
	url := authServer(t)
	return []gitAttack{
		{name: "core.fsmonitor/status", config: "[core]\n\tfsmonitor = EVIL\n", argv: []string{"git", "status"}, global: true},
		{name: "core.hooksPath/commit", config: "[core]\n\thooksPath = WS/hooks\n",
			setup: func(t testing.TB, r *progRepo) {
				require.NoError(t, os.Mkdir(filepath.Join(r.ws, "hooks"), 0o755))
				require.NoError(t, os.Symlink(r.evil, filepath.Join(r.ws, "hooks", "pre-commit")))
			},
			argv: []string{"git", "commit", "--allow-empty", "-m", "x"}, global: true},
		{name: ".git/hooks/commit",
			setup: func(t testing.TB, r *progRepo) {
				require.NoError(t, os.Symlink(r.evil, filepath.Join(r.ws, ".git", "hooks", "pre-commit")))
			},
			argv: []string{"git", "commit", "--allow-empty", "-m", "x"}},
		{name: "core.editor/commit", config: "[core]\n\teditor = EVIL\n", argv: []string{"git", "commit", "--allow-empty"}, global: true},
		{name: "core.editor/var", config: "[core]\n\teditor = EVIL\n", argv: []string{"git", "var", "GIT_EDITOR"}},
		{name: "sequence.editor/rebase -i", config: "[sequence]\n\teditor = EVIL\n", argv: []string{"git", "rebase", "-i", "HEAD"}, global: true},
		{name: "core.pager/var", config: "[core]\n\tpager = EVIL\n", argv: []string{"git", "var", "GIT_PAGER"}},
		{name: "pager.log/var", config: "[pager]\n\tvar = EVIL\n", argv: []string{"git", "var", "GIT_PAGER"}},
		{name: "log.showSignature+gpg.program/log", config: "[log]\n\tshowSignature = true\n[gpg]\n\tprogram = EVIL\n",
			setup: signedCommit(pgpSig), argv: []string{"git", "log", "--oneline", "-n", "3"}, global: true},
		{name: "gpg.program/log --show-signature", config: "[gpg]\n\tprogram = EVIL\n",
			setup: signedCommit(pgpSig), argv: []string{"git", "log", "--show-signature", "-n", "1"}, global: true},
		{name: "gpg.openpgp.program/verify-commit", config: "[gpg \"openpgp\"]\n\tprogram = EVIL\n",
			setup: signedCommit(pgpSig), argv: []string{"git", "verify-commit", "HEAD"}},
		{name: "gpg.x509.program/show", config: "[gpg \"x509\"]\n\tprogram = EVIL\n",
			setup: signedCommit(x509Sig), argv: []string{"git", "show", "--show-signature", "-s", "HEAD"}},
		{name: "promisor+uploadpack+mailmap.blob/log (issue 11)",
			config: "[remote \"origin\"]\n\turl = WS\n\tpromisor = true\n\tuploadpack = EVIL\n[mailmap]\n\tblob = " + missingOID + "\n",
			argv:   []string{"git", "log", "--oneline", "-n", "3"}, global: true},
		{name: "promisor+uploadpack/cat-file",
			config: "[remote \"origin\"]\n\turl = WS\n\tpromisor = true\n\tuploadpack = EVIL\n",
			argv:   []string{"git", "cat-file", "-t", missingOID}},
		{name: "remote.uploadpack/ls-remote", config: "[remote \"origin\"]\n\turl = WS\n\tuploadpack = EVIL\n",
			argv: []string{"git", "ls-remote", "origin"}},
		{name: "remote.receivepack/push", config: "[remote \"origin\"]\n\turl = WS\n\treceivepack = EVIL\n",
			argv: []string{"git", "push", "origin", "HEAD:refs/heads/other"}},
		{name: "url.insteadOf ext::/ls-remote", config: "[url \"ext::EVIL %S \"]\n\tinsteadOf = evil:\n[protocol \"ext\"]\n\tallow = always\n",
			argv: []string{"git", "ls-remote", "evil:x"}, global: true},
		{name: "core.sshCommand/ls-remote", config: "[core]\n\tsshCommand = EVIL\n",
			argv: []string{"git", "ls-remote", "ssh://127.0.0.1:1/x"}, global: true},
		{name: "core.gitProxy/ls-remote", config: "[core]\n\tgitProxy = EVIL\n",
			argv: []string{"git", "ls-remote", "git://127.0.0.1:1/x"}, global: true},
		{name: "credential.helper/ls-remote", config: "[credential]\n\thelper = EVIL\n",
			argv: []string{"git", "ls-remote", url}, global: true},
		{name: "credential.url.helper/ls-remote", config: "[credential \"" + url + "\"]\n\thelper = !EVIL\n",
			argv: []string{"git", "ls-remote", url}},
		{name: "core.askPass/ls-remote", config: "[core]\n\taskPass = EVIL\n",
			argv: []string{"git", "ls-remote", url}, global: true},
		{name: "include.path/status", config: "[include]\n\tpath = WS/inc.config\n",
			setup: func(t testing.TB, r *progRepo) { r.appendFile(t, "inc.config", "[core]\n\tfsmonitor = "+r.evil+"\n") },
			argv:  []string{"git", "status"}, global: true},
		{name: "includeIf.gitdir/status", config: "[includeIf \"gitdir:WS/\"]\n\tpath = WS/inc.config\n",
			setup: func(t testing.TB, r *progRepo) { r.appendFile(t, "inc.config", "[core]\n\tfsmonitor = "+r.evil+"\n") },
			argv:  []string{"git", "status"}},
		{name: "filter.clean/status", config: "[filter \"x\"]\n\tclean = EVILCAT\n",
			setup: func(t testing.TB, r *progRepo) { r.attrs(t, "*.txt filter=x"); dirtyIndex(t, r) },
			argv:  []string{"git", "status", "--short"}},
		{name: "filter.process/status", config: "[filter \"x\"]\n\tprocess = EVIL\n",
			setup: func(t testing.TB, r *progRepo) { r.attrs(t, "*.txt filter=x"); dirtyIndex(t, r) },
			argv:  []string{"git", "status", "--short"}},
		{name: "filter.clean via include/status", config: "[include]\n\tpath = WS/inc.config\n",
			setup: func(t testing.TB, r *progRepo) {
				r.attrs(t, "*.txt filter=x")
				r.appendFile(t, "inc.config", "[filter \"x\"]\n\tclean = "+r.cat+"\n")
				dirtyIndex(t, r)
			},
			argv: []string{"git", "status", "--short"}},
		{name: "diff.textconv/log -p", config: "[diff \"x\"]\n\ttextconv = EVILCAT\n",
			setup: func(t testing.TB, r *progRepo) {
				r.attrs(t, "*.txt diff=x")
				r.appendFile(t, "f.txt", "two\n")
				progGit(t, r.ws, "commit", "-q", "-am", "two")
			},
			argv: []string{"git", "log", "-p", "-n", "1"}},
		{name: "diff.textconv/show", config: "[diff \"x\"]\n\ttextconv = EVILCAT\n",
			setup: func(t testing.TB, r *progRepo) {
				r.attrs(t, "*.txt diff=x")
				r.appendFile(t, "f.txt", "two\n")
				progGit(t, r.ws, "commit", "-q", "-am", "two")
			},
			argv: []string{"git", "show", "HEAD"}},
		{name: "diff.command/diff", config: "[diff \"x\"]\n\tcommand = EVIL\n",
			setup: func(t testing.TB, r *progRepo) { r.attrs(t, "*.txt diff=x"); r.appendFile(t, "f.txt", "two\n") },
			argv:  []string{"git", "diff"}},
		{name: "diff.external/diff", config: "[diff]\n\texternal = EVIL\n",
			setup: func(t testing.TB, r *progRepo) { r.appendFile(t, "f.txt", "two\n") },
			argv:  []string{"git", "diff"}, global: true},
		{name: "difftool.cmd/difftool", config: "[diff]\n\ttool = x\n[difftool \"x\"]\n\tcmd = EVIL\n",
			setup: func(t testing.TB, r *progRepo) { r.appendFile(t, "f.txt", "two\n") },
			argv:  []string{"git", "difftool", "-y"}},
		{name: "alias/refs", config: "[alias]\n\trefs = !EVIL\n", argv: []string{"git", "refs"}, global: true},
		{name: "filter.clean in -C sub/status", setup: func(t testing.TB, r *progRepo) {
			sub := filepath.Join(r.ws, "sub")
			require.NoError(t, os.Mkdir(sub, 0o755))
			progGit(t, sub, "init", "-q")
			progGit(t, sub, "config", "user.name", "a")
			progGit(t, sub, "config", "user.email", "a@example.com")
			require.NoError(t, os.WriteFile(filepath.Join(sub, "h.txt"), []byte("h\n"), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(sub, ".gitattributes"), []byte("*.txt filter=z\n"), 0o644))
			progGit(t, sub, "add", ".")
			progGit(t, sub, "commit", "-q", "-m", "sub")
			r.appendFile(t, "sub/.git/config", "[filter \"z\"]\n\tclean = "+r.cat+"\n")
			future := time.Now().Add(time.Hour)
			require.NoError(t, os.Chtimes(filepath.Join(sub, "h.txt"), future, future))
		}, argv: []string{"git", "-C", "sub", "status", "--short"}},
		{name: "submodule filter, config ignore=none/status", config: "[submodule \"sm\"]\n\tignore = none\n",
			setup: func(t testing.TB, r *progRepo) { r.submodule(t, "[submodule \"sm\"]\n\tpath = sm\n\turl = ./sm\n") },
			argv:  []string{"git", "status", "--short"}},
		{name: "submodule filter, gitlink only/status",
			setup: func(t testing.TB, r *progRepo) { r.submodule(t, "") },
			argv:  []string{"git", "status", "--short"}},
		{name: "help.autoCorrect+alias/typo", config: "[help]\n\tautoCorrect = -1\n[alias]\n\tstatuz = !EVIL\n",
			argv: []string{"git", "statuzz"}},
	}
}

// TestGitConfigCannotRunPrograms tries every attack from the repository's
// .git/config and, where git reads it there, from a .gitconfig in the
// workspace, which is HOME.
func TestGitConfigCannotRunPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs in make test-all")
	}
	for _, a := range gitAttacks(t) {
		places := []string{".git/config"}
		if a.global {
			places = append(places, ".gitconfig")
		}
		for _, place := range places {
			t.Run(a.name+"/"+place, func(t *testing.T) {
				t.Parallel()
				r := newProgRepo(t)
				if a.setup != nil {
					a.setup(t, r)
				}
				r.appendFile(t, place, a.text(r))
				out := r.plainRun(t, a.argv)
				require.True(t, r.ran() || strings.Contains(out, r.evil),
					"the attack does not work even without programEnv, so this case proves nothing: %s", out)
				require.NoError(t, os.RemoveAll(r.marker))
				res := r.kernelRun(t, a.argv)
				assert.False(t, r.ran(), "the repository's program ran through Kernel.Run: %s", res.Text())
				assert.NotContains(t, res.Output, r.evil, "git would still run the repository's program")
			})
		}
	}
}

// TestGitRemainingAttacksNeedExecuteSet documents what programEnvIn does
// not see: a submodule's own .git/config, read by the git that status runs
// inside it when the tracked .gitmodules says ignore = none (a file, not
// configuration, so no forced setting beats it). With confinement off it still runs; the Confiner's execute set
// (the binary, the loader and programExecDirs) is what stops it. When this
// starts to fail, update programs.go's doc and move the case to gitAttacks.
func TestGitRemainingAttacksNeedExecuteSet(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs in make test-all")
	}
	r := newProgRepo(t)
	r.submodule(t, "[submodule \"sm\"]\n\tpath = sm\n\turl = ./sm\n\tignore = none\n")
	res := r.kernelRun(t, []string{"git", "status", "--short"})
	assert.True(t, r.ran(), "a submodule's filter no longer runs with confinement off: update programs.go's doc: %s", res.Text())
	// And the execute set stops it.
	if _, ok := sandbox.Available(); ok {
		require.NoError(t, os.Remove(r.marker))
		for _, mode := range []sandbox.Mode{sandbox.Strict, sandbox.BestEffort} {
			res = r.kernelRun(t, []string{"git", "status", "--short"}, WithConfinement(mode))
			assert.False(t, r.ran(), "%v: a submodule's filter ran confined: %s", mode, res.Text())
			assert.Contains(t, res.Output, "Permission denied", mode)
		}
	}
}

// TestGitStillWorks: with everything forced, the commands descriptors run
// give their ordinary output, mailmap and all.
func TestGitStillWorks(t *testing.T) {
	r := newProgRepo(t)
	r.appendFile(t, "f.txt", "two\n")
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "log", "--oneline", "-n", "3"}, "first"},
		{[]string{"git", "log", "--format=%aN", "-n", "1"}, "B"}, // .mailmap applies
		{[]string{"git", "status", "--short"}, " M f.txt"},
		{[]string{"git", "diff"}, "+two"},
		{[]string{"git", "show", "--stat", "HEAD"}, "f.txt"},
		{[]string{"git", "var", "GIT_PAGER"}, "cat"},
	} {
		res := r.kernelRun(t, c.argv)
		assert.Equal(t, 0, res.ExitCode, "%v: %s", c.argv, res.Text())
		assert.Contains(t, res.Output, c.want, "%v", c.argv)
	}
}

// TestGitOutputHasNoColor: a repository that turns colour on for every
// command (color.ui, and color.<command>, which beats it) gets plain text
// back, no escape sequences for the model or a terminal.
func TestGitOutputHasNoColor(t *testing.T) {
	r := newProgRepo(t)
	r.appendFile(t, "f.txt", "two\n")
	var b strings.Builder
	b.WriteString("[color]\n\tui = always\n")
	for _, kv := range gitForced(t, r.ws) {
		if name, ok := strings.CutPrefix(kv[0], "color."); ok && name != "ui" {
			fmt.Fprintf(&b, "\t%s = always\n", name)
		}
	}
	r.appendFile(t, ".git/config", b.String())
	for _, argv := range [][]string{
		{"git", "log", "--decorate", "-n", "1"},
		{"git", "diff"},
		{"git", "status", "--short"},
		{"git", "branch"},
		{"git", "grep", "-n", "two"},
		{"git", "show", "--stat", "HEAD"},
	} {
		require.Contains(t, r.plainRun(t, argv), "\x1b[", "%v: the repository's colour does not show even without programEnv", argv)
		res := r.kernelRun(t, argv)
		assert.Equal(t, 0, res.ExitCode, "%v: %s", argv, res.Text())
		assert.NotContains(t, res.Output, "\x1b", "%v: colour escapes reach the model", argv)
	}
}

// TestProgramEnvGitKeysAreForced reads every forced key back through the
// kernel, from a repository whose .git/config sets each one otherwise: the
// forced value is what git sees.
func TestProgramEnvGitKeysAreForced(t *testing.T) {
	r := newProgRepo(t)
	var b strings.Builder
	for _, kv := range gitForced(t, r.ws) {
		sec, key, _ := strings.Cut(kv[0], ".")
		if sub, name, ok := strings.Cut(key, "."); ok {
			fmt.Fprintf(&b, "[%s %q]\n\t%s = %s\n", sec, sub, name, r.evil)
		} else {
			fmt.Fprintf(&b, "[%s]\n\t%s = %s\n", sec, key, r.evil)
		}
	}
	r.appendFile(t, ".git/config", b.String())
	r.appendFile(t, ".gitconfig", b.String())
	for _, kv := range gitForced(t, r.ws) {
		res := r.kernelRun(t, []string{"git", "config", "--get-all", kv[0]})
		vals := strings.Split(strings.TrimSuffix(res.Output, "\n"), "\n")
		assert.Equal(t, kv[1], vals[len(vals)-1], "%s: the last value (the one git uses) is not forced", kv[0])
	}
	res := r.kernelRun(t, []string{"git", "config", "--show-scope", "--get-regexp", "."})
	assert.NotContains(t, res.Output, "global", "global configuration was read")
}

// TestCurlAndWgetIgnoreWorkspaceConfig: a .curlrc and a .wgetrc in the
// workspace, which is HOME, would make curl and wget write a file of the
// repository's choosing.
func TestCurlAndWgetIgnoreWorkspaceConfig(t *testing.T) {
	for _, c := range []struct {
		bin, file, line string
		argv            []string
	}{
		{"curl", ".curlrc", "output = %s\n", []string{"curl", "-s", "file:///dev/null"}},
		{"wget", ".wgetrc", "output_document = %s\n", []string{"wget", "-q", "-t", "1", "http://127.0.0.1:1/"}},
	} {
		t.Run(c.bin, func(t *testing.T) {
			if _, err := exec.LookPath(c.bin); err != nil {
				t.Skip(c.bin + " not installed")
			}
			r := &progRepo{ws: t.TempDir(), marker: filepath.Join(t.TempDir(), "written")}
			r.appendFile(t, c.file, fmt.Sprintf(c.line, r.marker))
			r.plainRun(t, c.argv)
			require.True(t, r.ran(), "%s does not read %s even without programEnv", c.bin, c.file)
			require.NoError(t, os.Remove(r.marker))
			res := r.kernelRun(t, c.argv)
			assert.False(t, r.ran(), "%s read the workspace's %s: %s", c.bin, c.file, res.Text())
		})
	}
}

// TestNpmIgnoresProjectConfig: npm reads .npmrc from the project (cwd) and
// HOME; the npm_config_* variables beat both.
func TestNpmIgnoresProjectConfig(t *testing.T) {
	guarantee.Program(t, "npm")
	if testing.Short() {
		t.Skip("slow: runs in make test-all")
	}
	r := &progRepo{ws: t.TempDir()}
	r.appendFile(t, "package.json", `{"name":"x","version":"1.0.0"}`)
	rc := "git=/tmp/evil-git\nscript-shell=/tmp/evil-sh\nignore-scripts=false\n"
	r.appendFile(t, ".npmrc", rc)
	plain := r.plainRun(t, []string{"npm", "config", "get", "git"})
	require.Contains(t, plain, "/tmp/evil-git", "npm does not read the project .npmrc even without programEnv")
	res := r.kernelRun(t, []string{"npm", "config", "get", "git"})
	assert.True(t, strings.HasPrefix(strings.TrimSpace(res.Output), "/dev/null/"), "npm git is %q, not a path below /dev/null", res.Output)
	res = r.kernelRun(t, []string{"npm", "config", "get", "ignore-scripts"})
	assert.Equal(t, "true", strings.TrimSpace(res.Output))
}

// BenchmarkRunGitVersion compares git --version run through the kernel
// (programEnvIn: the forced environment and one git config look at the
// repository, a second process) with a bare exec of the same git.
func BenchmarkRunGitVersion(b *testing.B) {
	git, err := exec.LookPath("git")
	if err != nil {
		b.Skip("git not installed")
	}
	ws := b.TempDir()
	progGit(b, ws, "init", "-q")
	k, err := New(ws, withPrograms, WithConfinement(sandbox.Off))
	require.NoError(b, err)
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(git, "--version")
			cmd.Dir, cmd.Env = ws, k.Env()
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			if _, err := k.Run(context.Background(), []string{git, "--version"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestProgramEnvBeatsWithEnv: an embedder's WithEnv cannot undo what
// programEnv forces (the child's environment ends with it, and the last
// entry of a key wins).
func TestProgramEnvBeatsWithEnv(t *testing.T) {
	r := newProgRepo(t)
	r.appendFile(t, ".gitconfig", "[core]\n\tfsmonitor = "+r.evil+"\n")
	k, err := New(r.ws, withPrograms, WithConfinement(sandbox.Off), // what the hook forces on its own
		WithEnv("GIT_CONFIG_GLOBAL="+filepath.Join(r.ws, ".gitconfig"), "GIT_CONFIG_COUNT=0", "GIT_PAGER=evil"))
	require.NoError(t, err)
	res, err := k.Run(context.Background(), []string{"git", "status"})
	require.NoError(t, err)
	assert.False(t, r.ran(), res.Text())
	res, err = k.Run(context.Background(), []string{"git", "var", "GIT_PAGER"})
	require.NoError(t, err)
	assert.Equal(t, "cat", strings.TrimSpace(res.Output))
}

// TestGitCommandLineConfigWins pins why a slot may never choose the value
// of git's -c (package validate refuses such a template, 613): a setting
// given on git's command line comes after the ones the kernel forces and
// wins, so unconfined, git -c core.fsmonitor=CMD status runs CMD.
func TestGitCommandLineConfigWins(t *testing.T) {
	r := newProgRepo(t)
	k, err := New(r.ws, withPrograms, WithConfinement(sandbox.Off))
	require.NoError(t, err)
	res, err := k.Run(context.Background(), []string{"git", "-c", "core.fsmonitor=" + r.evil, "status"})
	require.NoError(t, err)
	assert.True(t, r.ran(), "git -c no longer beats the forced setting: the validator's git -c rule may be relaxed (%s)", res.Text())
}
