package programs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// installed returns the paths of this machine that exist, so the tests run
// the real names where they are and skip the rest.
func installed(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// TestProgramRealNames: the wrappers and interpreters of issue 11 §3 under
// the names a Debian system installs them with.
func TestProgramRealNames(t *testing.T) {
	denied := installed(
		"/usr/bin/setarch", "/usr/bin/linux32", "/usr/bin/linux64", "/usr/bin/x86_64", "/usr/bin/i386",
		"/usr/bin/uname26", "/usr/bin/prlimit", "/usr/bin/heaptrack", "/usr/bin/sqlite3", "/usr/bin/ed",
		"/usr/bin/red", "/usr/bin/perl", "/usr/bin/perl5.36.0", "/usr/bin/perl5.36-x86_64-linux-gnu",
		"/usr/bin/cpan5.36-x86_64-linux-gnu", "/usr/bin/python3", "/usr/bin/python3.11", "/usr/bin/pdb3",
		"/usr/bin/pdb3.11", "/usr/bin/pydoc3", "/usr/bin/py3versions", "/usr/bin/x86_64-linux-gnu-python3.11-config",
		"/usr/bin/tclsh", "/usr/bin/tclsh8.6", "/usr/bin/awk", "/usr/bin/mawk", "/usr/bin/nawk", "/usr/bin/vi",
		"/usr/bin/vim", "/usr/bin/vim.basic", "/usr/bin/rvim", "/usr/bin/valgrind", "/usr/bin/valgrind.bin",
		"/usr/bin/perf", "/usr/bin/make", "/usr/bin/gmake", "/usr/bin/node", "/usr/bin/nodejs", "/usr/bin/npm",
		"/usr/bin/corepack", "/usr/bin/nohup", "/usr/bin/nice", "/usr/bin/ionice", "/usr/bin/chrt",
		"/usr/bin/taskset", "/usr/bin/flock", "/usr/bin/timeout", "/usr/bin/stdbuf", "/usr/bin/unshare",
		"/usr/bin/nsenter", "/usr/sbin/chroot", "/usr/sbin/runuser", "/usr/bin/su", "/usr/bin/script",
		"/usr/bin/watch", "/usr/bin/xargs", "/usr/bin/gdb", "/usr/bin/strace", "/usr/bin/env",
		"/usr/bin/perldoc", "/usr/bin/perlbug", "/usr/bin/egrep", "/usr/bin/run-parts", "/usr/bin/lua5.4",
		"/usr/bin/ruby", "/usr/bin/php", "/usr/bin/expect", "/usr/bin/busybox", "/usr/bin/dash", "/bin/sh",
	)
	for _, p := range denied {
		why, ok := DeniedProgram(p)
		assert.True(t, ok, "%s is not denied", p)
		assert.Contains(t, why, p)
	}
	t.Logf("denied %d installed programs", len(denied))
	for _, p := range installed("/usr/bin/grep", "/usr/bin/git", "/usr/bin/ls", "/usr/bin/sed", "/usr/bin/find",
		"/usr/bin/wc", "/usr/bin/head", "/usr/bin/cat", "/usr/bin/sort", "/usr/bin/diff", "/usr/bin/curl",
		"/usr/bin/pgrep", "/usr/bin/pidof", "/usr/bin/tar", "/usr/bin/ssh", "/usr/bin/true", "/usr/bin/jq") {
		why, ok := DeniedProgram(p)
		assert.False(t, ok, "%s denied: %s", p, why)
	}
}

// TestProgramUnderOtherNames: a granted name that is a denied program
// under another name — a symlink, a hard link, a copy of its #! line.
func TestProgramUnderOtherNames(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o755))
		return p
	}
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.Symlink(target, p))
		return p
	}
	// A denied program of the directory, and a hard link to it under an
	// innocent name: the same inode.
	snake := write("python9", "\x7fELF not really\n")
	hard := filepath.Join(dir, "lister")
	require.NoError(t, os.Link(snake, hard))
	hardToLink := filepath.Join(dir, "lister2")
	require.NoError(t, os.Link(snake, hardToLink))
	innocent := write("innocent", "#!/usr/bin/true\n")

	cases := []struct{ path, want string }{
		{hard, "same file as " + snake},
		{link("ls-link", snake), "resolves to " + snake},
		{link("chain", "ls-link"), "resolves to"},
		{write("s-sh", "#!/bin/sh\necho\n"), `is a script run by /bin/sh`},
		{write("s-sh-space", "#! /bin/sh -e\n"), `is a script run by /bin/sh`},
		{write("s-dash-tab", "#!\t/bin/dash\n"), `is a script run by /bin/dash`},
		{write("s-env", "#!/usr/bin/env python3\n"), `run by python3 (through env)`},
		{write("s-env-s", "#!/usr/bin/env -S python3 -u\n"), `run by python3 (through env)`},
		{write("s-env-opts", "#!/usr/bin/env -S -i A=1 -u B perl -w\n"), `run by perl (through env)`},
		{write("s-env-quote", "#!/usr/bin/env -S 'ls'\n"), "cannot follow"},
		{write("s-env-dash", "#!/usr/bin/env -i python3\n"), "cannot follow"},
		{write("s-env-none", "#!/usr/bin/env\n"), "cannot follow"},
		{write("s-env-path", "#!/usr/bin/env "+hard+"\n"), "same file as " + snake},
		{write("s-hard", "#!"+hard+"\n"), "same file as " + snake},
		{write("s-nested", "#!"+filepath.Join(dir, "s-sh")+"\n"), "is a script run by " + filepath.Join(dir, "s-sh")},
		{write("s-crlf", "#!/usr/bin/perl\r\n"), ""}, // the interpreter is "/usr/bin/perl\r", which does not exist: exec fails
		{write("s-perl-arch", "#!/usr/bin/perl5.36-x86_64-linux-gnu\n"), `entry "perl"`},
		{write("s-relative", "#!bin/evil\n"), `interpreter "bin/evil" is a relative path`},
		{write("s-relative-bare", "#!evil\n"), `interpreter "evil" is a relative path`},
		{write("s-env-relative", "#!/usr/bin/env ./evil\n"), `by "./evil", a relative path`},
	}
	// Four interpreters deep is as far as the kernel goes.
	prev := innocent
	for i := range 6 {
		prev = write("deep"+string(rune('a'+i)), "#!"+prev+"\n")
	}
	cases = append(cases, struct{ path, want string }{prev, "more than 4 deep"})
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		cases = append(cases, struct{ path, want string }{link("py", "/usr/bin/python3"), "python"})
	}
	for _, tc := range cases {
		why, denied := DeniedProgram(tc.path)
		if tc.want == "" {
			assert.False(t, denied, "%s: %s", tc.path, why)
			continue
		}
		if assert.True(t, denied, tc.path) {
			assert.Contains(t, why, tc.want, tc.path)
		}
	}
	for _, p := range []string{innocent, write("plain", "echo\n"), write("s-env-ok", "#!/usr/bin/env true\n"),
		write("s-true", "#!/usr/bin/true\n"), filepath.Join(dir, "missing"), dir} {
		why, denied := DeniedProgram(p)
		assert.False(t, denied, "%s: %s", p, why)
	}
	// pdb3 is a Python script: denied for its interpreter even where pdb
	// itself is taken off the list.
	if _, err := os.Stat("/usr/bin/pdb3"); err == nil {
		why, denied := DefaultDenyList().Without("pdb*", "pdb").Program("/usr/bin/pdb3")
		assert.True(t, denied)
		assert.Contains(t, why, "is a script run by")
	}
	// The same-file index follows the directory: a denied program added
	// after the first look is found.
	late := write("lateprog", "\x7fELF\n")
	_, denied := DeniedProgram(late)
	require.False(t, denied)
	require.NoError(t, os.Link(late, filepath.Join(dir, "ruby3")))
	why, denied := DeniedProgram(late)
	assert.True(t, denied, "hard link to ruby3 added later")
	assert.Contains(t, why, "ruby3")
}

