package programs

import (
	"hash/fnv"
	"path"
	"sort"
	"strings"
	"sync"
)

// DenyList is a set of binaries no command tool may run.
//
// A binary is matched on its normalised name (BinaryName: the last path
// element, lower-cased, with a Windows executable suffix and trailing dots
// removed), so "/bin/rm", "RM", "../../bin/rm" and `C:\bin\Rm.EXE` are all
// "rm". An entry matches a name in one of two ways:
//
//   - a plain entry ("rm", "perl") matches the name itself and the name
//     followed by a version suffix made only of digits, '.', '-' and '_'
//     ("perl5.36.0", "bash5", "python3.11" for "python"), but no other
//     extension: "rm" does not deny "rmdir" or "rm.sh", "env" does not deny
//     "envsubst", "timeout" does not deny "timeouts", "shred" does not deny
//     "shredder", "sh" does not deny "ssh-keygen" or "shasum";
//   - an entry ending in '*' ("python*", "mkfs*") is a prefix and matches
//     every name that begins with what precedes the '*' ("pythonw",
//     "python3-config", "mkfs.ext4"); "*" alone matches every name.
//
// Entries are normalised like names when added, so With("/usr/bin/Foo.exe")
// denies "foo". The zero value denies nothing; use DefaultDenyList. A
// DenyList is immutable: With and Without return copies.
type DenyList struct {
	entries []string // lower case, sorted, unique
	// byFirst holds the entries by their first byte, so Match looks at the
	// few that can match; "*" (which matches every name) is in every bucket.
	byFirst *[256][]string
	key     uint64 // identifies the entries in caches (FNV-1a of them)
}

