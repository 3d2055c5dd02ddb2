package sandbox

import (
	"fmt"
	"sync"
)

// Decision is what confining a command under a policy in a mode amounts to
// on this machine, before anything is restricted.
type Decision struct {
	// Apply reports that Landlock rules are to be applied (in full or in
	// part).
	Apply bool
	// Note is what the model is told about it ("" when the policy is
	// enforced in full or the mode is Off): a warning that the command runs
	// unconfined or partly confined.
	Note string
	// Err is set when the command must not run: Strict mode on a kernel
	// that cannot enforce the policy in full.
	Err error
}

// Decide says how p is enforced in mode on this kernel: in full (Apply, no
// Note), in part or not at all with a warning (BestEffort), refused
// (Strict: Err), or not at all, silently (Off).
func Decide(p Policy, mode Mode) Decision {
	if mode == Off {
		return Decision{}
	}
	abi := probeABI()
	need := p.RequiredABI()
	switch {
	case abi.version >= need:
		return Decision{Apply: true}
	case mode == Strict:
		return Decision{Err: fmt.Errorf("sandbox: strict confinement needs Landlock ABI %d, but %s", need, abi.describe())}
	case abi.version == 0:
		return Decision{Note: "warning: not confined: " + abi.describe() +
			"; the command ran with all of the agent's access to files and network"}
	}
	return Decision{Apply: true, Note: fmt.Sprintf("warning: partly confined: this kernel's Landlock (ABI %d) does not restrict %s",
		abi.version, p.shortfall(abi.version))}
}

// abiInfo is what probing the kernel found.
type abiInfo struct {
	version int    // 0: no Landlock
	reason  string // why not, when version is 0
}

// describe says what the kernel has, for messages.
func (a abiInfo) describe() string {
	if a.version == 0 {
		return "Landlock is unavailable here (" + a.reason + ")"
	}
	return fmt.Sprintf("this kernel has ABI %d", a.version)
}

// probeABI asks the kernel once per process.
var probeABI = sync.OnceValue(probe)

// Available returns the Landlock ABI version of the running kernel (0 when
// there is none) and whether it enforces every policy in full (ABI 4 or
// later: files and TCP).
func Available() (abi int, ok bool) {
	v := probeABI().version
	return v, v >= abiNetwork
}