// TestProgramServerNamesOfGit: git's server programs are links to git
// (symlinks or hard links), denied under their own names only; git is not
// denied for sharing its file with them.
func TestProgramServerNamesOfGit(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	git := filepath.Join(dir, "git")
	require.NoError(t, os.WriteFile(git, []byte("\x7fELF not really\n"), 0o755))
	// Symlinks on Debian; a hard link where a packager makes one.
	require.NoError(t, os.Symlink("git", filepath.Join(dir, "git-receive-pack")))
	require.NoError(t, os.Symlink("git", filepath.Join(dir, "git-upload-pack")))
	require.NoError(t, os.Link(git, filepath.Join(dir, "git-upload-archive")))
	for _, name := range []string{"git-receive-pack", "git-upload-pack", "git-upload-archive"} {
		why, denied := DeniedProgram(filepath.Join(dir, name))
		assert.True(t, denied, name)
		assert.Contains(t, why, name)
	}
	why, denied := DeniedProgram(git)
	assert.False(t, denied, "git denied for sharing its file with its server names: %s", why)
}

// TestProgramDeniedAlias: a denied symlink to the very file a path names
// (gmake -> make, with make allowed) is another name of the program the
// caller chose, whatever the file's link count; a hard link under an
// innocent name to a file that a denied symlink points to is still the
// denied program.
func TestProgramDeniedAlias(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	mk := filepath.Join(dir, "mymake")
	require.NoError(t, os.WriteFile(mk, []byte("\x7fELF\n"), 0o755))
	require.NoError(t, os.Link(mk, filepath.Join(dir, "mymake-cache")))
	require.NoError(t, os.Symlink("mymake", filepath.Join(dir, "ruby9")))
	_, denied := DeniedProgram(filepath.Join(dir, "ruby9"))
	require.True(t, denied, "ruby9 is denied by name")
	why, denied := DeniedProgram(mk)
	assert.False(t, denied, "a denied alias of the named file denies it: %s", why)

	awk := filepath.Join(dir, "myawk")
	require.NoError(t, os.WriteFile(awk, []byte("\x7fELF\n"), 0o755))
	require.NoError(t, os.Symlink("myawk", filepath.Join(dir, "perl9")))
	lister := filepath.Join(dir, "lister")
	require.NoError(t, os.Link(awk, lister))
	why, denied = DeniedProgram(lister)
	assert.True(t, denied, "a hard link to the file of a denied symlink")
	assert.Contains(t, why, "perl9")
}

