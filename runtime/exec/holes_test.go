package exec

import (
	"context"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
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
		guarantee.Program(t, b)
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
		// Retried: an exec racing a writer's close ("Text file busy"), and
		// zip 3.0's own heap bug, which now and then aborts its test run
		// of a custom unzip command ("free(): invalid pointer").
		if !strings.Contains(string(out), "Text file busy") && !strings.Contains(string(out), "free(): ") {
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

// TestHoleDateAttachedSymlinkFile: a value attached after combined short
// options that is a workspace symlink straight to a file outside ("-uflink",
// no '/' in it) was not resolved, so date printed the outside file's line.
func TestHoleDateAttachedSymlinkFile(t *testing.T) {
	h := newHoleEnv(t, "date", "grep")
	outside := writeFile(t, t.TempDir(), "secret", "s3cr3t-line\n", 0o600)
	require.NoError(t, os.Symlink(outside, filepath.Join(h.ws, "link")))
	require.Contains(t, h.direct("date", "-uflink"), "s3cr3t-line", "date -f does not follow the link even when run directly")
	for _, c := range []string{"date -uflink", "date -Ruflink", "grep -iflink a.txt"} {
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
	out, err := osexec.Command(git, "--list-cmds=builtins").Output()
	require.NoError(t, err)
	isBuiltin := slices.Contains(strings.Fields(string(out)), "refs")
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

// TestHoleWrappersOffTheDenyList: binaries that run a program named in
// their arguments, missing from the deny list, ran a script of the
// workspace with confinement off (choom -n 0 -- ./evil, hyperfine -N
// ./evil, gcc -wrapper ./evil or gcc -B. running ./cc1, gpg-connect-agent
// -E ./evil, gpgtar --gpg ./evil). Each is now
// refused when granted.
func TestHoleWrappersOffTheDenyList(t *testing.T) {
	wrappers := []string{"choom", "hyperfine", "gcc", "cc", "gcc-12", "x86_64-linux-gnu-gcc-12", "cpp",
		"uclampset", "systemd-cat", "systemd-inhibit", "systemd-socket-activate", "scriptlive",
		"msgexec", "msgfilter", "lli", "lli-14", "llvm-jitlink-14", "gpg-connect-agent", "gpgtar"}
	ws := gitWorkspace(t)
	marker := filepath.Join(t.TempDir(), "ran")
	writeFile(t, ws, "evil", "#!/bin/sh\necho \"$0 $*\" >> "+marker+"\nexit 0\n", 0o755)
	k, err := kernel.New(ws, kernel.WithConfinement(sandbox.Off))
	require.NoError(t, err)
	// Proof that they run a program when run directly (where installed).
	for _, argv := range [][]string{
		{"choom", "-n", "0", "--", "./evil"},
		{"hyperfine", "-N", "--runs", "1", "./evil"},
		{"gcc", "-wrapper", "./evil,x", "-E", "-x", "c", "/dev/null"},
		{"gpg-connect-agent", "-E", "./evil"},
		{"gpgtar", "--gpg", "./evil", "-t", "a.txt"},
	} {
		if _, err := osexec.LookPath(argv[0]); err != nil {
			continue
		}
		cmd := osexec.Command(argv[0], argv[1:]...)
		cmd.Dir = ws
		_ = cmd.Run()
		require.FileExists(t, marker, "%v does not run ./evil even when run directly", argv)
		require.NoError(t, os.Remove(marker))
	}
	grantsDenied(t, k, wrappers, "none of the wrappers is installed")
}

// grantsDenied checks that granting each of bins that is installed is
// refused by the deny list, and skips with why when none is installed.
func grantsDenied(t *testing.T, k *kernel.Kernel, bins []string, why string) {
	t.Helper()
	tested := 0
	for _, bin := range bins {
		if _, err := osexec.LookPath(bin); err != nil {
			continue
		}
		tested++
		_, err := New(k, []string{bin})
		if assert.Error(t, err, "%s was granted", bin) {
			assert.Contains(t, err.Error(), "deny list", "%s: %v", bin, err)
		}
	}
	if tested == 0 {
		guarantee.Missing(t, "%s", why)
	}
}

// evilSharedObject compiles, into dir, a shared library whose constructor
// prints "ARBITRARY-CODE" on stderr and appends to marker (it names
// C_GetFunctionList, which ssh-keygen looks for before loading); it skips the
// test where no C compiler is installed.
func evilSharedObject(t *testing.T, dir, marker string) string {
	t.Helper()
	cc := guarantee.Program(t, "cc") // builds the shared library
	src := writeFile(t, t.TempDir(), "x.c", `#include <stdio.h>
__attribute__((constructor)) static void f(void) {
	fputs("ARBITRARY-CODE\n", stderr);
	FILE *m = fopen("`+marker+`", "a");
	if (m) { fputs("loaded\n", m); fclose(m); }
}
void C_GetFunctionList(void) {}
`, 0o644)
	so := filepath.Join(dir, "evil.so")
	out, err := osexec.Command(cc, "-shared", "-fPIC", "-o", so, src).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return so
}

// TestHoleSharedLibraryLoaders: options that make a granted binary load a
// shared library of the workspace run the repository's code inside it, and
// Landlock cannot stop that (mmap of a readable file needs no execute
// right): openssl's dynamic engine did it even under --confine strict;
// ssh-keygen -D and ssh -I (PKCS#11 providers) with it off; groff -U (the
// unsafe mode's .sy request) ran a workspace program with it off.
func TestHoleSharedLibraryLoaders(t *testing.T) {
	h := newHoleEnv(t, "ssh", "ssh-keygen", "groff")
	so := evilSharedObject(t, h.ws, h.marker)
	require.Contains(t, h.direct("ssh-keygen", "-D", "./evil.so"), "ARBITRARY-CODE",
		"ssh-keygen -D does not load the library even when run directly")
	writeFile(t, h.ws, "g.roff", ".sy ./evil groff\nhi\n", 0o644)
	h.direct("groff", "-U", "g.roff")
	require.True(t, h.ran(), "groff -U does not run .sy even when run directly")
	require.NoError(t, os.Remove(h.marker))
	for _, c := range []string{"ssh-keygen -D ./evil.so", "ssh-keygen -lD./evil.so", "ssh -I ./evil.so -p 1 127.0.0.1",
		"ssh -I./evil.so x", "groff -U g.roff", "groff -aU g.roff", "groff -DU g.roff"} {
		refused614(t, h.tl, c, DefenceFlags)
	}
	assert.False(t, h.ran())
	text, err := call(t, h.tl, "ssh-keygen -l -f .git/config")
	require.NoError(t, err)
	assert.NotContains(t, text, "ARBITRARY-CODE")

	// openssl loads engines and providers named on its command line or in
	// a configuration file it is given: it ran the library under strict.
	guarantee.Program(t, "openssl")
	require.Contains(t, h.direct("openssl", "engine", "dynamic", "-pre", "SO_PATH:"+so, "-pre", "LOAD"), "ARBITRARY-CODE",
		"openssl does not load the engine even when run directly")
	for _, mode := range []sandbox.Mode{sandbox.Strict, sandbox.Off} {
		k, err := kernel.New(h.ws, kernel.WithConfinement(mode))
		require.NoError(t, err)
		_, err = New(k, []string{"openssl"})
		require.Error(t, err, "openssl was granted (%v)", mode)
		assert.Equal(t, tool.CodeSpec, tool.CodeOf(err), "%v", err)
	}
}

// TestHolePluginLoadersUnderStrict: toolchain programs that load a plugin
// named on their command line (nm --plugin, ld -plugin, opt -load, llc
// -load) ran a workspace shared library under --confine strict, since
// Landlock does not check the mapping of a readable file. The linker and
// LLVM's tools are denied; nm, ar and ranlib lose --plugin.
func TestHolePluginLoadersUnderStrict(t *testing.T) {
	guarantee.Program(t, "nm")
	ws := gitWorkspace(t)
	marker := filepath.Join(t.TempDir(), "ran")
	evilSharedObject(t, ws, marker)
	k, err := kernel.New(ws, kernel.WithConfinement(sandbox.Strict))
	require.NoError(t, err)
	cmd := osexec.Command("nm", "--plugin", "./evil.so", "a.txt")
	cmd.Dir = ws
	out, _ := cmd.CombinedOutput()
	require.Contains(t, string(out), "ARBITRARY-CODE", "nm --plugin does not load the library even when run directly")
	tl, err := New(k, []string{"nm", "ar", "ranlib"})
	require.NoError(t, err)
	for _, c := range []string{"nm --plugin ./evil.so a.txt", "nm --plug=./evil.so a.txt", "ar --plugin ./evil.so t x.a",
		"ranlib --plugin=./evil.so x.a"} {
		refused614(t, tl, c, DefenceFlags)
	}
	text, err := call(t, tl, "nm a.txt")
	require.NoError(t, err)
	assert.NotContains(t, text, "ARBITRARY-CODE")
	for _, bin := range []string{"ld", "ld.bfd", "ld.gold", "gold", "x86_64-linux-gnu-ld", "opt", "llc", "bugpoint", "opt-14", "llc-14"} {
		if _, err := osexec.LookPath(bin); err != nil {
			continue
		}
		_, err := New(k, []string{bin})
		if assert.Error(t, err, "%s was granted", bin) {
			assert.Contains(t, err.Error(), "deny list", "%s: %v", bin, err)
		}
	}
}

// TestHoleRecursionFollowsSymlinks: with --confine off, a directory operand
// holding a symlink that leads out of the workspace was walked through it by
// programs that follow symlinks while recursing (cp -rL, diff -r by
// default, zip -r by default, rsync -L/--copy-unsafe-links): zip -r then
// unzip -p showed the outside file.
func TestHoleRecursionFollowsSymlinks(t *testing.T) {
	h := newHoleEnv(t, "cp", "diff", "zip")
	outside := t.TempDir()
	writeFile(t, outside, "secret", "s3cr3t-line\n", 0o600)
	require.NoError(t, os.Mkdir(filepath.Join(h.ws, "d1"), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(h.ws, "d1", "s")))
	require.NoError(t, os.MkdirAll(filepath.Join(h.ws, "d2", "s"), 0o755))
	writeFile(t, h.ws, "d2/s/secret", "other\n", 0o644)
	require.Contains(t, h.direct("diff", "-r", "d1", "d2"), "s3cr3t-line", "diff -r does not follow the link even when run directly")
	for _, c := range []string{
		"cp -rL d1 d3", "cp -r --dereference d1 d3", "cp -r --deref d1 d3", "cp -Lr d1 d3",
		"diff -r d1 d2", "diff -qr d1 d2", "diff --recursive d1 d2", "diff --recur d1 d2",
		"zip -r z.zip d1", "zip -qr z.zip d1", "zip --recurse-paths z.zip d1", "zip -R z.zip d1",
	} {
		refused614(t, h.tl, c, DefenceFlags)
	}
	assert.NoDirExists(t, filepath.Join(h.ws, "d3"))
	assert.NoFileExists(t, filepath.Join(h.ws, "z.zip"))
	for _, c := range []string{"diff -r --no-dereference d1 d2", "zip -ry z.zip d1", "zip -r -y z.zip d1", "cp -r d1 d3"} {
		text, err := call(t, h.tl, c)
		require.NoError(t, err, c)
		assert.NotContains(t, text, "s3cr3t-line", c)
	}
	got, err := osexec.Command("grep", "-r", "s3cr3t-line", h.ws).CombinedOutput()
	assert.Empty(t, string(got), "the outside file was copied into the workspace (%v)", err)

	if _, err := osexec.LookPath("rsync"); err != nil {
		return
	}
	k, err := kernel.New(h.ws, kernel.WithConfinement(sandbox.Off))
	require.NoError(t, err)
	rs, err := New(k, []string{"rsync"})
	require.NoError(t, err)
	for _, c := range []string{"rsync -rL d1/ d4", "rsync -r --copy-links d1/ d4", "rsync -r --copy-unsafe-links d1/ d4",
		"rsync -rk d1/ d4", "rsync -r --copy-dirlinks d1/ d4", "rsync -rK d1/ d4"} {
		refused614(t, rs, c, DefenceFlags)
	}
}

// TestHoleNameListFromFile: options that read the names of the files to
// work on from a file of the workspace name files the argument check never
// sees. With --confine off, sort --files0-from printed an outside file, and
// tar -T archived it (tar -xOf then printed it).
func TestHoleNameListFromFile(t *testing.T) {
	h := newHoleEnv(t, "sort", "tar", "find", "wc", "du")
	outside := writeFile(t, t.TempDir(), "secret", "s3cr3t-line\n", 0o600)
	writeFile(t, h.ws, "names0", outside+"\x00", 0o644)
	writeFile(t, h.ws, "names", outside+"\n", 0o644)
	require.Contains(t, h.direct("sort", "--files0-from=names0"), "s3cr3t-line",
		"sort --files0-from does not read the listed file even when run directly")
	for _, c := range []string{
		"sort --files0-from=names0", "sort --files0-from names0", "sort --files0=names0",
		"tar -cf t.tar -T names", "tar -cf t.tar -Tnames", "tar -cf t.tar --files-from=names", "tar -cf t.tar --files-fr names",
		"tar cfT t.tar names", "find -files0-from names0", "find . -files0-from names0",
		"wc --files0-from=names0", "du --files0-from=names0",
	} {
		refused614(t, h.tl, c, DefenceFlags)
	}
	assert.NoFileExists(t, filepath.Join(h.ws, "t.tar"))
	for _, c := range []string{"sort names", "wc -L names", "du -s ."} {
		text, err := call(t, h.tl, c)
		require.NoError(t, err, c)
		assert.True(t, strings.HasPrefix(text, "exit: 0"), "%s: %s", c, text)
		assert.NotContains(t, text, "s3cr3t-line")
	}
}

// TestHoleJDKToolsJavaAgent: every JDK launcher passes -J options to its
// JVM, and -J-javaagent:x.jar runs the premain of a jar of the workspace:
// with --memory-limit none, javap ran the repository's Java code (and,
// with --confine off, its program). The JDK's launchers are denied.
func TestHoleJDKToolsJavaAgent(t *testing.T) {
	ws := gitWorkspace(t)
	k, err := kernel.New(ws, kernel.WithConfinement(sandbox.Off))
	require.NoError(t, err)
	grantsDenied(t, k, []string{"javac", "javap", "javadoc", "jar", "jarsigner", "jcmd", "jdeps", "jfr", "jlink", "jmod",
		"jpackage", "jps", "jstack", "jstat", "keytool", "serialver", "jexec", "jimage", "jinfo", "jmap", "jhsdb"}, "no JDK installed")
}
