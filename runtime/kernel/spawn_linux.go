//go:build linux

package kernel

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// A spawner is a goroutine locked to an OS thread of its own for good. The
// thread carries one Landlock policy (or none), applied once when the
// spawner is made, and every child started through the spawner is forked
// from it, so the child inherits the policy: Landlock confines a thread and
// what it starts, and os.StartProcess forks from the calling thread. The
// thread also outlives every child it forked, so a child's parent-death
// signal (SIGKILL) fires only when the host process itself dies.
type spawner struct {
	reqs chan *startReq
	err  error         // the policy could not be applied: the spawner is dead
	note string        // a warning every command it starts carries, "" for none
	cg   *threadCgroup // the pids cgroup of its thread, or nil
	// noexec is why a confined spawner's commands do not see the workspace
	// mounted noexec (nil: they do; see Guarantees).
	noexec error
	// protect is why a confined spawner's commands do not get the
	// protected paths read-only (nil: they do; see protect.go).
	protect error
	holder  *holder   // not root, confined: the noexec namespace's holder
	live    int       // children started and not yet reaped; pool.mu
	last    time.Time // last use; pool.mu
}

// startReq asks a spawner to start one process, and to run setup on it
// before it runs any instruction of its program.
type startReq struct {
	path  string
	argv  []string
	attr  *os.ProcAttr
	setup func(pid int) error
	proc  *os.Process
	err   error
	done  chan struct{}
}

// newSpawner starts a spawner confined to p as d says, binding the
// protected paths pr (the reading its key holds, so that what it binds is
// what its key says), its thread in a pids cgroup of maxProcs where there
// is one (see threadCgroup), and waits
// until its thread is set up (or failed to be). It takes the spare thread
// Prepare made, when there is one, which is already in a cgroup of its own.
//
// Not root, a confined spawner also gets a holder of the workspace's noexec
// mount namespace, started from this goroutine (unrestricted: it writes the
// holder's user namespace maps); s.noexec says why when there is none.
func newSpawner(p sandbox.Policy, pr sandbox.Protection, d sandbox.Decision, maxProcs int) *spawner {
	s := newSpawnerThread(p, pr, d, maxProcs)
	if s.err == nil && d.Apply && os.Geteuid() != 0 {
		// A tool that runs code gets a holder that binds the protected
		// paths without mounting the workspace noexec.
		var err error
		s.holder, err = takeHolder(p.Workspace, pr, p.WorkspaceNoExec())
		s.protect = err // the holder makes both
		if p.WorkspaceNoExec() {
			s.noexec = err
		}
	}
	return s
}

// newSpawnerThread is newSpawner but the holder.
func newSpawnerThread(p sandbox.Policy, pr sandbox.Protection, d sandbox.Decision, maxProcs int) *spawner {
	s := &spawner{reqs: make(chan *startReq)}
	ready := make(chan error)
	if maxProcs == 0 {
		// No cgroup needed: neither wait for the spare (making its
		// cgroup takes a few syscalls) nor take it.
		sandbox.GoThread(func() { s.loop(p, pr, d, false, ready) })
		s.err = <-ready
		return s
	}
	if t := takeSpare(); t != nil {
		if maxProcs > 0 && t.err == nil {
			if t.cg != nil {
				// The thread has forked nothing yet: the limit is in place
				// before its first child.
				if err := t.cg.setMax(maxProcs); err != nil {
					close(t.work)
					s.err = err
					return s
				}
			}
			s.cg = t.cg
			t.work <- func() { s.loop(p, pr, d, true, ready) }
			s.err = <-ready
			return s
		}
		close(t.work) // not usable for this spawner: let its thread go
	}
	cg, err := newThreadCgroup(maxProcs)
	if err != nil {
		s.err = err
		return s
	}
	s.cg = cg
	sandbox.GoThread(func() { s.loop(p, pr, d, false, ready) })
	s.err = <-ready
	return s
}