func TestProgramName(t *testing.T) {
	for in, want := range map[string]string{
		"perl5.36-x86_64-linux-gnu":          "perl5.36",
		"/usr/bin/perl5.36-x86_64-linux-gnu": "perl5.36",
		"cpan5.36-x86_64-linux-gnu":          "cpan5.36",
		"x86_64-linux-gnu-python3.11-config": "python3.11-config",
		"x86_64-linux-gnu-gcc-12":            "gcc-12",
		"aarch64-linux-gnu-ld":               "ld",
		"arm-linux-gnueabihf-gdb":            "gdb",
		"i686-pc-linux-gnu-perl":             "perl",
		"python3.11":                         "python3.11",
		"x86_64":                             "x86_64",
		"i386":                               "i386",
		"x86_64-linux-gnu":                   "x86_64-linux-gnu",
		"ruby-riscv64":                       "ruby",
		"git-upload-pack":                    "git-upload-pack",
		"ssh-keygen":                         "ssh-keygen",
		"":                                   "",
	} {
		assert.Equal(t, want, ProgramName(in), in)
	}
	d := NewDenyList("perl", "cpan", "gdb")
	for _, name := range []string{"perl5.36-x86_64-linux-gnu", "cpan5.36-x86_64-linux-gnu", "arm-linux-gnueabihf-gdb", "x86_64-linux-gnu-perl"} {
		_, denied := d.Match(name)
		assert.True(t, denied, name)
	}
	for _, name := range []string{"perldoc-x86_64-linux-gnu", "git-x86_64"} {
		_, denied := d.Match(name)
		assert.False(t, denied, name)
	}
}

func TestProgramConcurrent(t *testing.T) {
	paths := installed("/usr/bin/grep", "/usr/bin/python3", "/usr/bin/egrep", "/usr/bin/ls")
	done := make(chan bool)
	for range 8 {
		go func() {
			for range 50 {
				for _, p := range paths {
					DeniedProgram(p)
				}
			}
			done <- true
		}()
	}
	for range 8 {
		<-done
	}
}
