//go:build linux

package kernel

import (
	"errors"
	"fmt"
	"os"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// launchSpec is everything starting one call's leader needs, in a form
// that crosses to the spawner process whole (encoding/json of the struct:
// a field added to sandbox.Policy or Limits travels without change here).
// The same code starts it there (spawnserve_linux.go) and, where there is
// no spawner process, in the host (launch).
type launchSpec struct {
	Policy   sandbox.Policy
	Decision sandbox.Decision // Err is nil: a refused decision never starts
	Mode     sandbox.Mode
	Limits   Limits // the call's own (buildLimits: a tool that runs code has its toolchain's)
	Net      netFacts
	Name     string   // argv[0] as resolved: what messages name
	Path     string   // the leader's program: Name, or the egress shim
	Argv     []string // the command's argv
	Env      []string
	Dir      string
	NoNet    bool // a network namespace of the call's own
	Shim     bool // the leader is the egress shim
	// Without, when not "", is why the call is forked from the host
	// instead of its spawner process: a missing guarantee.
	Without string
}

// netFacts is what a call's network guarantee depends on besides its
// namespaces (see Guarantees.network).
type netFacts struct {
	Network bool     // the tool declares the network
	Hosts   []string // the hosts it may reach
	Off     bool     // confinement is off
	Egress  bool     // an egress proxy is set (WithEgress)
}

// netFacts returns k's.
func (k *Kernel) netFacts() netFacts {
	return netFacts{Network: k.access.Network, Hosts: k.access.Hosts, Off: k.mode == sandbox.Off, Egress: k.egress != nil}
}

// started is a leader launch started, with what its call needs to know.
type started struct {
	proc     *os.Process
	spawn    *spawner
	note     string // Result.Notice so far
	state    int32  // the descendant control it got
	refusals uint64 // the spawner's cgroup's fork refusals before the call
	hostRSS  int64  // the forking process's peak resident size at the start
	nproc    bool   // RLIMIT_NPROC caps its processes
}

// launch starts the leader sp describes from this process's spawner of
// its policy, files being its stdin, its stdout, its stderr (stdout again
// when the two are interleaved) and, for the shim, the egress socket.
// Strict refuses a call that lacks a guarantee before anything starts. Errors are the kernel's, ready for the
// Result ("kernel: ...", wrapping ErrNotFound or ErrNotExecutable).
func launch(sp launchSpec, files []*os.File) (*started, error) {
	pr := sp.protection()
	s, note, err := acquire(sp.Policy, pr, sp.Decision, sp.Mode, sp.Limits.Processes)
	if err != nil {
		return nil, fmt.Errorf("kernel: not running %s: %w: %w", sp.Name, err, ErrNotExecutable)
	}
	st := &started{spawn: s, refusals: s.cg.refusals()}
	chroot := ""
	if sp.Decision.Apply {
		chroot = s.holder.chroot()
	}
	if sp.Mode == sandbox.Strict { // only strict refuses a call for what it would lack
		state, why := nsCurrent()
		if g := sp.guarantees(state, why, s, pr, chroot != ""); len(g.Missing) > 0 {
			release(s)
			return nil, fmt.Errorf("kernel: not running %s: %s: %w", sp.Name, g.refusal(), ErrNotExecutable)
		}
	}
	attr := os.ProcAttr{Dir: sp.Dir, Env: sp.Env, Files: files}
	setup := func(pid int, state int32) error {
		st.hostRSS = selfPeakRSS()
		if state == nsUserPID {
			// Stopped after its execve, the leader gets its ids mapped
			// before it runs. Where tracing is refused it is already
			// running and may have exited: the maps only make its ids
			// read as the user's (unmapped, they read as the overflow
			// id and grant nothing), so a failure there is no error.
			if err := writeIDMaps(pid, sp.Decision.Apply); err != nil && !noPtrace.Load() {
				return err
			}
		}
		limits := sp.Limits
		if sp.Shim {
			limits.Memory = 0 // the shim sets it on itself before its execve
		}
		if err := applyRlimits(pid, limits, state); err != nil {
			return fmt.Errorf("resource limits: %w", err)
		}
		return nil
	}
	l, err := startLeader(s, sp.Mode == sandbox.Strict, sp.Path, sp.Argv, attr, chroot, sp.NoNet, sp.Shim, setup)
	if err != nil {
		release(s)
		if errors.Is(err, errNamespacesRefused) {
			err = fmt.Errorf("%w: %w", err, ErrNotExecutable)
		}
		return nil, fmt.Errorf("kernel: start %s: %w", sp.Name, classifyStart(err))
	}
	if l.state != nsNone {
		nsTried.Store(true)
	}
	_, why := nsCurrent()
	g := sp.guarantees(l.state, why, s, pr, l.chroot)
	st.proc, st.state = l.proc, l.state
	st.note = joinNotes(note, g.warning())
	st.nproc = l.state == nsUserPID && sp.Limits.Processes > 0
	return st, nil
}

// protection is the protected paths of sp's policy as they are on disk
// now, read once per call (the spawner's key and the call's guarantees
// both come from it); the zero Protection when the policy is not applied.
func (sp launchSpec) protection() sandbox.Protection {
	if !sp.Decision.Apply {
		return sandbox.Protection{}
	}
	return sp.Policy.Protection()
}

// guarantees says what the call sp describes, started under state (why:
// the refusal when nsNone) through s, gets; pr is sp.protection(); chroot
// reports that it takes the noexec holder's root.
func (sp launchSpec) guarantees(state int32, why error, s *spawner, pr sandbox.Protection, chroot bool) Guarantees {
	apply := sp.Decision.Apply
	g := processGuarantees(state, why, s, chroot, apply, sp.Policy.RunsCode, sp.Limits)
	g.network(state, why, sp.Net)
	g.privileges(state, why, apply, sp.Mode.String())
	if apply {
		g.protected(sp.Policy, pr, protectWhy(state, s, chroot))
	}
	g.Spawner = spawnerLine(sp.Without)
	if sp.Without != "" {
		g.Missing = append(g.Missing, "its own spawner process ("+sp.Without+"): it is forked from the agent's process, whose memory it copies")
	}
	return g
}

// guaranteesVia is what a call sp describes would get from this process's
// spawner of its policy. Before the first call of the process it makes a
// trial start of the program through that spawner, killed before the
// program runs an instruction, to learn whether the system allows the
// call namespaces.
func guaranteesVia(sp launchSpec) Guarantees {
	pr := sp.protection()
	s, _, err := acquire(sp.Policy, pr, sp.Decision, sp.Mode, sp.Limits.Processes)
	if err != nil {
		return Guarantees{Descendants: descendantControl(nsNone), Spawner: spawnerLine(sp.Without),
			Missing: []string{"confinement (" + err.Error() + ")"}}
	}
	defer release(s)
	if nsRefusal.Load() == nil && !nsTried.Load() && !noPtrace.Load() {
		trialStart(s, sp)
	}
	chroot := sp.Decision.Apply && s.holder.chroot() != ""
	state, why := nsCurrent()
	return sp.guarantees(state, why, s, pr, chroot)
}

// trialStart starts sp's program through s as a call would, killed while
// stopped after its execve: what the start learns (nsRefusal, a broken
// holder) is what a call would learn.
func trialStart(s *spawner, sp launchSpec) {
	devNull, err := devNullFile()
	if err != nil {
		return
	}
	chroot := ""
	if sp.Decision.Apply {
		chroot = s.holder.chroot()
	}
	l, err := startLeader(s, false, sp.Name, []string{sp.Name}, os.ProcAttr{Dir: sp.Dir, Files: []*os.File{devNull, devNull, devNull}},
		chroot, sp.NoNet, false, func(int, int32) error { return errTrialOnly })
	if l.proc != nil { // not reached: the setup error kills it
		l.proc.Kill()
		l.proc.Wait()
	}
	if errors.Is(err, errTrialOnly) && l.state != nsNone {
		nsTried.Store(true)
	}
}
