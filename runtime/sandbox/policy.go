package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Landlock ABI versions this package relies on.
const (
	// abiFiles is the first ABI that restricts every file access the policy
	// denies: reading, writing, creating, removing, executing, and (new in
	// 3) truncating.
	abiFiles = 3
	// abiNetwork is the first ABI that restricts TCP connect and bind.
	abiNetwork = 4
)

// Policy is what one confined command may do. Everything it does not grant
// is denied, as far as Landlock reaches (see the package doc).
type Policy struct {
	// Workspace is the directory the command may read and list (absolute).
	Workspace string
	// Home is a directory the command may read and list but not change
	// (absolute; "" for none): the empty HOME the kernel gives children.
	Home string
	// Write lets the command create, change, truncate, rename and delete
	// files and directories inside Workspace. Nothing outside it is ever
	// writable, except /dev/null.
	Write bool
	// Network lets the command use the network. Without it, TCP connect and
	// bind are denied (and, where the kernel can, UDP, connecting to Unix
	// sockets of processes outside the sandbox).
	Network bool
	// ProxyPort, when not 0 and Network is false, is the one TCP port the
	// command may connect to: its egress proxy, listening on the loopback
	// of the call's own network namespace, where nothing else listens.
	ProxyPort uint16
	// Read are more files and directories the command may read (absolute).
	Read []string
	// WriteDirs are directories outside Workspace the command may write
	// (absolute, each must exist), whatever Write says: the build cache of
	// a tool that runs code, whose scratch directory lies inside it.
	WriteDirs []string
	// RunsCode is set for a tool that runs the repository's own code (its
	// tests, its build files, what it compiles): the command also reads the
	// Build bundle, and may execute whatever it may read or write, in
	// Workspace, WriteDirs, Read and the bundles, instead of Exec alone;
	// the workspace is not mounted noexec for it (WorkspaceNoExec).
	// Everything else holds: reads, writes and the network as above.
	RunsCode bool
	// Protect are more paths (absolute) no command may change, besides
	// ProtectedNames: the tools directory and the trust store. See
	// Protection.
	Protect []string
	// SpawnFlags are the clone flags with which the spawner, after the
	// restriction, starts each command (its namespaces): the seccomp
	// filter lets clone make exactly that set of namespaces and no other.
	SpawnFlags uint32
	// Exec are the only files (and directories of files) the command and
	// everything it starts may execute, each also readable: the command's
	// program, its dynamic loader and the helper directories its program
	// table declares (absolute). Nothing else runs, whatever a program
	// tries to start.
	Exec []string
}

// WorkspaceNoExec reports whether the command's workspace is to be
// mounted noexec, nosuid and nodev (see NoExecWorkspace): always, except
// for a command that runs the repository's code. It decides that mount
// only: read-only binds of protected paths apply to every command.
func (p Policy) WorkspaceNoExec() bool { return !p.RunsCode }

// RequiredABI is the Landlock ABI version needed to enforce p in full: 3 for
// the file rules, 4 when the network is denied.
func (p Policy) RequiredABI() int {
	if p.Network {
		return abiFiles
	}
	return abiNetwork
}

// String describes p in one line, e.g.
// "read: workspace, system; write: nowhere; network: denied; execute: /usr/bin/grep, /usr/lib64/ld-linux-x86-64.so.2"
// (the read part names the bundles, then Read).
func (p Policy) String() string {
	var b strings.Builder
	b.WriteString("read: workspace")
	for _, bundle := range p.Bundles() {
		b.WriteString(", ")
		b.WriteString(bundle.Name)
	}
	for _, r := range p.Read {
		b.WriteString(", ")
		b.WriteString(r)
	}
	b.WriteString("; write: ")
	var writes []string
	if p.Write {
		writes = append(writes, "workspace")
	}
	writes = append(writes, p.WriteDirs...)
	if len(writes) == 0 {
		writes = []string{"nowhere"}
	}
	b.WriteString(strings.Join(writes, ", "))
	b.WriteString("; network: ")
	if p.Network {
		b.WriteString("allowed")
	} else {
		b.WriteString("denied")
	}
	b.WriteString("; execute: ")
	if p.RunsCode {
		b.WriteString("whatever it reads or writes (runs_code: the repository's code and what it builds)")
		return b.String()
	}
	if len(p.Exec) == 0 {
		b.WriteString("nothing")
	}
	b.WriteString(strings.Join(p.Exec, ", "))
	return b.String()
}

// check reports a relative path in p, which Landlock cannot take.
func (p Policy) check() error {
	all := append([]string{p.Workspace}, p.Read...)
	all = append(all, p.Exec...)
	all = append(all, p.WriteDirs...)
	if p.Home != "" {
		all = append(all, p.Home)
	}
	for _, path := range all {
		if !filepath.IsAbs(path) {
			return fmt.Errorf("sandbox: path %q is not absolute", path)
		}
	}
	return nil
}

// shortfall lists what an ABI of abi leaves unrestricted of p, "" when it
// enforces p in full.
func (p Policy) shortfall(abi int) string {
	var miss []string
	if abi < abiFiles {
		miss = append(miss, fmt.Sprintf("truncating files (needs ABI %d)", abiFiles))
	}
	if abi < abiNetwork && !p.Network {
		miss = append(miss, fmt.Sprintf("network connections (needs ABI %d)", abiNetwork))
	}
	return strings.Join(miss, " nor ")
}