// defaultDenied is the deny list of DESIGN.md §5 and the seed's denyBinaries:
// destructive commands, privilege changers, process killers, every shell,
// exec-wrappers that run their arguments as a command, and interpreters that
// run code given on their command line or in a file of the workspace. Where
// Landlock cannot restrict what the child may execute, this list is the only
// guard against "one allowed binary runs another", so it errs on the side of
// denying (issue 11 §3).
var defaultDenied = []string{
	// destructive and privileged
	"rm", "rmdir", "dd", "mkfs*", "shred", "sudo", "sudoedit", "su", "doas", "pkexec", "runuser",
	"chmod", "chown", "chgrp", "kill", "pkill", "killall", "shutdown", "reboot", "halt", "poweroff",
	"newgrp", "setcap", "capsh",
	// shells
	"sh", "ash", "bash", "bash-static", "rbash", "zsh", "zsh-static", "dash", "ksh", "mksh", "oksh",
	"yash", "fish", "csh", "tcsh", "busybox", "toybox", "pwsh", "powershell", "cmd", "wsl",
	// exec-wrappers: they run their arguments (or a program named in them)
	// as a command
	"env", "xargs", "nohup", "timeout", "nice", "ionice", "setsid", "stdbuf", "strace",
	"ltrace", "gdb", "chroot", "unshare", "nsenter", "time", "watch", "script",
	"setpriv", "sg", "chrt", "taskset", "flock", "parallel", "expect", "exec", "command", "builtin", "eval",
	"systemd-run", "systemd-nspawn", "npx", "bunx", "prlimit", "heaptrack", "valgrind*", "perf", "numactl",
	"run-parts", "start-stop-daemon", "runcon", "chpst", "softlimit", "setuidgid", "envdir", "envuidgid",
	"faketime", "fakeroot*", "eatmydata", "firejail", "bwrap", "proot", "catchsegv", "unbuffer",
	"rlwrap", "ssh-agent", "dbus-launch", "dbus-run-session", "xvfb-run", "cpulimit", "trickle",
	"proxychains*", "torsocks", "tsocks", "screen", "tmux", "dtach", "at", "batch", "crontab",
	"sem", "pexec", "daemonize", "sudo-rs", "torify", "ld-linux*", "uftrace", "rr", "bpftrace",
	"lldb*", "cgexec", "ip", "vipw", "visudo",
	// more exec-wrappers (found by attack: each ran a workspace script with
	// confinement off): util-linux's choom and uclampset, hyperfine (runs
	// its arguments, with or without a shell), systemd's cat, inhibit and
	// socket-activate, scriptlive (runs a shell), gettext's msgexec and
	// msgfilter, LLVM's lli and llvm-jitlink (run code from a file),
	"choom", "uclampset", "hyperfine", "systemd-cat", "systemd-inhibit", "systemd-socket-activate",
	"scriptlive", "msgexec", "msgfilter", "lli*", "llvm-jitlink*",
	// GnuPG: gpg-connect-agent -E runs its arguments, gpgtar --gpg runs the
	// named program
	"gpg-connect-agent", "gpgtar",
	// the JDK's launchers pass -J options to their JVM, and
	// -J-javaagent:x.jar runs Java code of the workspace
	"javac", "javadoc", "javap", "jar", "jarsigner", "jcmd", "jconsole", "jdeprscan", "jdeps", "jfr", "jhsdb",
	"jimage", "jinfo", "jlink", "jmap", "jmod", "jpackage", "jps", "jstack", "jstat", "jstatd", "jwebserver",
	"keytool", "rmiregistry", "serialver", "jexec",
	// compiler drivers: -wrapper PROG, -B DIR (runs DIR/cc1, DIR/as …),
	// -fplugin=x.so and specs files run what the arguments name
	"gcc*", "g++*", "cc", "c++", "c89*", "c99*", "cpp*", "clang*", "x86_64-linux-gnu-gcc*",
	"x86_64-linux-gnu-g++*", "x86_64-linux-gnu-cpp*", "aarch64-linux-gnu-gcc*", "aarch64-linux-gnu-g++*",
	"aarch64-linux-gnu-cpp*",
	// linkers and LLVM's drivers load a plugin named on the command line
	// (ld -plugin x.so, opt -load x.so, llc -load x.so): Landlock does not
	// check the mapping of a readable file, so this ran a workspace library
	// under --confine strict; bugpoint runs programs
	"ld", "ld.bfd", "ld.gold", "gold", "ld.lld*", "lld*", "x86_64-linux-gnu-ld*", "x86_64-linux-gnu-gold",
	"aarch64-linux-gnu-ld*", "opt", "llc", "bugpoint",
	// setarch and its aliases: the personality wrapper runs its argument
	// (x86_64 sh -c …); util-linux installs it under the architecture names
	"setarch", "linux32", "linux64", "uname26", "i386", "i486", "i586", "i686", "athlon",
	"x86_64", "ia64", "ppc", "ppc32", "ppc64", "ppc64le", "ppc64pseries", "ppc64iseries",
	"s390", "s390x", "sparc", "sparc32", "sparc32bash", "sparc64", "mips", "mips32", "mips64",
	"arm", "armv7l", "armv8l", "armh", "aarch64", "arm64", "parisc", "parisc32", "parisc64",
	"alpha", "alphaev5", "alphaev56", "alphaev6", "alphaev67", "loongarch", "loongarch64",
	"riscv32", "riscv64", "e2k",
	// the dynamic loader runs the program named by its first argument
	// (ld.so /usr/bin/rm -rf x), whatever the deny list says of that program
	"ld.so", "ld64.so*", "ld-musl*",
	// interpreters: they run code from their arguments or from a file of
	// the workspace (python setup.py), which the repository wrote
	"python*", "pypy*", "ipython*", "jupyter*", "pdb*", "perl", "cpan*", "ruby", "irb", "jruby", "truffleruby", "erb", "gem",
	"node", "nodejs", "deno", "bun", "php", "lua", "luajit", "tclsh*", "wish*", "expectk", "osascript",
	"awk", "gawk", "mawk", "nawk", "original-awk", "goawk", "frawk",
	"cscript", "wscript", "mshta", "guile*", "racket", "sbcl", "clisp", "ecl", "gcl", "ocaml*",
	"ghc*", "runghc", "runhaskell", "stack", "cabal", "julia", "r", "rscript", "octave*", "scilab*",
	"java", "jshell", "jrunscript", "jjs", "groovy*", "scala*", "kotlin*", "clojure", "clj", "lein",
	"dotnet", "mono", "csi", "fsi", "swift", "elixir", "iex", "erl", "escript",
	"crystal", "nim", "v", "zig", "tcc", "gnuplot", "maxima", "gp", "sage", "qjs", "rhino",
	"jython", "ruby-*", "m4", "dc", "nix*", "vagrant",
	// editors and database shells with a command or shell escape reached
	// from their arguments (vim -c '!sh', ed '!cmd', sqlite3 x '.system cmd').
	// Pagers and man are left to ExecTool's flag table (less is refused
	// whatever its arguments, man -P is refused): with stdin at /dev/null
	// their interactive '!' cannot be reached.
	"ed", "red", "ex", "vi", "vim*", "rvim", "view", "rview", "nvim*", "gvim*", "evim", "vimdiff",
	"emacs*", "nano", "rnano", "pico", "joe", "jed", "mg", "kak", "helix", "hx", "micro",
	"info", "pinfo", "mutt", "neomutt", "mail", "mailx", "ftp", "lftp",
	"sqlite*", "mysql", "mariadb", "psql", "duckdb", "redis-cli", "mongo", "mongosh", "cqlsh",
	"gdbserver", "pdb", "jdb", "dlv", "ipdb",
	// build tools and package managers: they run the repository's own
	// recipes, scripts and build files (make, cargo build.rs, npm run …)
	"make", "gmake", "bmake", "pmake", "remake", "ninja", "samu", "cmake", "ctest", "cpack",
	"meson", "scons", "bazel*", "buck*", "gradle*", "mvn", "ant", "sbt", "rake", "bundle", "bundler",
	"cargo", "rustup", "npm", "pnpm", "pnpx", "yarn*", "corepack", "pip*", "pipx", "poetry", "uv", "uvx",
	"tox", "nox", "pytest*", "composer", "go", "dpkg*", "apt*", "rpm*", "yum", "dnf",
	"snap", "flatpak", "docker*", "podman*", "kubectl", "helm", "terraform", "ansible*", "chef*",
	"puppet", "salt*", "git-shell", "nc", "ncat", "netcat", "socat", "busctl", "systemctl", "service", "openrc", "initctl", "loginctl", "machinectl",
}

