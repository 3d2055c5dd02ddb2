package kernel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// drainGrace bounds how long Run keeps reading output once the process group
// is gone; it only matters when a process that left the group (setsid) still
// holds the pipe.
const drainGrace = 100 * time.Millisecond

// Run runs argv (no shell; see the package doc) and waits for it, its output
// and its process group to end.
//
// The error is nil whenever the command ran, whatever its exit status, signal
// or timeout: those are in the Result. It is non-nil only when
//   - argv is empty, or argv[0] cannot be resolved or started: the Result has
//     ExitCode 127 (error wraps ErrNotFound) or 126 (usually wrapping
//     ErrNotExecutable) and its Output says why;
//   - ctx ended before the command did: the process group is killed and the
//     error wraps ctx.Err(); the Result holds the output so far (ExitCode 137;
//     also when ctx was done before anything started).
//
// The kernel's own timeout (WithTimeout) is not an error: the Result has
// TimedOut set and ExitCode 124.
func (k *Kernel) Run(ctx context.Context, argv []string) (Result, error) {
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
	execArgv := res.Argv
	if k.wrapper != nil {
		if execArgv, err = k.wrap(res.Argv); err != nil {
			return k.notStarted(res, 126, err)
		}
	}
	if k.confiner != nil {
		if execArgv, res.Notice, err = k.confine(execArgv); err != nil {
			return k.notStarted(res, 126, err)
		}
	}
	return k.run(ctx, res, execArgv)
}

// wrap applies the WithWrapper hook to a copy of argv.
func (k *Kernel) wrap(argv []string) ([]string, error) {
	w, err := k.wrapper(slices.Clone(argv))
	switch {
	case err != nil:
		return nil, fmt.Errorf("kernel: wrapper: %w", err)
	case len(w) == 0 || !filepath.IsAbs(w[0]):
		return nil, fmt.Errorf("kernel: wrapper returned %q: argv[0] must be an absolute path", w)
	}
	return w, nil
}

// run starts execArgv, then waits for the first of: the leader's exit, the
// timeout, ctx. Then it kills the group, reaps the leader and finishes
// reading the output.
func (k *Kernel) run(ctx context.Context, res Result, execArgv []string) (Result, error) {
	start := time.Now()
	timeout := time.NewTimer(k.timeout) // counts from here, so a slow start is no excuse
	defer timeout.Stop()
	cmd, r, err := k.start(execArgv, programEnvIn(res.Argv[0], k.workspace, res.Argv[1:]))
	if err != nil {
		err = fmt.Errorf("kernel: start %s: %w", res.Argv[0], err)
		return k.notStarted(res, exitCodeFor(err), err)
	}
	out := newBoundedBuffer(k.limit)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		drain(r, out)
	}()
	exited, reap := watchLeader(cmd)
	var ctxErr error
	res.TimedOut, ctxErr = await(ctx, exited, timeout.C)
	killGroup(cmd.Process.Pid)
	waitErr := reap()
	stopDrain(r, drained)
	res.Duration = time.Since(start)
	res.setOutput(out.clip())
	switch {
	case res.TimedOut:
		res.ExitCode = 124
	case cmd.ProcessState != nil:
		res.ExitCode = exitCode(cmd.ProcessState)
	default: // not reached: a started command always has a wait status
		return res, fmt.Errorf("kernel: wait %s: %w", res.Argv[0], waitErr)
	}
	if ctxErr != nil {
		return res, fmt.Errorf("kernel: %s: %w", res.Argv[0], ctxErr)
	}
	return res, nil
}

// start starts execArgv as the leader of a new process group, in the
// workspace, with the scrubbed environment, stdin from the null device and
// stdout and stderr on one pipe, whose read end it returns. The environment
// ends with extra, the program's entries (programEnvIn), which win.
func (k *Kernel) start(execArgv []string, extra []string) (*exec.Cmd, *os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("output pipe: %w", err)
	}
	cmd := &exec.Cmd{
		Path:        execArgv[0],
		Args:        execArgv,
		Env:         append(slices.Clone(k.env), extra...),
		Dir:         k.workspace,
		Stdin:       nil, // the null device
		Stdout:      w,
		Stderr:      w,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	err = cmd.Start()
	w.Close() // the child has its copy; EOF comes when every holder is gone
	if err != nil {
		r.Close()
		return nil, nil, classifyStart(err)
	}
	return cmd, r, nil
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
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// stopDrain waits for the output to reach EOF, but at most drainGrace: past
// that, a process outside the group still holds the pipe, and reading stops
// once what the pipe already holds is read.
func stopDrain(r *os.File, drained <-chan struct{}) {
	t := time.NewTimer(drainGrace)
	defer t.Stop()
	select {
	case <-drained:
	case <-t.C:
		if r.SetReadDeadline(time.Now()) != nil {
			r.Close() // not pollable: closing unblocks the read instead
		}
		<-drained
	}
	r.Close()
}

// exitCode is the shell-style status: the exit code, or 128+n for signal n.
func exitCode(ps *os.ProcessState) int {
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
