//go:build linux

package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The spawner process's side (see spawnproc_linux.go): it serves the
// host's requests, each on a goroutine of its own, with the code the host
// runs where there is no spawner process (launch, guaranteesVia).

// Requests of the host.
const (
	opStart      = "start"      // startRequest + stdin, output, [egress]; startReply, later opExited
	opExited     = "exited"     // the spawner's word, under the start's id, once reaped: reapReply
	opKill       = "kill"       // reapRequest: kill the leader's group; opExited follows
	opGuarantees = "guarantees" // startRequest; guaranteesReply
	opPrepare    = "prepare"    // prepareRequest; no reply
)

// startRequest is a launch, or the guarantees of one.
type startRequest struct {
	Spec  launchSpec
	Knobs knobs
}

// knobs carry the host's settings of what the spawners consult: the
// benchmarks' and tests' forced descendant control and post-exec stop,
// and what the host learned of the system.
type knobs struct {
	NSForce  *int32
	NoPtrace bool
	Refusal  string // the call namespaces were refused: why
}

// hostKnobs are this process's.
func hostKnobs() knobs {
	k := knobs{NSForce: nsForce.Load(), NoPtrace: noPtrace.Load()}
	if e := nsRefusal.Load(); e != nil {
		k.Refusal = (*e).Error()
	}
	return k
}

// apply sets them in this process.
func (k knobs) apply() {
	nsForce.Store(k.NSForce)
	noPtrace.Store(k.NoPtrace)
	if k.Refusal != "" {
		err := errors.New(k.Refusal)
		nsRefusal.CompareAndSwap(nil, &err)
	}
}

// syncState is what the spawner process learned of the system, for the
// host's DescendantControl and the next requests' knobs.
type syncState struct {
	NoPtrace bool
	Refusal  string
	Tried    bool
}

// learned is this process's.
func learned() syncState {
	s := syncState{NoPtrace: noPtrace.Load(), Tried: nsTried.Load()}
	if e := nsRefusal.Load(); e != nil {
		s.Refusal = (*e).Error()
	}
	return s
}

// apply records it in the host.
func (s syncState) apply() {
	if s.NoPtrace {
		noPtrace.Store(true)
	}
	if s.Tried {
		nsTried.Store(true)
	}
	if s.Refusal != "" {
		err := errors.New(s.Refusal)
		nsRefusal.CompareAndSwap(nil, &err)
	}
}

// startReply is a launch's outcome: Err, or the leader.
type startReply struct {
	Err      *wireErr
	Pid      int
	State    int32
	Note     string
	Refusals uint64
	HostRSS  int64
	NProc    bool
	Sync     syncState
}

// reapRequest names the call (its start request's id) to reap.
type reapRequest struct{ Call uint64 }

// reapReply is how the leader ended (opExited).
type reapReply struct {
	Err      string
	Status   uint32 // syscall.WaitStatus
	Rusage   syscall.Rusage
	Refusals uint64 // of its spawner's cgroup, after it
}

// guaranteesReply is a call's guarantees.
type guaranteesReply struct {
	G    Guarantees
	Sync syncState
}

// prepareRequest is Prepare's and PrepareWorkspace's work, done ahead.
type prepareRequest struct {
	Processes int    // -1: no spawner thread to prepare
	Workspace string // "" for none
}

// wireErr is a launch's error as it crosses: its text and the sentinels
// and errno it wraps.
type wireErr struct {
	Msg      string
	NotFound bool
	NotExec  bool
	Errno    uintptr
}

func newWireErr(err error) *wireErr {
	w := &wireErr{Msg: err.Error(), NotFound: errors.Is(err, ErrNotFound), NotExec: errors.Is(err, ErrNotExecutable)}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		w.Errno = uintptr(errno)
	}
	return w
}

// err is the error the host returns: the same text, the same sentinels.
func (w *wireErr) err() error { return &remoteError{*w} }

type remoteError struct{ w wireErr }

func (e *remoteError) Error() string { return e.w.Msg }

func (e *remoteError) Is(target error) bool {
	return target == ErrNotFound && e.w.NotFound || target == ErrNotExecutable && e.w.NotExec
}

func (e *remoteError) Unwrap() error {
	if e.w.Errno == 0 {
		return nil
	}
	return syscall.Errno(e.w.Errno)
}

// inSpawner is set in the spawner process.
var inSpawner bool

// spawnerLine is Guarantees.Spawner: the process a call is forked from;
// without is why that is not the spawner process ("" when it is, or the
// kernel forks its calls itself by configuration).
func spawnerLine(without string) string {
	switch {
	case inSpawner:
		return "a spawner process of toolgen's own (its executable started again, pid " + strconv.Itoa(os.Getpid()) +
			", with a small heap): the call's cost does not grow with the agent's memory"
	case without != "":
		return "the agent's process itself: " + without
	}
	return "this process itself, set to fork its calls (a process of toolgen's own with a small heap, not the agent's)"
}

