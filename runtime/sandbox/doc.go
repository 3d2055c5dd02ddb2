// Package sandbox confines the commands of toolgen's tools with the Linux
// kernel's Landlock LSM: the second line of defence behind the structural
// one (slots that cannot express an escape). Package kernel applies it to
// every command by default; this package holds the policy, the decision of
// how far this kernel can enforce it, and the restriction of one thread.
//
// # Contract
//
// Each command may
//
//   - read (and list) the workspace, its empty private HOME and the minimal
//     read set below;
//   - execute only the files of its Policy's Exec set: its own program, its
//     dynamic loader and the helper directories the kernel's Programs hook
//     declares; nothing else, whatever it starts (Landlock checks execve,
//     and the ELF interpreter of what is executed);
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
// RestrictThread applies a policy to the calling OS thread only (no TSYNC):
// package kernel calls it once per policy on a goroutine locked to its
// thread for good, and forks that policy's commands from there, so the host
// process is never restricted and no program is started twice.
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
// confinement off, silently (kernel.WithConfinement, preset.WithConfinement,
// toolgen's --confine).
//
// # The minimal read set
//
// Found by running grep, find, sed, git, ls, wc, sort, date, file and curl
// confined on Debian 12 and removing what they did not need. Paths that do
// not exist are skipped; a symlink grants its target.
//
//	/usr/lib, /usr/lib32, /usr/lib64, /usr/libx32, /usr/share,
//	/usr/local/lib, /usr/local/share, /lib, /lib32, /lib64, /libx32
//	    read only: shared libraries, locale data, zoneinfo, magic files.
//	    The program directories (/usr/bin, /bin, /sbin, /usr/sbin,
//	    /usr/local/bin) are NOT readable: the dynamic loader, which every
//	    dynamic program may execute, runs any ELF file it can read
//	    ("ld.so /bin/sh"), so a shell or an interpreter must not be
//	    readable at all. The command's own program is granted by name.
//	/etc/ld.so.cache
//	    the loader's index of library directories; without it libraries in
//	    directories named only in /etc/ld.so.conf.d (/usr/local/lib, ...)
//	    are not found and every start probes several directories.
//	/etc/localtime
//	    the local time zone, where it is a copy rather than a symlink into
//	    /usr/share/zoneinfo (otherwise times print in UTC).
//	/dev/urandom, /dev/zero
//	    randomness (git cannot name a temporary object file without it;
//	    OpenSSL reads it too) and zeros.
//	/dev/null
//	    read and write, always.
//	the execute set (Policy.Exec)
//	    read and execute: the program, its loader, its helper directories.
//	HOME (Policy.Home)
//	    read and list: the kernel's empty private directory.
//	the workspace
//	    read and list (not execute: only the command's program runs).
//
// With "network", name resolution and TLS trust too: /etc/resolv.conf,
// /etc/hosts, /etc/nsswitch.conf, /etc/host.conf, /etc/gai.conf,
// /etc/services, /etc/protocols, /run/systemd/resolve, /etc/ssl/certs,
// /etc/ssl/openssl.cnf, /etc/pki/tls/certs, /etc/pki/ca-trust/extracted.
// WithReadable adds more (a toolchain in /opt, say), and the kernel's
// Programs hook adds what one program needs for that program's commands
// only: git's /etc/gitconfig (git stops with "fatal: unknown error occurred
// while reading the configuration files" when the system configuration
// exists but cannot be read). These sets are the named bundles System and
// Network (Bundle); Policy.String names them.
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
//   - Running an ELF file through the dynamic loader. The loader is in
//     every execute set and maps the program it is given with PROT_EXEC,
//     which Landlock does not check (only execve and the ELF interpreter
//     are checked); it needs read access only. The system's program
//     directories are unreadable for that reason, but the workspace is
//     readable: a granted program that executes its arguments (find -exec,
//     xargs) could run an ELF file shipped in the repository as
//     "ld.so ./payload", and a program told to load a library or plugin
//     (LD_PRELOAD, dlopen, an engine) maps it the same way. NoExecWorkspace
//     closes this for the workspace where a mount namespace can be made
//     (root): mounted noexec, none of its files can be mapped as code.
//     Elsewhere the deny list and ExecTool's flag table keep such programs
//     and flags from the model; kernel's TestLoaderWorkspaceELF and
//     TestWorkspaceLibraryNotLoaded pin both cases.
//   - Resources: CPU, memory, disk space, process count. Package kernel
//     caps CPU, memory and processes; nothing bounds what a writing command
//     may store in the workspace.
//   - The workspace itself: everything in it (.git, .env, keys) is readable,
//     and with "writes" changeable, except the protected paths
//     (ProtectedNames, Policy.Protection), which ProtectMounts binds
//     read-only in the command's mount namespace, not Landlock: Landlock
//     grants by path and cannot take a name out of the workspace's write
//     right.
//
// No-new-privileges is set before the restriction, so setuid and file
// capabilities do not apply to confined programs (sudo, ping and the like
// do not gain privileges); the capability bounding, inheritable and
// ambient sets are cleared, so a root command holds no capability after
// its execve; and a seccomp filter refuses the system call families no
// command tool needs (SeccompFilter).
//
// # Cost
//
// Applying a policy costs one landlock_create_ruleset and
// landlock_restrict_self per spawner thread (per program and policy), once;
// a confined command then costs what an unconfined one does (see
// BenchmarkKernelRunTrueConfined in package kernel and docs/performance.md).
package sandbox
