package kernel

import (
	"errors"
	"strings"
	"testing"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

// TestDefaultPathFor: each system's default PATH, never the host's.
func TestDefaultPathFor(t *testing.T) {
	for _, c := range []struct {
		goos string
		env  map[string]string
		want string
		err  string
	}{
		{goos: "linux", env: map[string]string{"PATH": "/home/u/bin:/usr/bin"}, want: "/usr/local/bin:/usr/bin:/bin"},
		{goos: "freebsd", want: DefaultPath},
		{goos: "darwin", env: map[string]string{"PATH": "/evil"}, want: "/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin"},
		{goos: "windows", env: map[string]string{"SystemRoot": `C:\Windows`, "PATH": `C:\evil`},
			want: `C:\Windows\System32;C:\Windows;C:\Windows\System32\Wbem`},
		{goos: "windows", env: map[string]string{"SystemRoot": `D:\WINNT\`}, want: `D:\WINNT\System32;D:\WINNT;D:\WINNT\System32\Wbem`},
		{goos: "windows", err: `%SystemRoot% is "", not an absolute directory`},
		{goos: "windows", env: map[string]string{"SystemRoot": `Windows`}, err: `%SystemRoot% is "Windows"`},
		{goos: "windows", env: map[string]string{"SystemRoot": `C:`}, err: "not an absolute directory"},
		{goos: "windows", env: map[string]string{"SystemRoot": `C:\`}, err: "not an absolute directory"},
	} {
		got, err := DefaultPathFor(c.goos, env(c.env))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrNoDefaultPath) || !strings.Contains(err.Error(), "--path") {
				t.Errorf("%s %v: err %v, want one containing %q and naming --path", c.goos, c.env, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %v: %q, %v; want %q", c.goos, c.env, got, err, c.want)
		}
		if _, err := splitPathOn(c.goos, got); err != nil {
			t.Errorf("%s: the default %q does not split: %v", c.goos, got, err)
		}
	}
}

// TestSplitPathOn: the separator and what is absolute are the system's.
func TestSplitPathOn(t *testing.T) {
	for _, c := range []struct {
		goos, path string
		want       []string
		err        string
	}{
		{"linux", "/a:/b", []string{"/a", "/b"}, ""},
		{"linux", "/a::/b", nil, `PATH entry "" is not absolute`},
		{"linux", "/a:bin", nil, `PATH entry "bin" is not absolute`},
		{"linux", `C:\x`, nil, "not absolute"},
		{"linux", "", nil, "PATH is empty"},
		{"darwin", "/opt/homebrew/bin:/usr/bin", []string{"/opt/homebrew/bin", "/usr/bin"}, ""},
		{"windows", `C:\Windows\System32;D:/tools;\\srv\share\bin`, []string{`C:\Windows\System32`, "D:/tools", `\\srv\share\bin`}, ""},
		{"windows", `C:\a:C:\b`, nil, "holds ':' after the drive"}, // ':' does not separate there
		{"windows", `C:\a;;C:\b`, nil, `PATH entry ""`},
		{"windows", `C:bin`, nil, "not absolute"},
		{"windows", `\bin`, nil, "not absolute"},
		{"windows", `/usr/bin`, nil, "not absolute"},
		{"windows", `\\`, nil, "not absolute"},
	} {
		got, err := splitPathOn(c.goos, c.path)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %q: %v, %v; want error %q", c.goos, c.path, got, err, c.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s %q: %q, %v; want %q", c.goos, c.path, got, err, c.want)
		}
	}
}

// TestCommandNames: on Windows a bare name is tried with .com and .exe in
// %PATHEXT%'s order, and a script extension (run through cmd.exe or another
// interpreter) is refused; elsewhere a name is itself.
func TestCommandNames(t *testing.T) {
	for _, c := range []struct {
		goos, name, pathext string
		want                []string
		err                 string
	}{
		{"linux", "git", ".EXE", []string{"git"}, ""},
		{"linux", "run.bat", "", []string{"run.bat"}, ""},
		{"darwin", "grep", "", []string{"grep"}, ""},
		{"windows", "git", "", []string{"git.com", "git.exe"}, ""},
		{"windows", "git", ".EXE;.BAT;.COM", []string{"git.exe", "git.com"}, ""},
		{"windows", "git.exe", "", []string{"git.exe"}, ""},
		{"windows", "GIT.EXE", "", []string{"GIT.EXE"}, ""},
		{"windows", "python3.11", ".COM;.EXE", []string{"python3.11.com", "python3.11.exe"}, ""},
		{"windows", "build.bat", "", nil, "through cmd.exe, a shell"},
		{"windows", "build.CMD", "", nil, "interpreter"},
		{"windows", "x.vbs", "", nil, "interpreter"},
		{"windows", "git", ".BAT;.CMD", nil, "names neither .exe nor .com"},
		{"windows", "git", "EXE;;", nil, "names neither .exe nor .com"},
	} {
		got, err := commandNames(c.goos, c.name, c.pathext)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrNotExecutable) {
				t.Errorf("%s %q (PATHEXT %q): %v, %v; want ErrNotExecutable with %q", c.goos, c.name, c.pathext, got, err, c.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s %q (PATHEXT %q): %q, %v; want %q", c.goos, c.name, c.pathext, got, err, c.want)
		}
	}
}

// TestSeparatorsAndRunnable: what makes a name a path, and a file a
// program, on each system.
func TestSeparatorsAndRunnable(t *testing.T) {
	for _, c := range []struct {
		goos, name string
		want       bool
	}{
		{"linux", "a/b", true}, {"linux", `a\b`, false}, {"linux", "c:x", false},
		{"windows", "a/b", true}, {"windows", `a\b`, true}, {"windows", "c:x", true}, {"windows", "git", false},
	} {
		if got := hasSeparator(c.goos, c.name); got != c.want {
			t.Errorf("hasSeparator(%s, %q) = %v", c.goos, c.name, got)
		}
	}
	for _, c := range []struct {
		goos, name string
		perm       uint32
		want       bool
	}{
		{"linux", "/usr/bin/git", 0o755, true}, {"linux", "/usr/bin/git", 0o644, false}, {"darwin", "/x/git.exe", 0o644, false},
		{"windows", `C:\git\git.exe`, 0o666, true}, {"windows", `C:\git\GIT.COM`, 0o444, true},
		{"windows", `C:\x\run.bat`, 0o777, false}, {"windows", `C:\x\git`, 0o777, false},
	} {
		if got := runnableFile(c.goos, c.name, c.perm); got != c.want {
			t.Errorf("runnableFile(%s, %q, %o) = %v", c.goos, c.name, c.perm, got)
		}
	}
}

// FuzzCommandNames: whatever the name and %PATHEXT%, a Windows lookup tries
// only names that start with the name and run without an interpreter, and
// elsewhere the name alone.
func FuzzCommandNames(f *testing.F) {
	for _, s := range [][2]string{{"git", ""}, {"x.bat", ".BAT;.EXE"}, {"a.exe", ".exe"}, {"p.EXE.bat", ""}, {"", ";;"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, pathext string) {
		if got, err := commandNames("linux", name, pathext); err != nil || len(got) != 1 || got[0] != name {
			t.Fatalf("linux %q: %q %v", name, got, err)
		}
		got, err := commandNames("windows", name, pathext)
		if err != nil {
			if len(got) != 0 || !errors.Is(err, ErrNotExecutable) {
				t.Fatalf("windows %q %q: %q with %v", name, pathext, got, err)
			}
			return
		}
		for _, n := range got {
			if !strings.HasPrefix(n, name) || !runnableFile("windows", n, 0) {
				t.Fatalf("windows %q %q: tries %q", name, pathext, n)
			}
		}
	})
}

// FuzzSplitPathOn: every entry of an accepted PATH is absolute on its
// system, and the entries joined give the PATH back.
func FuzzSplitPathOn(f *testing.F) {
	for _, s := range []string{"/a:/b", `C:\a;D:\b`, "", "::", `\\s\x;C:`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		for goos, sep := range map[string]string{"linux": ":", "windows": ";"} {
			dirs, err := splitPathOn(goos, path)
			if err != nil {
				continue
			}
			for _, d := range dirs {
				if !isAbsOn(goos, d) {
					t.Fatalf("%s %q: entry %q is not absolute", goos, path, d)
				}
			}
			if strings.Join(dirs, sep) != path {
				t.Fatalf("%s %q: entries %q", goos, path, dirs)
			}
		}
	})
}

// TestBuildEnvOn: on Windows a child gets the system entries it cannot run
// without (SystemRoot, windir, SystemDrive, PATHEXT) and the Windows home
// keys name the private directory; elsewhere neither, and an extra cannot
// set a home key of its system.
func TestBuildEnvOn(t *testing.T) {
	host := env(map[string]string{"SystemRoot": `C:\Windows\`, "SystemDrive": "C:", "USERPROFILE": `C:\Users\me`, "APPDATA": `C:\x`})
	got, err := buildEnvOn("windows", host, `C:\Windows\System32`, `C:\tg\home`, []string{"GIT_TERMINAL_PROMPT=0"})
	if err != nil {
		t.Fatal(err)
	}
	joined := "\n" + strings.Join(got, "\n") + "\n"
	for _, want := range []string{`SystemRoot=C:\Windows`, `windir=C:\Windows`, "SystemDrive=C:", "PATHEXT=.COM;.EXE",
		`USERPROFILE=C:\tg\home`, `APPDATA=C:\tg\home`, `LOCALAPPDATA=C:\tg\home`, `TEMP=C:\tg\home`, `TMP=C:\tg\home`,
		`HOME=C:\tg\home`, "GIT_TERMINAL_PROMPT=0"} {
		if !strings.Contains(joined, "\n"+want+"\n") {
			t.Errorf("windows env lacks %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, `C:\Users\me`) || strings.Contains(joined, `APPDATA=C:\x`) {
		t.Errorf("the host's profile reached the child:\n%s", joined)
	}
	bad := env(map[string]string{"SystemRoot": `Windows`, "SystemDrive": "C:\\x"})
	got, _ = buildEnvOn("windows", bad, `C:\p`, `C:\h`, nil)
	if j := strings.Join(got, "\n"); strings.Contains(j, "SystemRoot=") || strings.Contains(j, "SystemDrive=") {
		t.Errorf("a SystemRoot or SystemDrive that is not Windows' own was passed on:\n%s", j)
	}
	if _, err := buildEnvOn("windows", host, `C:\p`, `C:\h`, []string{`USERPROFILE=C:\evil`}); err == nil {
		t.Error("an extra set USERPROFILE on windows")
	}
	got, err = buildEnvOn("linux", host, "/usr/bin:/bin", "/tmp/h", []string{"USERPROFILE=x"})
	if err != nil {
		t.Fatal(err)
	}
	if j := strings.Join(got, "\n"); strings.Contains(j, "SystemRoot") || strings.Contains(j, "PATHEXT") || !strings.Contains(j, "USERPROFILE=x") {
		t.Errorf("linux env:\n%s", j)
	}
}
