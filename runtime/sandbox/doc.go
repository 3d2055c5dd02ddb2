// Package sandbox confines the commands of toolgen's tools with the Linux
// kernel's Landlock LSM: the second line of defence behind the structural
// one (slots that cannot express an escape). It is the kernel.Confiner that
// preset.WithConfinement and toolgen's --confine flag install.
//
// # Contract
//
// Each command may
//
//   - read (and list) the workspace and the minimal read set below, and
//     execute programs from the system directories plus the command's own
//     program file;
//   - write nowhere, or, when its tool's Spec says "writes", inside the
//     workspace only (create, change, truncate, rename, delete), plus
//     /dev/null always;
//   - not use the network (TCP connect and bind, at least; see below), unless
//     its Spec says "network".
//
// Everything else a Landlock ABI can restrict is denied. The rules hold for
// the command and everything it starts, and cannot be lifted from inside.
// The check happens in the kernel when a file is opened, on the file
// actually reached, so a symlink (or a path swapped after toolgen checked
// it: the time-of-check to time-of-use race) cannot lead outside.
//
// The host process is never restricted: Landlock confines the calling thread
// and what it starts, for good, so the confinement is applied in a
// trampoline. The kernel starts the program itself again (/proc/self/exe)
// with the marker argument "toolgen-sandbox", the policy and the command;
// Init, called first thing in that program, sees the marker, restricts the
// process with Landlock (after no_new_privs) and replaces it with the
// command by execve, keeping its pid, process group and environment. The
// trampoline can only drop rights: starting it by hand grants nothing.
//
// # Enabling it
//
// toolgen calls Init in an init function of its main package, and
// "toolgen call" and "toolgen serve" confine by default (--confine
// best-effort). An agent binary that assembles its tools with package
// preset does the same in two lines:
//
//	func main() {
//		sandbox.Init() // first: this program is also its own trampoline
//		p, err := preset.New(preset.WithWorkspace(dir), preset.WithConfinement(sandbox.DefaultMode), ...)
//		...
//	}
//
// or, with a kernel of its own, kernel.New(dir, kernel.WithConfiner(c)) with
// c from New. A program that confines through itself without calling Init
// gets an error on every call rather than a surprise; WithTrampoline names
// another program that calls Init (an installed toolgen, for instance).
// Tests of such a program need a TestMain that calls Init first.
//
// # Modes, and the default
//
// Strict refuses to run a command (exit 126, the reason as the output)
// unless its policy is enforced in full: Landlock ABI 3 for the file rules,
// ABI 4 when the network is denied (Linux 6.7 or later). BestEffort, the
// default (DefaultMode), runs it anyway, confined as far as the kernel
// allows, with a warning as the last line of the result the model sees:
//
//	[warning: not confined: Landlock is unavailable here (...); the command ran with all of the agent's access to files and network]
//	[warning: partly confined: this kernel's Landlock (ABI 2) does not restrict truncating files (needs ABI 3) nor network connections (needs ABI 4)]
//
// The default is best-effort so that stock setups (macOS, older kernels,
// containers whose seccomp profile blocks Landlock) keep working and say so
// on every call; choose strict where confinement is a requirement. Off turns
// confinement off, silently. Without preset.WithConfinement nothing is
// confined.
//
// # The minimal read set
//
// Found by running grep, find, sed, git, ls, wc, sort, date, file and curl
// confined on Debian 12 and removing what they did not need. Paths that do
// not exist are skipped; a symlink grants its target.
//
//	/usr, /bin, /sbin, /lib, /lib32, /lib64, /libx32
//	    read and execute: programs, the dynamic loader, shared libraries,
//	    locale data, zoneinfo. On merged-/usr systems the others are
//	    symlinks into /usr; elsewhere they hold the loader and core programs.
//	/etc/ld.so.cache
//	    the loader's index of library directories; without it libraries in
//	    directories named only in /etc/ld.so.conf.d (/usr/local/lib, ...)
//	    are not found and every start probes several directories.
//	/etc/localtime
//	    the local time zone, where it is a copy rather than a symlink into
//	    /usr/share/zoneinfo (otherwise times print in UTC).
//	/etc/gitconfig
//	    git stops with "fatal: unknown error occurred while reading the
//	    configuration files" when the system config exists but is unreadable.
//	/dev/urandom
//	    randomness: git cannot name a temporary object file without it
//	    ("unable to get random bytes"); OpenSSL and others read it too.
//	/dev/null
//	    read and write, always.
//	the command's program file
//	    read and execute, wherever it is (a script needs read).
//	the workspace
//	    read and list (not execute: only the command's program runs).
//
// With "network", name resolution and TLS trust too: /etc/resolv.conf,
// /etc/hosts, /etc/nsswitch.conf, /etc/host.conf, /etc/gai.conf,
// /etc/services, /etc/protocols, /run/systemd/resolve, /etc/ssl/certs,
// /etc/ssl/openssl.cnf, /etc/pki/tls/certs, /etc/pki/ca-trust/extracted.
// WithReadable adds more (a toolchain in /opt, say).
//
// Deliberately left out: the rest of /etc (/etc/passwd and /etc/group too:
// "ls -l" shows numeric owners and whoami fails, but the host's users and
// home directories stay private), /proc (including /proc/self; find and
// ls cope without /proc/mounts and /proc/filesystems), /sys, /tmp (a
// command that needs scratch space must write inside the workspace), home
// directories, /dev/tty.
//
// # What Landlock does not stop
//
// Checked on Linux 6.18 with Landlock ABI 7; TestDocumentedLimits pins the
// first two.
//
//   - Metadata. stat, readlink and access work on any path, so a command
//     learns which files exist and their size, owner and times; and chmod,
//     chown and utimes are not Landlock rights at all: a confined command
//     can change the mode, owner (if privileged) and times of any file the
//     user may change, outside the workspace included. Only listing a
//     directory and opening a file are checked.
//   - Other names for a workspace file. Rules are by path: a hard link or
//     bind mount inside the workspace to a file outside it is readable
//     (writable, for a writing tool) through the workspace. A confined
//     command cannot make such a link (that needs rights outside), but one
//     made by someone else counts.
//   - File descriptors opened before the restriction. The kernel hands a
//     command only the null device (stdin) and its output pipe.
//   - Network beyond TCP, until newer kernels. Without "network", ABI 4 to 8
//     deny TCP connect and bind only: UDP datagrams (DNS, anything) still go
//     out until ABI 10, connecting to a named Unix socket (a database, the
//     Docker daemon's socket, D-Bus) works until ABI 9, and Multipath TCP
//     sockets (IPPROTO_MPTCP) are not covered by Landlock's TCP rules at all
//     where the kernel enables MPTCP (net.mptcp.enabled=1): a program that
//     asks for MPTCP connects anyway. Abstract Unix sockets outside the
//     sandbox are denied from ABI 6. Treat "no network" as "no ordinary TCP"
//     unless the kernel is newer. (The ABI 9 and 10 rules are applied where
//     the kernel has them, as go-landlock documents them; they are not
//     tested here.)
//   - Signals, until ABI 6. From ABI 6 a command cannot signal processes
//     outside its sandbox (the agent, say); before, it can signal any
//     process of the same user. ptrace of outside processes is always denied.
//   - Resources: CPU, memory, disk space, process count. The kernel's
//     timeout and output limit bound a call; nothing here bounds what a
//     writing command may store in the workspace.
//   - The workspace itself: everything in it (.git, .env, keys) is readable,
//     and with "writes" changeable, including files other tools trust.
//
// No-new-privileges is set before the restriction, so setuid and file
// capabilities do not apply to confined programs (sudo, ping and the like
// do not gain privileges).
//
// # Cost
//
// One more program start per command: the trampoline is the host program,
// so its Go runtime and package initialisation run before the command
// does. On the machine this was written on, /bin/true takes about 1.1 ms
// through the plain kernel (BenchmarkPlainRunTrue) and 4.5 ms confined
// through this package's 5.6 MB test binary (BenchmarkConfinedRunTrue,
// about 4 times as long); with the 18 MB toolgen binary as the trampoline,
// 7 to 10 ms. A small program that only calls Init, named with
// WithTrampoline, keeps the cost near the low end.
package sandbox