// DefaultDenyList returns the default deny list. Assembling code may extend
// it (With) or narrow it explicitly (Without).
func DefaultDenyList() DenyList { return defaultDenyList() }

// defaultDenyList is built once, on first use: a DenyList is immutable, so
// sharing it is safe, and validating a Spec does not rebuild it.
var defaultDenyList = sync.OnceValue(func() DenyList { return NewDenyList(defaultDenied...).With(runnerEntries()...) })

// NewDenyList returns a deny list of exactly entries.
func NewDenyList(entries ...string) DenyList { return DenyList{}.With(entries...) }

// With returns a copy of d that also denies entries. Each entry is
// normalised like a binary name (see BinaryName), keeping a trailing '*'.
func (d DenyList) With(entries ...string) DenyList {
	if len(entries) == 0 && d.byFirst != nil {
		return d // immutable: nothing to add, nothing to rebuild
	}
	set := make(map[string]bool, len(d.entries)+len(entries))
	for _, e := range d.entries {
		set[e] = true
	}
	for _, e := range entries {
		if e = normEntry(e); e != "" {
			set[e] = true
		}
	}
	return fromSet(set)
}

// Without returns a copy of d that no longer denies entries. An entry is
// removed when it is written the same way after normalisation ("python*"
// removes "python*"; "python3" removes nothing, as it is no entry).
func (d DenyList) Without(entries ...string) DenyList {
	if len(entries) == 0 {
		return d // immutable: nothing to remove, nothing to rebuild
	}
	set := make(map[string]bool, len(d.entries))
	for _, e := range d.entries {
		set[e] = true
	}
	for _, e := range entries {
		delete(set, normEntry(e))
	}
	return fromSet(set)
}

// normEntry normalises a deny-list entry as BinaryName does a name, keeping
// a trailing '*'.
func normEntry(e string) string {
	e = strings.TrimSpace(e)
	if prefix, ok := strings.CutSuffix(e, "*"); ok {
		return strings.ToLower(baseName(prefix)) + "*" // "*" alone denies every binary
	}
	return BinaryName(e)
}

