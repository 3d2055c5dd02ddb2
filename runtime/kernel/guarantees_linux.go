//go:build linux

package kernel

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// Guarantees returns what the next call running the program at path
// (absolute, as resolved; also as for RunAlso) gets from this kernel here,
// from the code path that will spawn it: the spawner process's spawner of
// that call's policy (or this process's, where there is no spawner
// process). Before the first call it makes a trial start of the program
// through that spawner, killed before the program runs an instruction, to
// learn whether the system allows the call namespaces.
func (k *Kernel) Guarantees(path string, also ...string) Guarantees {
	if k.access.RunsCode {
		// The spawner of the policy grants the build cache, which must
		// exist when its thread is restricted.
		if err := k.prepareBuild(path); err != nil {
			return Guarantees{Descendants: descendantControl(nsNone), Missing: []string{"the build cache (" + err.Error() + ")"}}
		}
	}
	pol := k.Policy(path, also...)
	d := sandbox.Decide(pol, k.mode)
	if d.Err != nil {
		d = sandbox.Decision{} // strict would not run it; say what unconfined gets
	}
	sp := k.launchSpec([]string{path}, pol, d)
	for range 2 { // a spawner process found dead is replaced once
		proc, without := k.spawnPath()
		if proc == nil {
			sp.Without = without
			return guaranteesVia(sp)
		}
		if g, err := proc.guarantees(sp); err == nil {
			return g
		}
	}
	sp.Without = "it ended twice in a row"
	return guaranteesVia(sp)
}

// nsTried is set once a start asked for the call namespaces and got them.
var nsTried atomic.Bool

// processGuarantees is guarantees but the network.
func processGuarantees(state int32, why error, s *spawner, chroot, apply, runsCode bool, l Limits) Guarantees {
	g := Guarantees{Descendants: descendantControl(state)}
	if state == nsNone {
		g.Missing = append(g.Missing, fmt.Sprintf("a PID namespace (%v): a descendant that calls setsid can outlive the call", why))
	}
	switch {
	case l.Processes == 0:
	case state == nsUserPID:
		g.Processes = "RLIMIT_NPROC in the call's own user namespace"
	case s.cg != nil:
		g.Processes = "a pids cgroup per program and policy (one for all unconfined calls), shared by their concurrent calls"
	default:
		g.Processes = "not enforced: " + noProcessCap(state)
		g.Missing = append(g.Missing, fmt.Sprintf("the cap of %d processes (%s)", l.Processes, noProcessCap(state)))
	}
	if !apply {
		return g
	}
	if runsCode {
		g.WorkspaceCode = "executable: the tool runs the repository's code (runs_code), so neither the execute set nor a noexec " +
			"mount holds; it may execute what it reads or writes, confined in what it reads, writes and reaches"
		return g
	}
	if why := noexecWhy(state, s, chroot); why != "" {
		g.WorkspaceCode = "not in the execute set; a library in it can still be loaded by a program told to (" + why + ")"
		g.Missing = append(g.Missing, "the noexec workspace ("+why+"): a granted program told to load a library from the workspace can")
		return g
	}
	g.WorkspaceCode = "mounted noexec,nosuid,nodev for the command: nothing in it can be executed or loaded as code"
	return g
}

// noProcessCap says why nothing caps a call's processes here.
func noProcessCap(state int32) string {
	if os.Geteuid() == 0 {
		return "RLIMIT_NPROC does not bind root and no pids cgroup is writable here"
	}
	return "without a user namespace of the call's own, RLIMIT_NPROC would count all of this user's processes"
}

// noexecWhy is why a confined call through s does not see the workspace
// mounted noexec, "" when it does.
func noexecWhy(state int32, s *spawner, chroot bool) string {
	switch {
	case s.noexec != nil:
		return s.noexec.Error()
	case os.Geteuid() == 0:
		return "" // the spawner's own mount namespace
	case state != nsUserPID:
		return "no user namespace for the call"
	case s.holder == nil:
		return "no holder of the noexec namespace"
	case s.holder.exited.Load():
		return "the holder of the noexec namespace exited"
	case s.holder.broken.Load() || !chroot:
		return "the call could not take the noexec namespace's root"
	}
	return ""
}

// noNet reports that k's commands get a network namespace of their own
// (confined, without network access): nothing to reach but a loopback
// that is down.
func (k *Kernel) noNet() bool {
	return k.mode != sandbox.Off && !k.access.Network
}

// network fills in what a call of a kernel whose network facts are n gets
// of the network under state.
func (g *Guarantees) network(state int32, why error, n netFacts) {
	switch {
	case n.Network:
		g.Network = "open: every host (the tool declares network)"
	case len(n.Hosts) > 0 && n.Off:
		g.Network = "open: confinement is off, so the hosts " + strings.Join(n.Hosts, ", ") + " are not enforced: every host"
	case len(n.Hosts) > 0 && !n.Egress:
		g.Network = "none: the tool names hosts, but no egress proxy is set (kernel.WithEgress): a network namespace of the call's own, nothing reachable"
	case state == nsNone:
		g.Network = "no TCP where Landlock denies it; UDP, DNS and Unix sockets stay open"
		g.Missing = append(g.Missing, fmt.Sprintf("a network namespace (%v): UDP, DNS and the host's abstract Unix sockets stay reachable", why))
	case len(n.Hosts) > 0:
		g.Network = "only " + strings.Join(n.Hosts, ", ") + ": through the kernel's egress proxy (HTTP CONNECT and plain HTTP, " +
			"names resolved by the proxy, loopback and private addresses only where an entry names them), the only route out of a " +
			"network namespace of the call's own (HTTP_PROXY, HTTPS_PROXY and ALL_PROXY set; Landlock: TCP to the proxy's port only)"
	default:
		g.Network = "none: a network namespace of the call's own, with only a loopback that is down: no TCP, UDP, DNS or abstract Unix socket reaches anything"
	}
}
