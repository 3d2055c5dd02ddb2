//go:build linux

package kernel

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// call is one started command.
type call struct {
	proc *os.Process
	out  *os.File // read end of the output pipe
	// errOut is the read end of the stderr pipe when stderr is kept
	// apart (stderr.go), nil when it shares out.
	errOut *os.File
	note   string // Result.Notice
	spawn  *spawner
	// refusals is the fork refusals of the spawner's pids cgroup before
	// the call: more after it means the process cap was reached.
	refusals uint64
	// hostRSS is the host's own peak resident size (bytes) once the child
	// has executed its program: the child's ru_maxrss starts from the
	// host's (it shared the host's memory from the vfork to the exec), so
	// a peak not above it says nothing about the command.
	hostRSS int64
	// egress is the call's egress proxy, nil for none.
	egress *egressCall
	// nproc reports that RLIMIT_NPROC caps the call's processes (its own
	// user namespace), which tells a refused fork only by its message.
	nproc bool
}

// devNullFile is the null device, opened once: every child's stdin.
var devNullFile = sync.OnceValues(func() (*os.File, error) { return os.Open(os.DevNull) })

// start starts argv (argv[0] absolute) as the leader of a new process group
// (and PID namespace, where possible), from the spawner of pol, in the
// workspace, with the child environment, stdin from the null device and
// stdout and stderr on one pipe (on two when k keeps stderr apart); then it
// applies the resource limits.
func (k *Kernel) start(argv []string, pol sandbox.Policy, d sandbox.Decision) (*call, error) {
	path := argv[0]
	devNull, err := devNullFile()
	if err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	s, note, err := acquire(pol, d, k.mode, k.limits.Processes)
	if err != nil {
		return nil, fmt.Errorf("kernel: not running %s: %w: %w", path, err, ErrNotExecutable)
	}
	c := &call{note: note, spawn: s, refusals: s.cg.refusals()}
	chroot := ""
	if d.Apply {
		chroot = s.holder.chroot()
	}
	state, why := nsCurrent()
	g := k.guarantees(state, why, s, chroot != "", d.Apply)
	if k.mode == sandbox.Strict && len(g.Missing) > 0 {
		c.done()
		return nil, fmt.Errorf("kernel: not running %s: %s: %w", path, g.refusal(), ErrNotExecutable)
	}
	r, w, err := os.Pipe()
	if err != nil {
		c.done()
		return nil, fmt.Errorf("kernel: output pipe: %w", err)
	}
	c.out = r
	var ew *os.File
	if c.errOut, ew, err = k.stderrPipe(w); err != nil { // stderr.go
		w.Close()
		c.done()
		return nil, err
	}
	shim := k.egressActive() && state != nsNone
	attr := os.ProcAttr{Dir: k.workspace, Env: k.ChildEnv(argv), Files: []*os.File{devNull, w, ew}}
	leaderPath := path
	if shim {
		if c.egress, err = newEgressCall(); err != nil {
			closeWriteEnds(w, ew)
			c.done()
			return nil, fmt.Errorf("kernel: %w", err)
		}
		attr.Env = shimEnv(attr.Env, path, k.buildLimits(path))
		attr.Files = append(attr.Files, c.egress.child)
		leaderPath = "/proc/self/exe"
	}
	setup := func(pid int, state int32) error {
		c.hostRSS = selfPeakRSS()
		if state == nsUserPID {
			// Stopped after its execve, the leader gets its ids mapped
			// before it runs. Where tracing is refused it is already
			// running and may have exited: the maps only make its ids
			// read as the user's (unmapped, they read as the overflow
			// id and grant nothing), so a failure there is no error.
			if err := writeIDMaps(pid, d.Apply); err != nil && !noPtrace.Load() {
				return err
			}
		}
		limits := k.buildLimits(path)
		if shim {
			limits.Memory = 0 // the shim sets it on itself before its execve
		}
		if err := applyRlimits(pid, limits, state); err != nil {
			return fmt.Errorf("resource limits: %w", err)
		}
		return nil
	}
	l, err := startLeader(s, k.mode == sandbox.Strict, leaderPath, argv, attr, chroot, k.noNet(), shim, setup)
	closeWriteEnds(w, ew) // the child has its copies; EOF comes when every holder is gone
	if err == nil && shim {
		if err = c.egress.serve(k); err != nil {
			l.proc.Kill()
			l.proc.Wait()
		}
	}
	if err != nil {
		c.done()
		if errors.Is(err, errNamespacesRefused) {
			err = fmt.Errorf("%w: %w", err, ErrNotExecutable)
		}
		return nil, fmt.Errorf("kernel: start %s: %w", path, classifyStart(err))
	}
	if l.state != nsNone {
		nsTried.Store(true)
	}
	_, why = nsCurrent()
	g = k.guarantees(l.state, why, s, l.chroot, d.Apply)
	c.note = joinNotes(c.note, g.warning())
	c.proc = l.proc
	c.nproc = l.state == nsUserPID && k.limits.Processes > 0
	return c, nil
}

// done releases what the call held, once the leader is reaped (or was
// never started).
func (c *call) done() {
	if c.out != nil {
		c.out.Close()
	}
	if c.errOut != nil {
		c.errOut.Close()
	}
	c.egress.finish()
	release(c.spawn)
}

// selfPeakRSS is this process's peak resident size in bytes (0 if unknown).
func selfPeakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Maxrss << 10
}

// limitReason says which resource limit most likely ended the call.
// After a timeout, only a refused fork is worth telling: the kill was the
// kernel's.
func (c *call) limitReason(l Limits, ps *os.ProcessState, output string, timedOut bool) string {
	refused := c.spawn.cg.refusals() > c.refusals ||
		c.nproc && strings.Contains(strings.ToLower(output), "resource temporarily unavailable")
	if timedOut {
		if refused && l.Processes > 0 {
			return l.limitReason(0, 0, 0, "", true)
		}
		return ""
	}
	ws, _ := ps.Sys().(syscall.WaitStatus)
	var rss int64
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && ru.Maxrss<<10 > c.hostRSS {
		rss = ru.Maxrss << 10 // KiB on Linux
	}
	return l.limitReason(ws, ps.UserTime()+ps.SystemTime(), rss, output, refused)
}

// networkNotice ends the call's egress proxy and returns its refusals, one
// notice ("" for none). It is called once the leader is reaped.
func (c *call) networkNotice() string {
	n := c.egress.finish()
	c.egress = nil
	return n
}