// loop sets up the spawner's thread (joins its cgroup unless joined says
// the thread already has, then applies the policy), reports how that went
// on ready and serves start requests until s.reqs is closed.
func (s *spawner) loop(p sandbox.Policy, pr sandbox.Protection, d sandbox.Decision, joined bool, ready chan<- error) {
	// It runs on a thread sandbox.GoThread locked for good (never the main
	// thread): when this goroutine returns, the runtime destroys the thread,
	// restricted as it is, instead of reusing it. (The runtime never clones
	// a locked thread to make another one: it asks its template thread
	// instead, so no other thread inherits this one's Landlock domain, mount
	// namespace or cgroup.)
	if s.cg != nil {
		defer func() { go s.cg.remove() }()
	}
	defer func() {
		if s.holder != nil { // set after ready, before the first request
			s.holder.close()
		}
	}()
	var err error
	if s.cg != nil && !joined {
		err = s.cg.join()
	}
	if err == nil && d.Apply && os.Geteuid() == 0 {
		// Before Landlock, which forbids mounting. Not root, a holder
		// keeps the namespace instead (newSpawner). Where neither works,
		// Landlock's execute set still keeps the workspace's files from
		// being executed, though not from being loaded as libraries, and
		// Guarantees says so. A tool that runs code gets the protected
		// paths without the noexec mount.
		if p.WorkspaceNoExec() {
			s.noexec = sandbox.NoExecWorkspace(p.Workspace)
			s.protect = protectMounts(pr, s.noexec)
		} else {
			s.protect = sandbox.ProtectWorkspace(pr)
		}
	}
	if err == nil {
		err = sandbox.RestrictThread(p, d)
	}
	ready <- err
	if err != nil {
		return
	}
	for r := range s.reqs {
		r.proc, r.err = startStopped(r.path, r.argv, r.attr, r.setup)
		close(r.done)
	}
}

// spareThread is an OS thread made ahead of need by Prepare: locked to its
// goroutine, in a pids cgroup of its own (no limit set yet) where there is a
// pids hierarchy, unrestricted, and with nothing forked. newSpawner takes it
// and sends the spawner's loop on work, or closes work to let it end.
type spareThread struct {
	cg   *threadCgroup // nil when there is no pids hierarchy
	err  error         // making or joining the cgroup failed: unusable
	work chan func()
}

// spare is the spare thread being made or made, or nil.
var spare struct {
	sync.Mutex
	c chan *spareThread
}

// Prepare does ahead of need, in the background, what the first command
// of a process would otherwise wait for, so that a command-line call can
// spend that time assembling its preset: the start of the spawner process
// (spawnproc_linux.go) and, there, the thread of the first spawner, moved
// into a pids cgroup of its own (as root; making the cgroup and moving the
// thread take ~0.1-0.3 ms on cgroup v1). opts are the options the kernel
// will be made with: under WithProcessLimit(0) no cgroup is needed and no
// thread is made. Prepare changes nothing of what the spawner enforces
// (the process limit is set, and the policy applied, when the spawner is
// made, before its first fork). Calling it is optional.
func Prepare(opts ...Option) {
	c := config{limits: Limits{Processes: DefaultProcessLimit}}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.inProcess || forkFromHost.Load() {
		prepareLocal(c.limits.Processes)
		return
	}
	go func() {
		if p, err := liveSpawnProc(); err == nil {
			p.notify(opPrepare, prepareRequest{Processes: c.limits.Processes})
		}
	}()
}