// server is the spawner process's state: the calls started and not yet
// reaped, by start request id.
type server struct {
	w     *wire
	mu    sync.Mutex
	calls map[uint64]*started
}

// runSpawner is the spawner process's life: fd 3 is its end of the
// socket pair, parent the host's pid. It returns (and the process exits,
// its calls killed by their parent-death signal) when the host closes
// the socket or dies.
func runSpawner(parent string) int {
	inSpawner = true
	if strconv.Itoa(os.Getppid()) != parent {
		return 1 // the host died before the parent-death signal was set
	}
	unix.CloseOnExec(3)
	w, err := newWire(3, "host")
	if err != nil {
		fmt.Fprintln(os.Stderr, "toolgen spawner:", err)
		return 1
	}
	sv := &server{w: w, calls: map[uint64]*started{}}
	if err := w.send(0, "ready", struct{ Pid int }{os.Getpid()}); err != nil {
		return 1
	}
	keepSmall()
	for {
		e, files, err := w.recv()
		if err != nil {
			return 0
		}
		go sv.handle(e, files)
	}
}

// spawnerGCPercent is the spawner process's GOGC: its live heap is small
// (what the program's packages made at their init, and the calls in
// flight), so a low percentage keeps its heap near that instead of the
// runtime's 4 MiB floor, for a few short collections more.
const spawnerGCPercent = 25

// keepSmall sets the spawner process's heap goal low and returns what the
// program's packages allocated at their init and dropped: the spawner's
// memory is counted with the host's (see mcpbench).
func keepSmall() {
	debug.SetGCPercent(spawnerGCPercent)
	debug.FreeOSMemory()
}

// handle serves one request.
func (sv *server) handle(e envelope, files []*os.File) {
	defer closeFiles(files)
	switch e.Op {
	case opStart:
		sv.start(e, files)
	case opKill:
		sv.kill(e)
	case opGuarantees:
		var req startRequest
		if json.Unmarshal(e.Body, &req) != nil {
			_ = sv.w.send(e.ID, e.Op, guaranteesReply{G: Guarantees{Missing: []string{"a readable request"}}})
			return
		}
		req.Knobs.apply()
		g := guaranteesVia(req.Spec)
		_ = sv.w.send(e.ID, e.Op, guaranteesReply{G: g, Sync: learned()})
	case opPrepare:
		var req prepareRequest
		if json.Unmarshal(e.Body, &req) != nil {
			return
		}
		if req.Processes >= 0 {
			prepareLocal(req.Processes)
		}
		if req.Workspace != "" {
			prepareWorkspaceLocal(req.Workspace)
		}
	}
}

// start launches a call, answers with its pid and watches it.
func (sv *server) start(e envelope, files []*os.File) {
	var req startRequest
	if err := json.Unmarshal(e.Body, &req); err != nil {
		_ = sv.w.send(e.ID, e.Op, startReply{Err: newWireErr(fmt.Errorf("kernel: the spawner process could not read the call: %w: %w", err, ErrNotExecutable))})
		return
	}
	if len(files) < 3 { // stdin, stdout, stderr (the egress socket after them)
		_ = sv.w.send(e.ID, e.Op, startReply{Err: newWireErr(fmt.Errorf("kernel: the call came with %d descriptors: %w", len(files), ErrNotExecutable))})
		return
	}
	req.Knobs.apply()
	st, err := launch(req.Spec, files)
	closeFiles(files) // the leader has its copies: the output's EOF is its
	if err != nil {
		_ = sv.w.send(e.ID, e.Op, startReply{Err: newWireErr(err), Sync: learned()})
		return
	}
	sv.mu.Lock()
	sv.calls[e.ID] = st
	sv.mu.Unlock()
	rep := startReply{Pid: st.proc.Pid, State: st.state, Note: st.note, Refusals: st.refusals, HostRSS: st.hostRSS, NProc: st.nproc, Sync: learned()}
	if err := sv.w.send(e.ID, e.Op, rep); err != nil {
		st.proc.Kill() // the host is gone
		return
	}
	sv.watch(e.ID, st)
}

// watch waits for a call's leader to exit, kills what is left of its
// process group, reaps it and tells the host how it ended. The kill and
// the reap hold the call's lock, as opKill's kill does: the group's id is
// the leader's until it is reaped.
func (sv *server) watch(id uint64, st *started) {
	ws, ru, err := waitExited(st.proc.Pid)
	sv.mu.Lock()
	killGroup(st.proc.Pid)
	st.proc.Wait()
	delete(sv.calls, id)
	sv.mu.Unlock()
	rep := reapReply{Refusals: st.spawn.cg.refusals(), Status: uint32(ws), Rusage: ru}
	release(st.spawn)
	if err != nil {
		rep.Err = err.Error()
	}
	_ = sv.w.send(id, opExited, rep)
}

// kill kills a call's leader's process group, unless it is reaped.
func (sv *server) kill(e envelope) {
	var req reapRequest
	_ = json.Unmarshal(e.Body, &req)
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if st := sv.calls[req.Call]; st != nil {
		killGroup(st.proc.Pid)
	}
}
