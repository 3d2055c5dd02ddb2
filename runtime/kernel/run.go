package kernel

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// drainGrace bounds how long Run keeps reading output once the leader is
// gone; it only matters when a process that escaped (setsid, where there is
// no PID namespace) still holds the pipe.
const drainGrace = 100 * time.Millisecond

// Run runs argv (no shell; see the package doc) and waits for it, its output
// and every process it started to end.
//
// The error is nil whenever the command ran, whatever its exit status, signal
// or timeout: those are in the Result. It is non-nil only when
//   - argv is empty, or argv[0] cannot be resolved or started, or its
//     confinement cannot be applied in Strict mode: the Result has ExitCode
//     127 (error wraps ErrNotFound) or 126 (usually wrapping
//     ErrNotExecutable) and its Output says why;
//   - ctx ended before the command did: everything it started is killed and
//     the error wraps ctx.Err(); the Result holds the output so far (ExitCode
//     137; also when ctx was done before anything started).
//
// The kernel's own timeout (WithTimeout) is not an error: the Result has
// TimedOut set and ExitCode 124.
//
// A WithObserver context sees the Result and error.
func (k *Kernel) Run(ctx context.Context, argv []string) (Result, error) {
	res, err := k.runArgv(ctx, argv, nil)
	return observe(ctx, res, err)
}

// RunAlso is Run for a command that itself runs the programs also, as its
// template writes them out (the program of find -exec; names are resolved
// like argv[0]): a confined command may execute them too (ExecSet), and
// nothing else. The caller vouches for them (base.New checks them against
// the deny list); one that is not found is left out, one that is a script
// is refused as argv[0] would be.
func (k *Kernel) RunAlso(ctx context.Context, argv, also []string) (Result, error) {
	res, err := k.runArgv(ctx, argv, also)
	return observe(ctx, res, err)
}

func (k *Kernel) runArgv(ctx context.Context, argv, also []string) (Result, error) {
	res := Result{Argv: slices.Clone(argv), Timeout: k.timeout}
	if len(argv) == 0 {
		return k.notStarted(res, 127, fmt.Errorf("kernel: empty argv: %w", ErrNotFound))
	}
	if err := ctx.Err(); err != nil {
		return k.notStarted(res, 128+int(syscall.SIGKILL), fmt.Errorf("kernel: not started: %w", err))
	}
	path, err := k.resolve(argv[0])
	if err != nil {
		return k.notStarted(res, exitCodeFor(err), err)
	}
	res.Argv[0] = path
	var extra []string
	for _, name := range also {
		if p, err := k.resolve(name); err == nil {
			extra = append(extra, p)
		}
	}
	if k.access.RunsCode {
		// The workspace's build cache, and a scratch directory for this
		// call, removed after it.
		if err := k.prepareBuild(path); err != nil {
			return k.notStarted(res, 126, fmt.Errorf("%w: %w", err, ErrNotExecutable))
		}
		scratch, err := k.newScratch()
		if err != nil {
			return k.notStarted(res, 126, fmt.Errorf("%w: %w", err, ErrNotExecutable))
		}
		defer removeTree(scratch)
		kc := *k // a copy for this call alone
		kc.scratch = scratch
		k = &kc
	}
	pol := k.Policy(path, extra...)
	d := sandbox.Decide(pol, k.mode)
	if d.Err != nil {
		return k.notStarted(res, 126, fmt.Errorf("kernel: not running %s: %w", path, d.Err))
	}
	if d.Apply && !k.access.RunsCode { // a tool that runs code may execute scripts: no execute set holds for it
		for _, p := range append([]string{path}, extra...) {
			if err := checkConfinable(p); err != nil {
				return k.notStarted(res, 126, err)
			}
		}
	}
	return k.run(ctx, res, pol, d)
}

// ChildEnv returns the exact environment the child running argv (argv[0]
// absolute, as resolved) gets: Env, then the entries the Programs hook
// gives its program, which force its configuration safe (for git: no
// global or system config, nothing that executes, including the settings
// the repository it will use names itself) and replace an Env entry with
// the same key. A tool that runs code also gets its scratch directory as
// TMPDIR (call-* in its build cache's tmp, made per call), PATH starting
// with its toolchain's directory when found outside PATH, and its
// toolchain's forced environment (caches, offline).
func (k *Kernel) ChildEnv(argv []string) []string {
	env := mergeEnv(slices.Clone(k.env), k.programEnv(argv[0], argv[1:]))
	if k.access.RunsCode {
		env = mergeEnv(env, k.buildEnv(argv))
	}
	return env
}

