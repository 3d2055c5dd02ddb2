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
	proc *leaderProc
	out  *os.File // read end of the output pipe
	// errOut is the read end of the stderr pipe when stderr is kept
	// apart (stderr.go), nil when it shares out.
	errOut *os.File
	note   string // Result.Notice
	// refusals is the fork refusals of the spawner's pids cgroup before
	// the call: more after it means the process cap was reached.
	refusals uint64
	// hostRSS is the forking process's own peak resident size (bytes)
	// once the child has executed its program: the child's ru_maxrss
	// starts from it (it shared that process's memory from the fork to
	// the exec), so a peak not above it says nothing about the command.
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
// (and PID namespace, where possible), from the spawner of pol (in the
// spawner process, or this one where there is none), in the workspace,
// with the child environment, stdin from the null device and stdout and
// stderr on one pipe (on two when k keeps stderr apart); then it applies
// the resource limits.
func (k *Kernel) start(argv []string, pol sandbox.Policy, d sandbox.Decision) (*call, error) {
	path := argv[0]
	devNull, err := devNullFile()
	if err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("kernel: output pipe: %w", err)
	}
	c := &call{out: r}
	var ew *os.File
	if c.errOut, ew, err = k.stderrPipe(w); err != nil { // stderr.go
		w.Close()
		c.done()
		return nil, err
	}
	sp := k.launchSpec(argv, pol, d)
	files := []*os.File{devNull, w, ew}
	if sp.Shim {
		if c.egress, err = newEgressCall(); err != nil {
			closeWriteEnds(w, ew)
			c.done()
			return nil, fmt.Errorf("kernel: %w", err)
		}
		files = append(files, c.egress.child)
	}
	err = k.launch(c, sp, files)
	closeWriteEnds(w, ew) // the child has its copies; EOF comes when every holder is gone
	if err == nil && sp.Shim {
		if err = c.egress.serve(k); err != nil {
			c.proc.kill()
			err = fmt.Errorf("kernel: start %s: %w", path, classifyStart(err))
		}
	}
	if err != nil {
		c.done()
		return nil, err
	}
	return c, nil
}

// launchSpec is the launch of argv under pol as d says from k.
func (k *Kernel) launchSpec(argv []string, pol sandbox.Policy, d sandbox.Decision) launchSpec {
	d.Err = nil
	sp := launchSpec{Policy: pol, Decision: d, Mode: k.mode, Limits: k.buildLimits(argv[0]), Net: k.netFacts(),
		Name: argv[0], Path: argv[0], Argv: argv, Env: k.ChildEnv(argv), Dir: k.workspace, NoNet: k.noNet()}
	if state, _ := nsCurrent(); k.egressActive() && state != nsNone {
		sp.Shim = true
		sp.Env = shimEnv(sp.Env, sp.Name, sp.Limits)
		sp.Path = "/proc/self/exe"
	}
	return sp
}

// launch starts the leader sp describes through the spawner process (one
// found dead is replaced once), or from this process where there is none,
// and fills in c.
func (k *Kernel) launch(c *call, sp launchSpec, files []*os.File) error {
	for range 2 {
		proc, without := k.spawnPath()
		if proc == nil {
			sp.Without = without
			break
		}
		l, st, err := proc.launch(sp, files)
		if errors.Is(err, errSpawnerUnreached) {
			continue // nothing was asked of it: the next spawner is
		}
		if err != nil {
			return err
		}
		c.proc, c.note, c.refusals, c.hostRSS, c.nproc = l, st.note, st.refusals, st.hostRSS, st.nproc
		return nil
	}
	st, err := launch(sp, files)
	if err != nil {
		return err
	}
	c.proc = &leaderProc{Pid: st.proc.Pid, local: st.proc, spawn: st.spawn}
	c.note, c.refusals, c.hostRSS, c.nproc = st.note, st.refusals, st.hostRSS, st.nproc
	return nil
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
	c.proc.release()
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
func (c *call) limitReason(l Limits, ps exitStatus, output string, timedOut bool) string {
	refused := c.proc.refusalsNow() > c.refusals ||
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

// afterNotice is what the call's Result says that is known only once the
// leader is reaped, one notice ("" for none): that the spawner process
// ended during the call, and the refusals of the egress proxy, which it
// ends.
func (c *call) afterNotice() string {
	n := c.egress.finish()
	c.egress = nil
	return joinNotes(c.proc.lostNote(), n)
}
