//go:build linux

package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The host does not fork its calls itself: a call's start is not to depend
// on the agent's memory, threads or collector. A spawner process, the
// host's own executable started again (helperSpawner, run by the package's
// init) with a small heap of its own, forks them (as vforks: see
// cloneVfork), through the same spawners (spawn_linux.go) the host would
// use otherwise. One serves every kernel of the host, started on first use.
//
// It is no new way in. The host talks to it over a socket pair that the
// spawner inherited as fd 3 and marks close-on-exec at once: no path, no
// abstract name, so only the host reaches it, and no command inherits it.
// It runs as the host's user with the host's privileges, no more. A call
// runs in a PID namespace of its own, where the spawner has no pid, so it
// cannot signal, trace or open it (kill, pidfd_open, ptrace all take a pid
// it does not have; pidfd_send_signal refuses a /proc directory of a
// process outside the caller's namespace). Where the system refuses the
// namespaces (a missing guarantee, which Strict refuses), a command can
// reach the spawner as it could reach the host. (It stays dumpable: a
// child of a process that is not carries that to its execve, and the
// holder's user namespace maps must be written before it.) It dies with
// the host: a parent-death signal
// (set from a host thread that never exits) and EOF on the socket; its
// calls die with it (their parent-death signal). A spawner process that
// ended is noticed at once (EOF) and replaced for the next call; a call
// it was running reports that with its result. Where no spawner process
// can be started, calls are forked from the host, and the call says so as
// a missing guarantee: Strict refuses it.

// helperParentEnv holds the host's pid in the spawner's environment.
const helperParentEnv = "TOOLGEN_KERNEL_HELPER_PARENT"

// spawnerExe is the program started as the spawner process.
var spawnerExe = "/proc/self/exe"

// spawnerStartTimeout bounds the wait for a new spawner's first word.
const spawnerStartTimeout = 10 * time.Second

// spawnerRetry is how long a failed start of the spawner process is
// remembered before the next call tries again.
const spawnerRetry = 5 * time.Second

// errSpawnerUnreached wraps why a request never reached the spawner
// process: nothing it asked was done.
var errSpawnerUnreached = errors.New("toolgen's spawner process is gone")

// spawnProc is the host's side of one spawner process.
type spawnProc struct {
	w       *wire
	proc    *os.Process
	mu      sync.Mutex
	pending map[uint64]chan reply
	exits   map[uint64]chan reply // by start request id: the word that the leader exited
	next    uint64
	dead    chan struct{} // closed once it ended
	err     error         // why it ended; set before dead is closed
	exited  chan string   // its wait status, once reaped
}

// reply is one message from the spawner process.
type reply struct {
	e     envelope
	files []*os.File
}

// spawnProcs holds the current spawner process and the last failure to
// start one.
var spawnProcs struct {
	sync.Mutex
	cur     *spawnProc
	failed  error
	retryAt time.Time
}

// liveSpawnProc returns the spawner process, starting one when there is
// none or the last one ended.
func liveSpawnProc() (*spawnProc, error) {
	spawnProcs.Lock()
	defer spawnProcs.Unlock()
	if p := spawnProcs.cur; p != nil && !p.ended() {
		return p, nil
	}
	if spawnProcs.failed != nil && time.Now().Before(spawnProcs.retryAt) {
		return nil, spawnProcs.failed
	}
	p, err := startSpawnProc()
	if err != nil {
		spawnProcs.failed, spawnProcs.retryAt = err, time.Now().Add(spawnerRetry)
		return nil, err
	}
	spawnProcs.cur, spawnProcs.failed = p, nil
	return p, nil
}

// forkFromHost is set by ForkFromThisProcess.
var forkFromHost atomic.Bool

// ForkFromThisProcess makes every kernel of this process fork its calls
// from this process's own spawner threads instead of a spawner process:
// for a process of toolgen's own whose heap stays small (toolgen call and
// explain, one call each; toolgen serve, whose agent is its client), where
// the spawner process would cost a start, or a hand-off per call, and save
// nothing (a leader is started as a vfork: it copies no page tables). An
// agent that embeds the kernel must not call it: its heap is its own. A
// call gets the same guarantees either way; Guarantees.Spawner says which
// process it is forked from. Call it before the first call.
func ForkFromThisProcess() { forkFromHost.Store(true) }

