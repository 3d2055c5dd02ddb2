// Package kernel is toolgen's CommandExecKernel: it runs one argv on behalf of
// an LLM agent's command tool, and it is the fifth defence (cwd lock, timeout,
// output limit, confinement, resource limits) shared by every form of command
// tool.
//
// # Contract
//
// There is no shell, ever. Run executes argv[0] directly with argv[1:] as its
// arguments, byte for byte: no word splitting, globbing, quoting, variable
// expansion, redirection or pipelines happen anywhere in this package. Deciding
// which programs and arguments are acceptable (allowlists, deny lists, slot
// rules) is the job of the packages above; the kernel runs what it is given,
// under these guarantees:
//
//   - argv[0] is resolved to an absolute path before anything runs: a bare name
//     through the kernel's own PATH (never the host's), a name holding '/'
//     against the workspace when relative. Not found means exit 127 and an
//     error wrapping ErrNotFound; found but not executable means exit 126 and
//     an error wrapping ErrNotExecutable. Neither ever panics.
//   - The working directory is the workspace given to New (absolute, symlinks
//     resolved).
//   - Stdin is the null device (os.DevNull).
//   - The environment is exactly PATH, LC_CTYPE=C.UTF-8, HOME,
//     XDG_CONFIG_HOME, XDG_CACHE_HOME and XDG_DATA_HOME (all the kernel's
//     empty private directory, see Home: never the workspace, so a
//     repository's .gitconfig or .curlrc is not the user's configuration),
//     the WithEnv extras, then the entries the Programs hook gives the
//     program (WithPrograms; package programs knows them), which force its
//     configuration safe (git: no global or system config, nothing that
//     executes; see ChildEnv). Nothing is inherited from the host process.
//     Without the hook nothing is forced: the preset, base.New and exec.New
//     always give one.
//   - No descendant outlives the call (see Descendants).
//   - Stdout and stderr share one pipe, so the output keeps the order in which
//     the command wrote it; a kernel from WithSeparateStderr gives each its
//     own pipe and bound instead. Run stops reading at most about 100ms after
//     the leader is gone, even if a descendant that escaped still holds a pipe.
//   - Under WithProgress, a command that runs long reports how much output
//     has come and its last lines about every interval, never after Run
//     returns.
//   - A tool's own timeout (WithTimeoutOf) is capped at the kernel's maximum
//     (WithMaxTimeout, DefaultMaxTimeout by default).
//   - Output is bounded: the first and the last halves of the output limit are
//     kept, the middle is counted and dropped, cuts fall on UTF-8 boundaries and
//     invalid UTF-8 is replaced by U+FFFD. Memory per call stays near the limit
//     however much the command prints.
//   - Every process of the call has a memory, a CPU-time and a process-count
//     cap (see Limits); when one most likely ended the command, Result.Limit
//     says which, in one line the model sees.
//   - A non-zero exit, a signal or a timeout is a Result, not an error. Run's
//     error is non-nil only when the command could not be started or when the
//     caller's context ended it.
//
// # Confinement
//
// Confinement is on by default (sandbox.BestEffort; WithConfinement): each
// command may read the workspace, its empty HOME and the system's library
// and data directories; write nowhere, or inside the workspace when the
// kernel's Access says so (WithAccess, from the tool's Spec); use the
// network only when its Access says so; and execute only its own program,
// that program's dynamic loader and the helper directories the Programs
// hook declares for it (ExecSet), plus the programs a RunAlso caller names
// (those its template writes out for it: find -exec grep): no shell, no
// interpreter, no other program, whatever the command tries (find -exec,
// env, xargs, git's fsmonitor or aliases, setarch). A script therefore cannot run confined;
// Run refuses it with the reason (exit 126). The workspace is also mounted
// noexec,nosuid,nodev for confined commands (as root by the spawner
// thread's own mount namespace, otherwise by a holder process whose root
// the leader takes: see holder), so none of its files can be mapped as
// code either: no library, plugin or ELF file shipped in the workspace
// loads. A confined command of a tool without network runs in a network
// namespace of its own with nothing reachable; one whose tool names hosts
// reaches them only through the egress proxy (WithEgress). What a call
// gets is Guarantees: Strict refuses a call that misses one, BestEffort
// and Off warn in its Result. See
// package sandbox for the exact read set and what Landlock leaves open.
//
// There is no second program start: each distinct policy (workspace,
// access, readable paths, execute set, process cap) gets a spawner, a
// goroutine locked for good to an OS thread of its own that made its own
// mount namespace (sandbox.NoExecWorkspace, where it can), then applied
// no_new_privs and the Landlock ruleset to itself once (Landlock restricts
// one thread, without TSYNC). Commands under that policy are forked from
// that thread and inherit its restriction; the agent's other threads are
// never restricted (the Go runtime makes new threads from its template
// thread, never by cloning a locked one). Idle spawners beyond 64 are
// retired, never one with a live child (a thread's exit would fire the
// parent-death signal of the children it forked). Strict refuses to run a
// command whose policy the kernel cannot enforce in full; BestEffort runs
// it as confined as possible, with a warning in Result.Notice; Off runs it
// unconfined. The environment, the descendant control and the limits apply
// in every mode.
//
// # Descendants
//
// Each call's leader starts in a new PID namespace (as root; otherwise in a
// new user namespace too, uid and gid mapped to themselves) and leads a new
// process group. When the leader exits, times out or is cancelled, it is
// killed if need be and the kernel kills every process left in its
// namespace: setsid, double forks and a changed process group escape
// nothing. The leader gets SIGKILL when the host process dies, even by
// SIGKILL (parent-death signal; its thread is a spawner, which outlives its
// children). Where the system refuses both namespaces (a container without
// them, say) the process group is the only control, and a descendant that
// calls setsid outlives the call; DescendantControl says which holds.
//
// Consequences of being pid 1 of a namespace: the command ignores every
// signal it has no handler for, except SIGKILL from outside and the
// kernel's faults (so "kill $$" does nothing, SIGTERM from outside does
// nothing, and RLIMIT_CPU's SIGXCPU is ignored: its SIGKILL one second
// later ends the command), it sees no pid of the host, and orphans of the
// call are reparented to it.
//
// # Limits
//
// Rlimits belong to a process, not a thread, so they are set on the child
// with prlimit(2) while it is stopped: the child is started traced, the
// kernel stops it right after its execve, before the dynamic loader runs;
// the spawner sets the caps and detaches. The program never runs without
// them. (Where tracing is refused, e.g. Yama's ptrace_scope 3, the caps are
// set just after the start, while the loader runs.)
//
//   - Memory: RLIMIT_AS, default 1 GiB per process. An allocation beyond it
//     fails; the Result's reason is a judgement from the peak RSS (40 % of
//     the cap or more) or a memory error in the output, since programs
//     react as they like (GNU sed 4.9 exits 0 with no output).
//   - CPU: RLIMIT_CPU, default the timeout, per process.
//   - Processes: not root, RLIMIT_NPROC in the call's own user namespace
//     (exactly per call); as root, whom RLIMIT_NPROC does not bind, a pids
//     cgroup (cgroup v1 pids hierarchy, writable by root) that the spawner
//     thread joins, so its children are born inside: a cap per program and
//     policy, shared by their concurrent calls. A cgroup v2 delegation is
//     not used yet; without either, nothing caps the count
//     (ProcessLimitEnforcement says which holds).
//
// A Kernel is immutable after New and safe for concurrent use.
//
// Linux is the primary target; the package builds wherever Go does. Off
// Linux there is no confinement (best-effort warns in each result, strict
// refuses), no namespace and no resource limit (explain says so); on macOS
// and the BSDs a timeout kills the command's process group, on Windows,
// which has no process groups, the started process alone
// (DescendantControl says which). The scrubbed environment, the private
// HOME, the working directory, the timeout and the output limit hold
// everywhere.
package kernel
