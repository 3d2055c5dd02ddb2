package programs

import (
	"context"
	"io"
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
)

// envOf is the hook's Env for the program at path, run in a fresh
// directory with no look possible (git's then fails closed, which still
// holds its forced entries).
func envOf(t testing.TB, path string) []string {
	t.Helper()
	return Hook{}.Env(path, t.TempDir(), "/cfg", nil, nil)
}

// nopLook is a Look that finds nothing set (git config exits 1).
func nopLook(context.Context, []string, []string, io.Writer, io.Writer, time.Duration) error {
	return exec.Command("false").Run()
}

// plainLook is a Look that runs argv in dir with env and nothing else: no
// limits, no kernel.
func plainLook(dir string) Look {
	return func(ctx context.Context, argv, env []string, stdout, stderr io.Writer, _ time.Duration) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, append([]string{"PATH=/usr/bin:/bin", "HOME=" + dir}, env...), stdout, stderr
		return cmd.Run()
	}
}

// gitRepo returns a fresh repository with one commit.
func gitRepo(t testing.TB) string {
	t.Helper()
	guarantee.Program(t, "git")
	ws := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "a"},
		{"config", "user.email", "a@example.com"}, {"commit", "-q", "--allow-empty", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + ws, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return ws
}

func TestProgramEnvByName(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "editor")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "vim.basic"), nil, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(dir, "vim.basic"), link))
	for path, want := range map[string]string{
		"/usr/bin/git":          "GIT_CONFIG_GLOBAL=/dev/null",
		"/usr/lib/git-core/git": "GIT_NO_LAZY_FETCH=1",
		"/usr/bin/wget":         "WGETRC=",
		"/usr/bin/curl":         "CURL_HOME=",
		"/usr/bin/npm":          "npm_config_ignore_scripts=true",
		"/usr/bin/pip3":         "PIP_CONFIG_FILE=/dev/null",
		"/usr/bin/python3.11":   "PYTHONNOUSERSITE=1",
		"/usr/local/go/bin/go":  "GOTOOLCHAIN=local",
		link:                    "VIMINIT=",
		"/usr/bin/php-cgi8.2":   "PHPRC=",
	} {
		assert.Contains(t, strings.Join(envOf(t, path), "\n"), want, path)
	}
	assert.Nil(t, envOf(t, "/usr/bin/ls"))
	assert.Nil(t, envOf(t, "/usr/bin/gitk"), "only git itself")
}

func TestProgramExecDirs(t *testing.T) {
	git := guarantee.Program(t, "git")
	want, err := exec.Command(git, "--exec-path").Output()
	require.NoError(t, err)
	assert.Equal(t, []string{strings.TrimSpace(string(want))}, Hook{}.ExecDirs(git))
	assert.Nil(t, Hook{}.ExecDirs("/usr/bin/ls"))
	// A git whose exec path holds a shell gets no helper directory.
	dir := t.TempDir()
	fake := filepath.Join(dir, "git")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho "+dir+"\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sh"), nil, 0o755))
	assert.Nil(t, Hook{}.ExecDirs(fake))
	assert.False(t, HelperDir("relative/dir"))
	assert.False(t, HelperDir("/usr/bin"), "/usr/bin holds sh")
}

// BenchmarkProgramEnv is what the hook's Env adds to every Run: the name
// lookup (one EvalSymlinks) and, for git, a copy of the forced environment.
func BenchmarkProgramEnv(b *testing.B) {
	for _, p := range []string{"/usr/bin/git", "/bin/true"} {
		b.Run(filepath.Base(p), func(b *testing.B) {
			for b.Loop() {
				_ = Hook{}.Env(p, "/", "/cfg", []string{"version"}, nopLook)
			}
		})
	}
}

func TestGitLocation(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"status"}, nil},
		{[]string{"-C", "sub", "status", "-C", "x"}, []string{"-C", "sub"}},
		{[]string{"-Csub", "--git-dir=g", "--work-tree", "w", "log"}, []string{"-Csub", "--git-dir=g", "--work-tree", "w"}},
		{[]string{"-c", "-C", "--no-pager", "log", "--git-dir=x"}, nil},
		{[]string{"--namespace", "-C", "-C", "a", "log"}, []string{"-C", "a"}},
		{[]string{"-C"}, nil},
		{[]string{"--bare", "log"}, []string{"--bare"}},
		{[]string{"-C", "x", "--bare", "log", "--bare"}, []string{"-C", "x", "--bare"}},
	} {
		assert.Equal(t, c.want, gitLocation(c.args), "%q", c.args)
	}
}

func TestNamedOff(t *testing.T) {
	for name, want := range map[string]string{
		"filter.x.clean": "", "filter.a.b.process": "", "alias.refs": "", "submodule.m.update": "none", "submodule.m.ignore": "dirty",
		"diff.x.textconv": noProgram, "diff.external": noProgram, "merge.x.driver": noProgram, "difftool.x.cmd": noProgram,
	} {
		assert.Equal(t, want, namedOff(name), name)
	}
}