// prepareLocal is Prepare in the process that forks the calls: the os
// package's one-time check that pidfds work (it starts a child of its
// own), and the spare thread, unless processes is 0.
func prepareLocal(processes int) {
	pidfdProbe.Do(func() {
		go func() {
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Release()
			}
		}()
	})
	if st, _ := nsCurrent(); st == nsUserPID || processes == 0 {
		return // RLIMIT_NPROC, or nothing, caps the processes: no cgroup
	}
	spare.Lock()
	defer spare.Unlock()
	if spare.c != nil {
		return
	}
	c2 := make(chan *spareThread, 1)
	spare.c = c2
	sandbox.GoThread(func() { // never unlocked: see spawner.loop
		t := &spareThread{work: make(chan func())}
		t.cg, t.err = makeThreadCgroup()
		if t.cg != nil && t.err == nil {
			t.err = t.cg.join()
		}
		c2 <- t
		if f, ok := <-t.work; ok {
			f() // the spawner's loop, which owns t.cg from now on
			return
		}
		if t.cg != nil {
			go t.cg.remove()
		}
	})
}

// pidfdProbe runs the os package's pidfd check once, in the background.
var pidfdProbe sync.Once

// takeSpare returns the spare thread, waiting for it while it is being
// made, or nil when Prepare was not called (or the spare was taken).
func takeSpare() *spareThread {
	spare.Lock()
	c := spare.c
	spare.c = nil
	spare.Unlock()
	if c == nil {
		return nil
	}
	return <-c
}

// siginfo si_code values of waitid for a child that stopped.
const (
	cldTrapped = 4 // CLD_TRAPPED: a traced child stopped
	cldStopped = 5 // CLD_STOPPED
)

// noPtrace is set once PTRACE_TRACEME was refused here (Yama's
// ptrace_scope 3, a seccomp profile): setup then runs just after the start.
var noPtrace atomic.Bool

// startStopped starts the process traced, so that the kernel stops it right
// after its execve, before the dynamic loader runs; runs setup (resource
// limits, cgroup) on it; then detaches, which lets it run. The program thus
// never runs a single instruction without its limits. It runs on the
// spawner's thread, which is the tracer. Where tracing is refused, setup
// runs right after the start instead, while the program starts.
func startStopped(path string, argv []string, attr *os.ProcAttr, setup func(int) error) (*os.Process, error) {
	if !noPtrace.Load() {
		attr.Sys.Ptrace = true
		proc, err := os.StartProcess(path, argv, attr)
		attr.Sys.Ptrace = false
		if err == nil {
			// Look without reaping: a process killed before its stop is
			// left for the caller's wait, which reports the signal.
			var info unix.Siginfo
			for {
				werr := unix.Waitid(unix.P_PID, proc.Pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT|unix.WALL, nil)
				if werr == unix.EINTR {
					continue
				}
				if werr != nil {
					return nil, fmt.Errorf("waiting for the started process to stop: %w", werr)
				}
				break
			}
			if info.Code != cldTrapped && info.Code != cldStopped {
				return proc, nil // it is gone: nothing to set up
			}
			var ws unix.WaitStatus
			if _, werr := unix.Wait4(proc.Pid, &ws, unix.WALL, nil); werr != nil || !ws.Stopped() {
				return nil, fmt.Errorf("the started process did not stop after exec: %v %v", ws, werr)
			}
			err = setup(proc.Pid)
			// ESRCH: it was killed while stopped (SIGKILL ends a tracee
			// too); its wait status says so.
			if derr := unix.PtraceDetach(proc.Pid); err == nil && derr != nil && derr != unix.ESRCH {
				err = fmt.Errorf("ptrace detach: %w", derr)
			}
			if err != nil {
				proc.Kill()
				proc.Wait()
				return nil, err
			}
			return proc, nil
		}
		if !errors.Is(err, syscall.EPERM) {
			return nil, err
		}
		proc, err2 := startUntraced(path, argv, attr, setup)
		if err2 != nil {
			return nil, err // not ptrace's fault
		}
		noPtrace.Store(true)
		return proc, nil
	}
	return startUntraced(path, argv, attr, setup)
}

// startUntraced starts the process and runs setup on it at once.
func startUntraced(path string, argv []string, attr *os.ProcAttr, setup func(int) error) (*os.Process, error) {
	proc, err := os.StartProcess(path, argv, attr)
	if err != nil {
		return nil, err
	}
	if err := setup(proc.Pid); err != nil {
		proc.Kill()
		proc.Wait()
		return nil, err
	}
	return proc, nil
}

