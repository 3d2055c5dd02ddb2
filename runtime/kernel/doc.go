// Package kernel is toolgen's CommandExecKernel: it runs one argv on behalf of
// an LLM agent's command tool, and it is the fifth defence (cwd lock, timeout,
// output limit) shared by every form of command tool.
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
//   - The environment is exactly PATH, LANG=C.UTF-8, LC_ALL=C.UTF-8,
//     HOME=<workspace> and the WithEnv extras; nothing is inherited from the
//     host process.
//   - The child leads a new process group. On timeout or cancellation of the
//     caller's context the whole group gets SIGKILL at once (no SIGTERM grace:
//     the call must end promptly, and one-shot tools have nothing to clean up).
//     When the leader exits on its own, whatever it left running in its group
//     is killed too: nothing a call starts outlives the call.
//   - Stdout and stderr share one pipe, so the output keeps the order in which
//     the command wrote it. Run stops reading at most about 100ms after the
//     leader is gone, even if a descendant that escaped the group still holds
//     the pipe open.
//   - Output is bounded: the first and the last halves of the output limit are
//     kept, the middle is counted and dropped, cuts fall on UTF-8 boundaries and
//     invalid UTF-8 is replaced by U+FFFD. Memory per call stays near the limit
//     however much the command prints.
//   - A non-zero exit, a signal or a timeout is a Result, not an error. Run's
//     error is non-nil only when the command could not be started or when the
//     caller's context ended it.
//
// # Confinement
//
// With WithConfiner, every command runs through a Confiner, which turns the
// argv into one that runs it confined to the workspace with the kernel's
// Access: read only and no network for the zero Access; a tool that writes
// or needs the network runs on a kernel derived with (*Kernel).WithAccess,
// which shares everything else. Package sandbox is the Linux (Landlock)
// Confiner. A Confiner may refuse (exit 126) or run the command with a note
// (Result.Notice), which the model sees as the last line of Result.Text.
//
// A Kernel is immutable after New and safe for concurrent use.
//
// The package is Unix-only (process groups); Linux is the primary target,
// where the group is killed before the leader is reaped, so its group id can
// never be reused by an unrelated process in between.
package kernel