// spawnPath returns the spawner process k's next call goes through, or
// nil and why there is none ("" when k forks its calls itself by
// configuration).
func (k *Kernel) spawnPath() (*spawnProc, string) {
	if k.inProcess || forkFromHost.Load() {
		return nil, ""
	}
	p, err := liveSpawnProc()
	if err != nil {
		return nil, err.Error()
	}
	return p, ""
}

// starter runs functions on an OS thread of its own that never exits: the
// spawner process's parent-death signal fires when the thread that
// started it exits, which must be only when the host does.
var starter = sync.OnceValue(func() chan func() {
	c := make(chan func())
	go func() {
		runtime.LockOSThread() // never unlocked: the thread lives as long as the process
		for f := range c {
			f()
		}
	}()
	return c
})

// startSpawnProc starts a spawner process and waits for its first word.
func startSpawnProc() (*spawnProc, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("toolgen's spawner process: socket pair: %w", err)
	}
	child := os.NewFile(uintptr(fds[1]), "spawner-end")
	devNull, err := devNullFile()
	if err != nil {
		child.Close()
		unix.Close(fds[0])
		return nil, err
	}
	var proc *os.Process
	done := make(chan struct{})
	starter() <- func() {
		defer close(done)
		proc, err = os.StartProcess(spawnerExe, []string{"toolgen-spawner"}, &os.ProcAttr{
			Dir:   "/",
			Env:   []string{helperEnv + "=" + helperSpawner, helperParentEnv + "=" + strconv.Itoa(os.Getpid())},
			Files: []*os.File{devNull, devNull, os.Stderr, child},
			Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
		})
	}
	<-done
	child.Close()
	if err != nil {
		unix.Close(fds[0])
		return nil, fmt.Errorf("toolgen's spawner process could not be started: %w", err)
	}
	w, err := newWire(fds[0], "spawner")
	if err != nil {
		unix.Close(fds[0])
		proc.Kill()
		proc.Wait()
		return nil, fmt.Errorf("toolgen's spawner process: %w", err)
	}
	p := &spawnProc{w: w, proc: proc, pending: map[uint64]chan reply{}, exits: map[uint64]chan reply{}, dead: make(chan struct{}), exited: make(chan string, 1)}
	ready := make(chan reply, 1)
	p.pending[0] = ready
	go p.reap()
	go p.read()
	t := time.NewTimer(spawnerStartTimeout)
	defer t.Stop()
	select {
	case <-ready:
		return p, nil
	case <-p.dead:
		return nil, fmt.Errorf("toolgen's spawner process ended at its start: %v", p.err)
	case <-t.C:
		p.end(errors.New("it did not answer within " + spawnerStartTimeout.String()))
		return nil, fmt.Errorf("toolgen's spawner process did not answer within %s", spawnerStartTimeout)
	}
}

// reap waits for the spawner process to exit.
func (p *spawnProc) reap() {
	ps, err := p.proc.Wait()
	if err != nil {
		p.exited <- err.Error()
	} else {
		p.exited <- ps.String()
	}
	p.end(errors.New("it exited"))
}

// read dispatches the spawner process's replies until its socket ends.
func (p *spawnProc) read() {
	for {
		e, files, err := p.w.recv()
		if err != nil {
			p.end(err)
			return
		}
		p.mu.Lock()
		waiting := p.pending
		if e.Op == opExited {
			waiting = p.exits
		}
		ch := waiting[e.ID]
		delete(waiting, e.ID)
		p.mu.Unlock()
		if ch == nil {
			closeFiles(files)
			continue
		}
		ch <- reply{e, files}
	}
}

// end records that the spawner process ended (or must: it is killed),
// why, and wakes every request waiting for it. Its wait status, when it
// comes within a moment, is the reason given.
func (p *spawnProc) end(why error) {
	p.mu.Lock()
	if p.err != nil {
		p.mu.Unlock()
		return
	}
	p.err = why
	p.mu.Unlock()
	p.w.close()
	_ = p.proc.Kill()
	select {
	case st := <-p.exited:
		why = fmt.Errorf("%s", st)
	case <-time.After(time.Second):
	}
	p.mu.Lock()
	p.err = why
	p.mu.Unlock()
	close(p.dead)
}

