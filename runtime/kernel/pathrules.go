package kernel

import (
	"errors"
	"fmt"
	"strings"
)

// How each operating system finds a command, as pure functions of GOOS (and
// of the environment variables they read, passed in), so that the rules of
// every system are tested on any one.
//
// Linux and the BSDs: DefaultPath, entries separated by ':', a command is a
// regular file with an execute bit.
//
// macOS: the same, with Homebrew's directories first: /opt/homebrew/bin
// (Apple silicon) and /usr/local/bin (Intel), where git, grep and the other
// programs a tool names are installed when the system's are too old.
//
// Windows: %SystemRoot%\System32, %SystemRoot% and %SystemRoot%\System32\Wbem
// (the system's own PATH), entries separated by ';', absolute as C:\dir or
// \\server\share. A bare name is looked up with the extensions of %PATHEXT%
// in its order, keeping only .com and .exe: a .bat or .cmd file runs through
// cmd.exe, a shell, which toolgen never runs (a name that asks for one is
// refused), and Windows keeps no execute bit, so the extension decides.

// DarwinPath is the default PATH on macOS.
const DarwinPath = "/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin"

// windowsPathExt is %PATHEXT% when it is not set: Windows' own default.
const windowsPathExt = ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC"

// ErrNoDefaultPath is wrapped by DefaultPathFor's error when a system gives
// no default PATH to derive (Windows without %SystemRoot%).
var ErrNoDefaultPath = errors.New("no default PATH")

// DefaultPathFor returns the PATH a kernel gives its children on goos when
// WithPath is not used: DefaultPath on Linux and the other Unix systems,
// DarwinPath on macOS, and on Windows the system's directories under
// %SystemRoot% (getenv("SystemRoot")), which must be set and absolute. The
// host's PATH is never used.
func DefaultPathFor(goos string, getenv func(string) string) (string, error) {
	switch goos {
	case "darwin", "ios":
		return DarwinPath, nil
	case "windows":
		root := strings.TrimRight(getenv("SystemRoot"), `\/`)
		if !isAbsOn(goos, root) {
			return "", fmt.Errorf("kernel: %w on windows: %%SystemRoot%% is %q, not an absolute directory such as C:\\Windows; "+
				"give the PATH with WithPath (the CLI's --path)", ErrNoDefaultPath, getenv("SystemRoot"))
		}
		return root + `\System32;` + root + `;` + root + `\System32\Wbem`, nil
	}
	return DefaultPath, nil
}

// systemEnvFor returns what a child needs of the system's environment on
// goos beyond PATH, the locale and the home keys: on Windows SystemRoot and
// windir (the C runtime, Winsock and the crypto libraries fail without
// them), SystemDrive, and PATHEXT as the kernel looks commands up
// (.COM;.EXE); nothing elsewhere. A value the host does not set, or that
// is not what Windows sets there, is left out.
func systemEnvFor(goos string, getenv func(string) string) []string {
	if goos != "windows" {
		return nil
	}
	env := []string{"PATHEXT=.COM;.EXE"}
	if root := strings.TrimRight(getenv("SystemRoot"), `\/`); isAbsOn(goos, root) {
		env = append(env, "SystemRoot="+root, "windir="+root)
	}
	if d := getenv("SystemDrive"); len(d) == 2 && d[1] == ':' && isLetter(d[0]) {
		env = append(env, "SystemDrive="+d)
	}
	return env
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// splitPathOn splits path into its entries as goos separates them, and
// refuses an empty path and an entry that is empty or not absolute there.
func splitPathOn(goos, path string) ([]string, error) {
	if path == "" {
		return nil, errors.New("kernel: PATH is empty")
	}
	sep := ":"
	if goos == "windows" {
		sep = ";"
	}
	dirs := strings.Split(path, sep)
	for _, d := range dirs {
		if !isAbsOn(goos, d) {
			return nil, fmt.Errorf("kernel: PATH entry %q is not absolute", d)
		}
		if goos == "windows" && strings.Contains(d[2:], ":") {
			// Past the drive, ':' names an alternate data stream, or a
			// PATH written with Unix separators.
			return nil, fmt.Errorf("kernel: PATH entry %q holds ':' after the drive (Windows separates entries with ';')", d)
		}
	}
	return dirs, nil
}

// isAbsOn reports whether p is an absolute path on goos.
func isAbsOn(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") {
		return len(p) > 2 // \\server\share
	}
	return len(p) >= 3 && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// hasSeparator reports whether name holds a path separator on goos (then it
// is a path, not a name to look up).
func hasSeparator(goos, name string) bool {
	if goos == "windows" {
		return strings.ContainsAny(name, `/\:`)
	}
	return strings.ContainsRune(name, '/')
}

// commandNames returns the file names a bare command name stands for on
// goos, in the order they are tried: the name itself off Windows; on
// Windows, the name with each .com and .exe extension of pathext (%PATHEXT%;
// Windows' default when empty), in pathext's order, or the name alone when
// it already ends in one of them. A name ending in another extension of
// pathext (.bat, .cmd, .vbs …), which Windows would run through an
// interpreter, is an error wrapping ErrNotExecutable.
func commandNames(goos, name, pathext string) ([]string, error) {
	if goos != "windows" {
		return []string{name}, nil
	}
	if pathext == "" {
		pathext = windowsPathExt
	}
	var runnable []string
	lower := strings.ToLower(name)
	for _, ext := range strings.Split(strings.ToLower(pathext), ";") {
		if ext == "" || ext[0] != '.' {
			continue
		}
		direct := ext == ".exe" || ext == ".com"
		if strings.HasSuffix(lower, ext) {
			if !direct {
				return nil, fmt.Errorf("%w: %s runs through an interpreter (a .bat or .cmd file through cmd.exe, a shell), which toolgen never runs; "+
					"on Windows only .exe and .com files run", ErrNotExecutable, name)
			}
			return []string{name}, nil
		}
		if direct {
			runnable = append(runnable, name+ext)
		}
	}
	if len(runnable) == 0 {
		return nil, fmt.Errorf("%w: %%PATHEXT%% (%s) names neither .exe nor .com, so no file runs without an interpreter", ErrNotExecutable, pathext)
	}
	return runnable, nil
}

// runnableFile reports whether a regular file of mode perm named name is a
// program goos runs directly: an execute bit off Windows; on Windows, which
// keeps no execute bit, a name ending in .exe or .com.
func runnableFile(goos, name string, perm uint32) bool {
	if goos != "windows" {
		return perm&0o111 != 0
	}
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, ".exe") || strings.HasSuffix(lower, ".com")
}
