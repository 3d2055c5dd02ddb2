package programs

// runners.go: the deny-list entries for the programs that run another
// program, or load a library, named by their arguments (issue 19 item 7).
// Where Landlock cannot limit what a command executes (--confine off, a
// kernel without Landlock), a granted program that starts what its
// arguments name is "one allowed binary runs another", so each is denied by
// name, like the exec-wrappers of deny.go. They were found by a systematic
// scan of a Debian 12 system (every executable of /usr/bin and /usr/sbin,
// its man page and --help output, searched for phrases such as "run
// COMMAND", "PROGRAM [ARGS]", "--exec", "plugin", "LD_PRELOAD"), not one
// finding at a time: testdata/runners.md records how, the counts, and the
// verdict on every match (denied here, already denied, refused option by a
// program's grammar, or harmless and why). TestRunnersRecorded keeps this
// table and that record in step.

// runnerGroup is a set of deny-list entries denied for one reason.
type runnerGroup struct {
	why     string   // what the programs run or load, and from where
	entries []string // deny-list entries (see DenyList for '*')
}

// runnerGroups are the runners of the scan that deny.go does not already
// deny. defaultDenyList adds their entries to defaultDenied.
var runnerGroups = []runnerGroup{
	{"service supervision (runit, daemontools, s6): it starts the program of a service directory named in its " +
		"arguments (DIR/run, DIR/check, DIR/finish) or chain-loads its arguments as a command",
		[]string{"runsv", "runsvdir", "runsvchdir", "sv", "supervise", "svscan",
			"setlock", "fghack", "pgrphack", "s6-*", "execlineb", "supervisord", "pidproxy"}},
	{"a log processor: the log directory's configuration (a file of the workspace) names a processor " +
		"program (!PROCESSOR) that it runs on every rotated file",
		[]string{"svlogd", "multilog"}},
	{"it runs its arguments as a command: as a daemon, as a container init, under a lock, in a queue, " +
		"when a file changes, when its input is (not) empty, or with its output kept for a failure",
		[]string{"daemon", "tini", "tini-static", "dumb-init", "catatonit", "nq", "lckdo", "chronic", "ifne",
			"pee", "mispipe", "zrun", "entr", "reflex", "logsave", "snooze", "newpid", "shush",
			"chrootuid", "jsvc", "incrontab", "incrond", "schroot", "super", "direnv", "fstab-decode",
			"slattach", "dmsetup", "dmstats", "parallel.moreutils", "not"}},
	{"it runs an editor on a file list or on its input, and editors have command escapes",
		[]string{"vidir", "vipe", "sensible-editor", "select-editor", "e-wrapper"}},
	{"a profiler, tracer or debugger: it launches the application named in its arguments " +
		"(pidstat -e, trace-cmd record, gprofng collect app, stap -c, vgdb --multi) or runs the code of a file " +
		"(llvm-rtdyld --execute, llvm-exegesis --snippets-file)",
		[]string{"pidstat", "trace-cmd", "gprofng", "gp-collect-app", "stap", "staprun", "stapbpf", "stap-*",
			"vgdb", "cgdb", "ddd", "coz", "apitrace", "sysprof-cli", "latrace", "llvm-exegesis*", "llvm-rtdyld*"}},
	{"a test-case reducer: it runs the interestingness test, a script named in its arguments, again and again",
		[]string{"creduce", "cvise", "cvise-delta", "delta", "singledelta", "multidelta", "halfempty", "llvm-reduce*"}},
	{"it loads shared libraries named in its arguments or every module of a directory it is given " +
		"(GIO, GTK and gdk-pixbuf module caches, kernel modules, lto-dump -fplugin=x.so, sprof x.so), or rewrites the loader's cache so that " +
		"every later program loads the libraries of a directory it names",
		[]string{"gio-querymodules", "gdk-pixbuf-query-loaders", "gtk-query-immodules*", "ldconfig",
			"insmod", "modprobe", "rmmod", "kmod", "gst-inspect*", "pkcs11-tool", "p11tool", "lto-dump*", "sprof"}},
	{"it starts an application or a service: a desktop file's Exec line (gio launch, gtk-launch), " +
		"D-Bus activation, or a call to systemd's StartTransientUnit over the bus (as busctl, denied already)",
		[]string{"gio", "gtk-launch", "gapplication", "dbus-send", "gdbus", "qdbus", "dbus-daemon", "xdg-open",
			"x-terminal-emulator", "xterm", "xdotool"}},
	{"GnuPG: its options name the helper programs it runs (--agent-program, --dirmngr-program, " +
		"--pinentry-program, --photo-viewer, gpg-agent --daemon CMD) or a driver library it loads (scdaemon)",
		[]string{"gpg", "gpg2", "gpgsm", "gpg-agent", "dirmngr", "scdaemon", "gpg-wks-server", "gpg-wks-client"}},
	{"it runs the program named by an option or by its input: sdiff and diff3 --diff-program, install " +
		"--strip-program, rpcgen -Y DIR (DIR/cpp), pkgdata's build commands, pic -U (the sh command of a picture)",
		[]string{"sdiff", "diff3", "install", "rpcgen", "pkgdata", "pic", "gpic"}},
	{"iproute2's tc: tc exec bpf import UDS run CMD runs a command, and its bpf actions load a program " +
		"from a file into the kernel (ip, which runs ip netns exec CMD, is denied already)",
		[]string{"tc"}},
	{"it installs packages, whose maintainer scripts run (as apt and dpkg, denied already), or is the " +
		"service manager, which starts the units it is given",
		[]string{"pkcon", "systemd"}},
	{"not a runner, but of the kinds deny.go denies: it makes a file system on a device (mke2fs is " +
		"mkfs.ext2 under another name) or a swap area, or kills the processes that use a file (fuser -k)",
		[]string{"mke2fs", "mkswap", "fuser"}},
	{"git's server side under its own name: it escapes the configuration forced on git and runs the " +
		"repository's hooks (receive-pack) or its archive filters",
		[]string{"git-receive-pack", "git-upload-pack", "git-upload-archive"}},
	{"it runs a login program or shell named in its arguments (agetty -l, switch_root NEWROOT INIT)",
		[]string{"agetty", "getty", "login", "sulogin", "switch_root"}},
}

// runnerEntries returns the entries of runnerGroups.
func runnerEntries() []string {
	var out []string
	for _, g := range runnerGroups {
		out = append(out, g.entries...)
	}
	return out
}