// start starts a process from the spawner's thread and runs setup on it
// there before the program runs (see startStopped).
func (s *spawner) start(path string, argv []string, attr *os.ProcAttr, setup func(int) error) (*os.Process, error) {
	r := &startReq{path: path, argv: argv, attr: attr, setup: setup, done: make(chan struct{})}
	s.reqs <- r
	<-r.done
	return r.proc, r.err
}

// maxIdleSpawners bounds the spawners kept for reuse. A spawner is one
// thread per distinct (mode, policy): workspace, access, readable paths and
// execute set, so one per program and access in practice.
const maxIdleSpawners = 64

// pool holds the spawners of the process, keyed by mode and policy.
var pool = struct {
	sync.Mutex
	m map[string]*spawner
}{m: map[string]*spawner{}}

// acquire returns the spawner for p in d (made on first use) with one more
// live child counted, which release uncounts; pr is p's protected paths as
// they are on disk now (p.Protection(), read once per call by its caller;
// unused when d does not apply p). A spawner whose policy could not be
// applied is not kept: in BestEffort the command then runs from an
// unrestricted spawner, with a note; in Strict it does not run.
func acquire(p sandbox.Policy, pr sandbox.Protection, d sandbox.Decision, mode sandbox.Mode, maxProcs int) (*spawner, string, error) {
	if st, _ := nsCurrent(); st == nsUserPID {
		maxProcs = 0 // RLIMIT_NPROC in the call's user namespace does it
	}
	key := policyKey(p, pr, d) + "\x00procs=" + strconv.Itoa(maxProcs)
	pool.Lock()
	defer pool.Unlock()
	s := pool.m[key]
	if s == nil {
		s = newSpawner(p, pr, d, maxProcs)
		if s.err != nil {
			if mode == sandbox.Strict {
				return nil, "", s.err
			}
			err := s.err
			s = newSpawner(p, sandbox.Protection{}, sandbox.Decision{}, maxProcs)
			if s.err != nil {
				return nil, "", s.err
			}
			s.note = "warning: not confined: " + err.Error() +
				"; the command ran with all of the agent's access to files and network"
		}
		pool.m[key] = s
		retireIdle(s)
	}
	s.live++
	s.last = time.Now()
	if s.note != "" {
		return s, s.note, nil
	}
	return s, d.Note, nil
}

// release records that a child of s was reaped.
func release(s *spawner) {
	pool.Lock()
	s.live--
	pool.Unlock()
}

// retireIdle ends the least recently used spawners with no live child while
// there are more than maxIdleSpawners; keep is never retired. A spawner with
// live children is never retired: its thread's exit would fire their
// parent-death signal. pool.mu is held.
func retireIdle(keep *spawner) {
	for len(pool.m) > maxIdleSpawners {
		var oldKey string
		var old *spawner
		for k, s := range pool.m {
			if s != keep && s.live == 0 && (old == nil || s.last.Before(old.last)) {
				oldKey, old = k, s
			}
		}
		if old == nil {
			return
		}
		delete(pool.m, oldKey)
		close(old.reqs)
	}
}

// policyKey identifies a spawner: the policy, whether it is applied, and
// (when it is) the protected paths pr it binds.
func policyKey(p sandbox.Policy, pr sandbox.Protection, d sandbox.Decision) string {
	if !d.Apply {
		return "unrestricted"
	}
	var b strings.Builder
	b.WriteString(p.Workspace)
	for _, s := range [][]string{{p.Home, strconv.FormatBool(p.Write), strconv.FormatBool(p.Network), strconv.Itoa(int(p.ProxyPort)),
		strconv.FormatBool(p.RunsCode)}, p.Read, {"write"}, p.WriteDirs, {"exec"}, p.Exec, {pr.Key()}} {
		for _, e := range s {
			b.WriteByte(0)
			b.WriteString(e)
		}
	}
	return b.String()
}
