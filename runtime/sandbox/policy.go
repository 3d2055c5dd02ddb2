package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Landlock ABI versions this package relies on.
const (
	// abiFiles is the first ABI that restricts every file access the policy
	// denies: reading, writing, creating, removing, and (new in 3) truncating.
	abiFiles = 3
	// abiNetwork is the first ABI that restricts TCP connect and bind.
	abiNetwork = 4
)

// Policy is what one confined command may do. Everything it does not grant
// is denied, as far as Landlock reaches (see the package doc).
type Policy struct {
	// Workspace is the directory the command may read and list (absolute).
	Workspace string
	// Write lets the command create, change, truncate, rename and delete
	// files and directories inside Workspace. Nothing outside it is ever
	// writable, except /dev/null.
	Write bool
	// Network lets the command use the network. Without it, TCP connect and
	// bind are denied (and, where the kernel can, UDP, connecting to Unix
	// sockets of processes outside the sandbox).
	Network bool
	// Read are more files and directories the command may read and execute
	// (absolute; see WithReadable).
	Read []string
}

// RequiredABI is the Landlock ABI version needed to enforce p in full: 3 for
// the file rules, 4 when the network is denied.
func (p Policy) RequiredABI() int {
	if p.Network {
		return abiFiles
	}
	return abiNetwork
}

// String describes p in one line, e.g.
// "read: workspace, system; write: nowhere; network: denied".
func (p Policy) String() string {
	var b strings.Builder
	b.WriteString("read: workspace, system")
	for _, r := range p.Read {
		b.WriteString(", ")
		b.WriteString(r)
	}
	b.WriteString("; write: ")
	if p.Write {
		b.WriteString("workspace")
	} else {
		b.WriteString("nowhere")
	}
	b.WriteString("; network: ")
	if p.Network {
		b.WriteString("allowed")
	} else {
		b.WriteString("denied")
	}
	return b.String()
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

// The trampoline's command line, after the program (argv[0]):
//
//	toolgen-sandbox mode=M write=0|1 network=0|1 workspace=DIR [read=PATH]... -- ARGV...
//
// marker is argv[1] of every trampoline process; Init looks for it.
const marker = "toolgen-sandbox"

// trampolineArgv returns the argv that runs argv under p through the
// program self.
func (p Policy) trampolineArgv(self string, strict bool, argv []string) []string {
	mode := BestEffort
	if strict {
		mode = Strict
	}
	out := make([]string, 0, 7+len(p.Read)+len(argv))
	out = append(out, self, marker, "mode="+mode.String(), "write="+bit(p.Write),
		"network="+bit(p.Network), "workspace="+p.Workspace)
	for _, r := range p.Read {
		out = append(out, "read="+r)
	}
	out = append(out, "--")
	return append(out, argv...)
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// parseTrampoline reads what trampolineArgv wrote after the marker. It
// accepts nothing else: every field but read is required, exactly once.
func parseTrampoline(args []string) (p Policy, strict bool, argv []string, err error) {
	seen := map[string]bool{}
	for i, a := range args {
		if a == "--" {
			argv = args[i+1:]
			break
		}
		key, val, ok := strings.Cut(a, "=")
		if !ok || (seen[key] && key != "read") {
			return Policy{}, false, nil, fmt.Errorf("trampoline: bad argument %q", a)
		}
		seen[key] = true
		switch key {
		case "mode":
			m, err := ParseMode(val)
			if err != nil || m == Off {
				return Policy{}, false, nil, fmt.Errorf("trampoline: bad mode %q", val)
			}
			strict = m == Strict
		case "write":
			p.Write, err = parseBit(val)
		case "network":
			p.Network, err = parseBit(val)
		case "workspace":
			p.Workspace, err = absolute(val)
		case "read":
			var r string
			r, err = absolute(val)
			p.Read = append(p.Read, r)
		default:
			err = fmt.Errorf("unknown field %q", key)
		}
		if err != nil {
			return Policy{}, false, nil, fmt.Errorf("trampoline: %w", err)
		}
	}
	for _, k := range []string{"mode", "write", "network", "workspace"} {
		if !seen[k] {
			return Policy{}, false, nil, fmt.Errorf("trampoline: %s missing", k)
		}
	}
	if len(argv) == 0 || !filepath.IsAbs(argv[0]) {
		return Policy{}, false, nil, errors.New("trampoline: no command, or its path is not absolute")
	}
	return p, strict, argv, nil
}

func parseBit(s string) (bool, error) {
	switch s {
	case "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, fmt.Errorf("bad flag value %q", s)
}

func absolute(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("path %q is not absolute", path)
	}
	return filepath.Clean(path), nil
}