// mergeEnv sets each entry of extra in env (which it may change), in
// order, replacing an entry with the same key in place, in time linear in
// the entries (one setEnv per entry is quadratic, and a repository chooses
// how many entries the git look adds).
func mergeEnv(env, extra []string) []string {
	at := make(map[string]int, len(env)+len(extra))
	for i, kv := range env {
		key, _, _ := strings.Cut(kv, "=")
		if _, dup := at[key]; !dup {
			at[key] = i
		}
	}
	for _, kv := range extra {
		key, _, _ := strings.Cut(kv, "=")
		if i, ok := at[key]; ok {
			env[i] = kv
			continue
		}
		at[key] = len(env)
		env = append(env, kv)
	}
	return env
}

// run starts the command confined by pol as d says, then waits for the
// first of: the leader's exit, the timeout, ctx. Then it kills everything
// left, reaps the leader and finishes reading the output.
func (k *Kernel) run(ctx context.Context, res Result, pol sandbox.Policy, d sandbox.Decision) (Result, error) {
	start := time.Now()
	timeout := time.NewTimer(k.timeout) // counts from here, so a slow start is no excuse
	defer timeout.Stop()
	protected := snapshotProtected(pol, d)
	c, err := k.start(res.Argv, pol, d)
	if err != nil {
		return k.notStarted(res, exitCodeFor(err), err)
	}
	defer c.done()
	res.Notice = c.note
	outs := k.readOutput(ctx, c, start)
	exited, reap := watchLeader(c.proc)
	var ctxErr error
	res.TimedOut, ctxErr = await(ctx, exited, timeout.C)
	outs.report.halt() // no report once the call is decided
	killGroup(c.proc.Pid)
	ps, waitErr := reap()
	outs.finish(&res)
	res.Notice = joinNotes(res.Notice, c.afterNotice())
	res.Notice = joinNotes(res.Notice, protected.restore())
	res.Duration = time.Since(start)
	switch {
	case res.TimedOut:
		res.ExitCode = 124
	case ps != nil:
		res.ExitCode = exitCode(ps)
	default: // not reached: a started command always has a wait status
		return res, fmt.Errorf("kernel: wait %s: %w", res.Argv[0], waitErr)
	}
	if ps != nil && ctxErr == nil {
		res.Limit = c.limitReason(k.buildLimits(res.Argv[0]), ps, res.Output+res.Stderr, res.TimedOut)
	}
	if ctxErr != nil {
		return res, fmt.Errorf("kernel: %s: %w", res.Argv[0], ctxErr)
	}
	return res, nil
}

// await blocks until the leader exits, the timeout fires or ctx is done,
// and says which. A leader that exited by the time the other fired counts as
// having exited.
func await(ctx context.Context, exited <-chan struct{}, timeout <-chan time.Time) (timedOut bool, ctxErr error) {
	select {
	case <-exited:
		return false, nil
	case <-timeout:
	case <-ctx.Done():
	}
	select {
	case <-exited:
		return false, nil
	default:
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return true, nil
}

// killGroup sends SIGKILL to every process in the group led by pid. Errors
// (typically ESRCH: the group is already empty) are of no interest.
func killGroup(pid int) {
	if pid > 1 {
		killPgid(pid) // signal_unix.go, signal_windows.go
	}
}

// exitCode is the shell-style status: the exit code, or 128+n for signal n.
func exitCode(ps exitStatus) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// notStarted fills res for a command that never ran: code, and err's text as
// the output the model sees.
func (k *Kernel) notStarted(res Result, code int, err error) (Result, error) {
	b := newBoundedBuffer(k.limit)
	b.Write([]byte(err.Error()))
	res.ExitCode = code
	res.setOutput(b.clip())
	return res, err
}

func (r *Result) setOutput(c clip) {
	r.Output = c.String()
	r.Omitted = c.omitted
	r.Truncated = c.omitted > 0
}