func fromSet(set map[string]bool) DenyList {
	out := make([]string, 0, len(set))
	for e := range set {
		out = append(out, e)
	}
	sort.Strings(out)
	d := DenyList{entries: out, byFirst: new([256][]string)}
	h := fnv.New64a()
	for _, e := range out {
		h.Write([]byte(e + "\n"))
		if e == "*" {
			for i := range d.byFirst {
				d.byFirst[i] = append(d.byFirst[i], e)
			}
			continue
		}
		d.byFirst[e[0]] = append(d.byFirst[e[0]], e)
	}
	d.key = h.Sum64()
	return d
}

// Entries returns the entries, sorted.
func (d DenyList) Entries() []string { return append([]string(nil), d.entries...) }

// Match reports whether binary is denied and by which entry. binary may be a
// bare name or a path; it is normalised first (see BinaryName), and its
// program name (ProgramName: a Debian multiarch triplet removed, so
// "perl5.36-x86_64-linux-gnu" is matched as "perl5.36") is matched too.
// Match judges a name only; Program judges the file a path resolves to.
func (d DenyList) Match(binary string) (entry string, denied bool) {
	name := BinaryName(binary)
	if e, ok := d.match(name); ok {
		return e, true
	}
	if strings.IndexByte(name, '-') < 0 {
		return "", false // no triplet to remove
	}
	if prog := ProgramName(name); prog != name {
		return d.match(prog)
	}
	return "", false
}

// match looks name up among the entries that can match it.
func (d DenyList) match(name string) (string, bool) {
	if d.byFirst == nil || name == "" {
		for _, e := range d.entries { // the zero value, or "" against "*"
			if matchEntry(e, name) {
				return e, true
			}
		}
		return "", false
	}
	for _, e := range d.byFirst[name[0]] {
		if matchEntry(e, name) {
			return e, true
		}
	}
	return "", false
}

// BinaryName normalises a command's first word to the name the deny list is
// matched against: the last element of the cleaned path (backslashes count as
// separators, a drive letter and an NTFS stream suffix ":…" are dropped),
// lower-cased, with trailing dots and spaces and Windows executable suffixes
// (.exe .com .bat .cmd) removed, repeatedly, as Windows resolves "cmd.exe."
// to "cmd.exe".
func BinaryName(binary string) string {
	s := strings.ToLower(baseName(binary))
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	for {
		prev := s
		s = strings.TrimRight(s, ". ")
		for _, ext := range []string{".exe", ".com", ".bat", ".cmd"} {
			s = strings.TrimSuffix(s, ext)
		}
		if s == prev {
			return s
		}
	}
}

// baseName returns the last element of path p, with backslashes as
// separators and a leading drive letter ("C:") dropped; "" when there is
// none.
func baseName(p string) string {
	if !strings.ContainsAny(p, `/\`) {
		// A bare name, as every directory entry is: what the general
		// case below works out, without its allocations.
		s := p
		if len(s) >= 2 && s[1] == ':' && (s[0]|0x20) >= 'a' && (s[0]|0x20) <= 'z' {
			s = s[2:]
		}
		if s == "." || s == ".." {
			return ""
		}
		return s
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if len(s) >= 2 && s[1] == ':' && (s[0]|0x20) >= 'a' && (s[0]|0x20) <= 'z' {
		s = s[2:]
	}
	s = path.Base(path.Clean("/" + s))
	if s == "/" {
		return ""
	}
	return s
}

func matchEntry(entry, name string) bool {
	if prefix, ok := strings.CutSuffix(entry, "*"); ok {
		return strings.HasPrefix(name, prefix)
	}
	rest, ok := strings.CutPrefix(name, entry)
	if !ok {
		return false
	}
	return strings.Trim(rest, "0123456789.-_") == ""
}

// Key identifies d's entries (an FNV-1a hash of them), for caches keyed by
// the list a check used.
func (d DenyList) Key() uint64 { return d.key }
