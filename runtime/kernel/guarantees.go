package kernel

import "strings"

// Guarantees is what a call gets on this system besides Landlock (see
// sandbox.Decide): descendant control, the process cap and, confined, the
// noexec workspace. It comes from the spawn path itself (the spawner the
// call will use, the namespaces its start will ask for), not from a probe
// of its own, so what Kernel.Guarantees reports is what the next call of
// that program gets. A guarantee the call cannot get is in Missing: Strict
// refuses the call (exit 126, naming it), BestEffort and Off run it with a
// one-line warning in its Result.Notice.
type Guarantees struct {
	// Descendants says how the call's descendants are kept from
	// outliving it.
	Descendants string
	// Processes says what enforces the process cap ("" when no cap is
	// set).
	Processes string
	// WorkspaceCode says what keeps a confined call from running code
	// from the workspace ("" when the call is not confined).
	WorkspaceCode string
	// Network says what the call can reach over the network.
	Network string
	// Spawner says which process the call is forked from.
	Spawner string
	// Privileges says what the call holds of the system's privileges:
	// capabilities (none, as root too, when confined), no_new_privs, and
	// the IPC and UTS namespaces.
	Privileges string
	// Syscalls says which system calls the call's seccomp filter refuses
	// ("" when the call is not confined).
	Syscalls string
	// Protected says which protected paths (sandbox.ProtectedNames, the
	// kernel's WithProtected) are kept from the call, and how ("" when
	// the call is not confined).
	Protected string
	// Missing names each guarantee the call does not get, and why.
	Missing []string
}

// warning is the one line a call that lacks guarantees carries, "" when
// it lacks none.
func (g Guarantees) warning() string {
	if len(g.Missing) == 0 {
		return ""
	}
	return "warning: the call ran without " + strings.Join(g.Missing, "; without ")
}

// refusal is why Strict does not run a call that lacks guarantees.
func (g Guarantees) refusal() string {
	return "strict: not running without " + strings.Join(g.Missing, "; without ")
}

// joinNotes joins two notices of a Result into one line.
func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