// TestGitRepoEnvFailsClosed: a look at the configuration that does not
// finish makes git refuse to run instead of running without the forced
// settings.
func TestGitRepoEnvFailsClosed(t *testing.T) {
	git := guarantee.Program(t, "git")
	dir := t.TempDir()
	slow := filepath.Join(dir, "git")
	require.NoError(t, os.WriteFile(slow, []byte("#!/bin/sh\nexec sleep 5\n"), 0o755))
	old := gitLookTimeout
	gitLookTimeout = 100 * time.Millisecond
	defer func() { gitLookTimeout = old }()
	env := gitRepoEnv(slow, dir, []string{"log"}, plainLook(dir))
	gitLookTimeout = old // the real looks below may take long on a loaded machine
	require.NotEmpty(t, env)
	assert.Contains(t, strings.Join(env, "\n"), "could not be checked")
	ws := gitRepo(t)
	cmd := exec.Command(git, "log", "-1")
	cmd.Dir = ws
	cmd.Env = append(append(append([]string{"PATH=/usr/bin:/bin"}, gitEnv()...), gitSafeEnv(ws)...), env...)
	out, err := cmd.CombinedOutput()
	assert.Error(t, err, "git ran: %s", out)
	assert.Contains(t, string(out), "could not be checked")
	// Exit 1 (nothing set) adds nothing.
	assert.Nil(t, gitRepoEnv(git, ws, []string{"log"}, plainLook(ws)))
	// No look at all: closed too.
	assert.Contains(t, strings.Join(gitRepoEnv(git, ws, []string{"log"}, nil), "\n"), "could not be checked")
}

// FuzzGitLocation: gitLocation returns, in order, words of its input, and
// only the options that choose a repository with their values.
func FuzzGitLocation(f *testing.F) {
	for _, s := range []string{"-C sub status", "-Csub --git-dir=g --work-tree w log", "-c -C --no-pager log",
		"--namespace -C -C a log", "-C", "--git-dir", "-- -C x", "log -C x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		out := gitLocation(args)
		j := 0
		for i, o := range out {
			for j < len(args) && args[j] != o {
				j++
			}
			if j == len(args) {
				t.Fatalf("gitLocation(%q) = %q: %q is not in order in the input", args, out, o)
			}
			j++
			isOpt := o == "-C" || o == "--git-dir" || o == "--work-tree" || strings.HasPrefix(o, "-C") ||
				strings.HasPrefix(o, "--git-dir=") || strings.HasPrefix(o, "--work-tree=")
			prevTakes := i > 0 && (out[i-1] == "-C" || out[i-1] == "--git-dir" || out[i-1] == "--work-tree")
			if !isOpt && !prevTakes {
				t.Fatalf("gitLocation(%q) = %q: %q chooses no repository", args, out, o)
			}
		}
	})
}

// TestGitSafeEnv: safe.directory names the workspace and nothing wider; a
// path git would read as a pattern, or a relative one, empties the list.
func TestGitSafeEnv(t *testing.T) {
	n := strconv.Itoa(len(gitForced))
	for dir, want := range map[string]string{
		"/work/repo":   "/work/repo",
		"/work/a b":    "/work/a b",
		"/work/*":      "",
		"/*":           "",
		"repo":         "",
		"":             "",
		"/work/repo/.": "/work/repo/.",
	} {
		env := gitSafeEnv(dir)
		assert.Equal(t, []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(gitForced)+1), "GIT_CONFIG_KEY_" + n + "=safe.directory",
			"GIT_CONFIG_VALUE_" + n + "=" + want}, env, "%q", dir)
	}
	assert.Equal(t, len(gitForced)+1, gitRepoFirst, "the repository's settings come after safe.directory")
}

// TestGitSafeDirectoryOnlyWorkspace: git works in a workspace another user
// owns (the documented container layout: a mounted volume), and only
// there: a repository of another user inside the workspace, or the
// workspace's parent, stays refused as git refuses it ("dubious
// ownership"). As root, with the repositories given to another uid.
func TestGitSafeDirectoryOnlyWorkspace(t *testing.T) {
	guarantee.AsRoot(t, "giving a repository to another user needs root")
	ws := gitRepo(t)
	nested := filepath.Join(ws, "vendor", "lib")
	require.NoError(t, os.MkdirAll(nested, 0o755))
	gitInit := exec.Command("git", "init", "-q", nested)
	gitInit.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + ws, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	out, err := gitInit.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NoError(t, filepath.Walk(ws, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	}))
	git := func(safe []string, args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		cmd.Env = append(append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}, gitEnv()...), safe...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	got, err := git(nil, "log", "--format=%s")
	require.Error(t, err, "git ran in another user's repository without safe.directory: %s", got)
	require.Contains(t, got, "dubious ownership")
	got, err = git(gitSafeEnv(ws), "log", "--format=%s")
	require.NoError(t, err, "%s", got)
	assert.Equal(t, "first\n", got)
	got, err = git(gitSafeEnv(ws), "-C", "vendor/lib", "status")
	assert.Error(t, err, "a nested repository of another user was made safe: %s", got)
	assert.Contains(t, got, "dubious ownership")
	got, err = git(gitSafeEnv(filepath.Join(ws, "vendor")), "log")
	assert.Error(t, err, "safe.directory on a subdirectory made the workspace safe: %s", got)
}