// ended reports that the spawner process ended or is ending.
func (p *spawnProc) ended() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err != nil
}

// why is why it ended.
func (p *spawnProc) why() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// call sends one request with files and decodes its reply into out,
// returning the request's id and the reply's descriptors; exit, when not
// nil, gets the word that the leader a start request started exited. An
// error wrapping errSpawnerUnreached means the request was not delivered.
func (p *spawnProc) call(op string, body any, files []*os.File, out any, exit chan reply) (uint64, []*os.File, error) {
	ch := make(chan reply, 1)
	p.mu.Lock()
	if p.err != nil {
		err := p.err
		p.mu.Unlock()
		return 0, nil, fmt.Errorf("%w (%v)", errSpawnerUnreached, err)
	}
	p.next++
	id := p.next
	p.pending[id] = ch
	if exit != nil {
		p.exits[id] = exit
	}
	p.mu.Unlock()
	if err := p.w.send(id, op, body, files...); err != nil {
		p.mu.Lock()
		delete(p.pending, id)
		delete(p.exits, id)
		p.mu.Unlock()
		p.end(err)
		return 0, nil, fmt.Errorf("%w (%v)", errSpawnerUnreached, err)
	}
	var r reply
	select {
	case r = <-ch:
	case <-p.dead:
		select {
		case r = <-ch: // it answered just before it ended
		default:
			return id, nil, fmt.Errorf("toolgen's spawner process ended before it answered (%v)", p.why())
		}
	}
	if err := json.Unmarshal(r.e.Body, out); err != nil {
		closeFiles(r.files)
		return id, nil, fmt.Errorf("toolgen's spawner process: %s reply: %w", op, err)
	}
	return id, r.files, nil
}

// notify sends a request that has no reply.
func (p *spawnProc) notify(op string, body any) {
	_ = p.w.send(^uint64(0), op, body)
}

// launch starts the leader sp describes through the spawner process.
// Its answer carries the leader's pid, which the host never signals by
// (see remoteLeader).
func (p *spawnProc) launch(sp launchSpec, files []*os.File) (*leaderProc, *started, error) {
	var rep startReply
	exit := make(chan reply, 1)
	id, fds, err := p.call(opStart, startRequest{Spec: sp, Knobs: hostKnobs()}, files, &rep, exit)
	if errors.Is(err, errSpawnerUnreached) {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, fmt.Errorf("kernel: not running %s: %w: %w", sp.Name, err, ErrNotExecutable)
	}
	rep.Sync.apply()
	if rep.Err != nil {
		closeFiles(fds)
		p.mu.Lock()
		delete(p.exits, id) // nothing started: no word will come
		p.mu.Unlock()
		return nil, nil, rep.Err.err()
	}
	closeFiles(fds) // none is sent with a start's answer
	// Pid 0: the host never signals the leader's group by its id; the
	// spawner, which reaps it, does (opKill), so the id cannot have been
	// reused by then.
	l := &leaderProc{remote: &remoteLeader{proc: p, id: id, exit: exit}}
	return l, &started{note: rep.Note, state: rep.State, refusals: rep.Refusals, hostRSS: rep.HostRSS, nproc: rep.NProc}, nil
}

// guarantees asks the spawner process what the call sp describes gets.
func (p *spawnProc) guarantees(sp launchSpec) (Guarantees, error) {
	var rep guaranteesReply
	_, fds, err := p.call(opGuarantees, startRequest{Spec: sp, Knobs: hostKnobs()}, nil, &rep, nil)
	closeFiles(fds)
	if err != nil {
		return Guarantees{}, err
	}
	rep.Sync.apply()
	return rep.G, nil
}

// leaderProc is a started call's leader, forked by this process (local,
// from spawn) or by the spawner process (remote).
type leaderProc struct {
	Pid    int
	local  *os.Process
	spawn  *spawner
	remote *remoteLeader
}

// remoteLeader is a leader the spawner process started. The spawner
// tells when it exited, once it has killed what is left of its process
// group and reaped it (with its status and resource usage); it also kills
// the group when the host asks (a timeout, a cancelled call), before it
// reaps, so that the group's id is never one reused meanwhile.
type remoteLeader struct {
	proc     *spawnProc
	id       uint64     // the start request's id: the call's name there
	exit     chan reply // the spawner's word that it exited
	ended    *reapReply // that word; nil when the spawner ended first
	reaped   bool
	refusals uint64 // the cgroup's refusals once it exited
	lost     string // why its status is lost, "" when it is not
}

// kill ends a started leader whose call cannot go on, and reaps it.
func (l *leaderProc) kill() {
	if l.remote != nil {
		l.remote.proc.notify(opKill, reapRequest{Call: l.remote.id})
		l.remote.wait()
		_, _ = l.remote.status()
		return
	}
	l.local.Kill()
	l.local.Wait()
}

// release lets go of what the leader held, once it is reaped (or was
// never started: l is nil).
func (l *leaderProc) release() {
	switch {
	case l == nil:
	case l.remote != nil:
		if !l.remote.reaped {
			l.kill()
		}
	default:
		release(l.spawn)
	}
}

// refusalsNow is the fork refusals of the leader's spawner's cgroup: now,
// or when the spawner process reaped it.
func (l *leaderProc) refusalsNow() uint64 {
	if l.remote != nil {
		return l.remote.refusals
	}
	return l.spawn.cg.refusals()
}

// lostNote is the warning a call whose spawner process ended under it
// carries, "" for none.
func (l *leaderProc) lostNote() string {
	if l.remote != nil {
		return l.remote.lost
	}
	return ""
}

// watch is watchLeader for a remote leader: exited closes once the
// spawner process says it exited and is reaped (or ended itself).
func (r *remoteLeader) watch() (<-chan struct{}, func() (exitStatus, error)) {
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		r.wait()
	}()
	return ch, func() (exitStatus, error) {
		select {
		case <-ch:
		default: // the call is being ended: the spawner kills the group
			r.proc.notify(opKill, reapRequest{Call: r.id})
			<-ch
		}
		return r.status()
	}
}

// wait blocks until the spawner process says the leader exited, or ended.
func (r *remoteLeader) wait() {
	var m reply
	select {
	case m = <-r.exit:
	case <-r.proc.dead:
		select {
		case m = <-r.exit: // it said so just before it ended
		default:
			return
		}
	}
	closeFiles(m.files)
	var rep reapReply
	if json.Unmarshal(m.e.Body, &rep) == nil && rep.Err == "" {
		r.ended = &rep
	}
}

// status returns how the leader ended, once wait returned. Where the
// spawner process ended first, the leader was killed with it (its
// parent-death signal) and its status is lost: the call reports SIGKILL,
// and lost says why.
func (r *remoteLeader) status() (exitStatus, error) {
	if r.reaped {
		return nil, errors.New("reaped twice")
	}
	r.reaped = true
	if r.ended == nil {
		r.lost = "warning: toolgen's spawner process ended during the call (" + fmt.Sprint(r.proc.why()) +
			"): the command was killed with it and its exit status is lost; a new spawner process serves the next call"
		return &remoteStatus{ws: syscall.WaitStatus(syscall.SIGKILL)}, nil
	}
	r.refusals = r.ended.Refusals
	return &remoteStatus{ws: syscall.WaitStatus(r.ended.Status), ru: r.ended.Rusage}, nil
}

// remoteStatus is how a leader the spawner process reaped ended.
type remoteStatus struct {
	ws syscall.WaitStatus
	ru syscall.Rusage
}

func (s *remoteStatus) ExitCode() int {
	if !s.ws.Exited() {
		return -1
	}
	return s.ws.ExitStatus()
}
func (s *remoteStatus) Sys() any                  { return s.ws }
func (s *remoteStatus) SysUsage() any             { return &s.ru }
func (s *remoteStatus) UserTime() time.Duration   { return time.Duration(s.ru.Utime.Nano()) }
func (s *remoteStatus) SystemTime() time.Duration { return time.Duration(s.ru.Stime.Nano()) }
