package exec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nanogpt/toolgen/internal/hostentry"
	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Name is the tool name ExecTool registers under.
const Name = "exec"

// Slot is the name of ExecTool's one argument; every 614 names it.
const Slot = "command"

// MaxCommandBytes bounds the command line of one call.
const MaxCommandBytes = 4096

// Tool is ExecTool: it runs one command line the model wrote, after the five
// defences (see the package doc). It implements tool.Tool, is immutable
// after New and is safe for concurrent use.
type Tool struct {
	kernel       *kernel.Kernel
	allow        []string // granted binaries, sorted, unique
	granted      string   // allow, joined for messages
	deny         programs.DenyList
	outsidePaths bool
	schema       json.RawMessage
	description  string
}

// Option configures New. A nil Option is ignored.
type Option func(*config)

type config struct {
	deny         programs.DenyList
	denySet      bool
	outsidePaths bool
	hosts        []string // WithHosts
}

// WithDenyList replaces the deny list of defence 2. The default is
// programs.DefaultDenyList(); pass a narrowed list (DenyList.Without) to grant
// a binary the default denies, or an extended one (DenyList.With) to deny
// more. The zero DenyList denies nothing.
func WithDenyList(d programs.DenyList) Option {
	return func(c *config) { c.deny, c.denySet = d, true }
}

// WithOutsidePathsAllowed turns off the argument check of defence 5:
// absolute paths, ".." elements and symlinks leading out of the workspace are
// then passed to the granted binary as they are. The working directory is
// still the workspace, and the options that hand a binary a foreign
// repository or configuration (git -C, --git-dir, --work-tree), which defence
// 4 confines, stay confined. Off by default.
func WithOutsidePathsAllowed() Option { return func(c *config) { c.outsidePaths = true } }

// WithHosts lets ExecTool's commands reach the network hosts given
// (host:port entries, as a descriptor's "network": {"hosts": [...]}; see
// package egress) through the kernel's egress proxy, and nothing else on
// the network. Without it they get no network. Repeated options
// accumulate; New refuses a bad entry with a 613 (field "net-allow").
func WithHosts(hosts ...string) Option {
	return func(c *config) { c.hosts = append(c.hosts, hosts...) }
}

// New returns ExecTool running on k, allowed to run exactly the binaries in
// allow: bare names (no '/'), matched case-sensitively and resolved through
// k's PATH on every call. Its commands get the kernel's least access
// (kernel.Access{}: read only, no network, or only the hosts of WithHosts),
// whatever k grants; the kernel's confinement enforces it (with
// confinement off it is only recorded).
//
// The grant is checked here, and a problem is a 613 *tool.Error: an empty
// list, a name that is not a bare command name, a name on the deny list
// (unless the list was narrowed with WithDenyList), a name that resolves
// through a symlink to a denied binary, and a binary that defence 4 refuses
// whatever its arguments (a pager such as less).
func New(k *kernel.Kernel, allow []string, opts ...Option) (*Tool, error) {
	if k == nil {
		return nil, fmt.Errorf("exec: nil kernel")
	}
	c := config{}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if !c.denySet {
		c.deny = programs.DefaultDenyList()
	}
	// The least access: read only, no network but the hosts granted,
	// enforced by the kernel's confinement (kernel.WithConfinement).
	if err := checkHosts(c.hosts); err != nil {
		return nil, err
	}
	k = k.WithAccess(kernel.Access{Hosts: slices.Clip(c.hosts)})
	if k.Programs() == nil { // a bare kernel.New: force each program's configuration safe all the same
		k = k.WithPrograms(programs.Hook{})
	}
	t := &Tool{kernel: k, deny: c.deny, outsidePaths: c.outsidePaths}
	if err := t.grant(allow); err != nil {
		return nil, err
	}
	t.schema = schema
	t.granted = strings.Join(t.allow, ", ")
	t.description = describe(t.allow, k)
	return t, nil
}

// network tells the model which hosts its commands may reach, if any.
func network(hosts []string) string {
	if len(hosts) == 0 {
		return ""
	}
	return " Network: only " + strings.Join(hosts, ", ") + ", through an HTTP proxy set in the environment (HTTPS_PROXY, HTTP_PROXY); every other host is refused."
}

// checkHosts checks the entries of WithHosts, each a 613 naming it.
func checkHosts(hosts []string) error {
	var problems []error
	for _, h := range hosts {
		if _, err := hostentry.Parse(h); err != nil {
			problems = append(problems, tool.SpecErrorf("net-allow", "exec: cannot allow %v", err))
		}
	}
	return errors.Join(problems...)
}

// grant checks and stores the granted binaries.
func (t *Tool) grant(allow []string) error {
	if len(allow) == 0 {
		return tool.SpecErrorf("exec-allow", "exec: no binary granted; ExecTool exists only with an explicit list of binaries")
	}
	var problems []error
	for _, name := range allow {
		if err := t.checkGrant(name); err != nil {
			problems = append(problems, err)
		}
	}
	if len(problems) > 0 {
		return errors.Join(problems...)
	}
	t.allow = slices.Clone(allow)
	slices.Sort(t.allow)
	t.allow = slices.Compact(t.allow)
	return nil
}

// checkGrant checks one granted name at construction time.
func (t *Tool) checkGrant(name string) error {
	if err := grantName(name); err != "" {
		return tool.SpecErrorf("exec-allow", "exec: cannot grant %q: %s", name, err)
	}
	if entry, denied := t.deny.Match(name); denied {
		return tool.SpecErrorf("exec-allow", "exec: cannot grant %q: the deny list denies it (entry %q); "+
			"the toolgen CLI cannot lift that: only a Go program can, by narrowing the list explicitly "+
			"(preset.WithDenyListNarrowed(%q))", name, entry, entry)
	}
	if r := programs.Lookup(name); r != nil && r.Refuse != "" {
		return tool.SpecErrorf("exec-allow", "exec: cannot grant %q: defence 4 refuses it whatever its arguments: %s", name, r.Refuse)
	}
	path, err := t.kernel.LookPath(name)
	if err != nil {
		return nil // not installed (yet): every call looks again
	}
	if target, entry, denied := t.targetDenied(path); denied {
		return tool.SpecErrorf("exec-allow", "exec: cannot grant %q: it resolves to %s, which the deny list denies (entry %q)",
			name, target, entry)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil && !slices.Contains(multiCall, validate.BinaryName(real)) {
		if why, denied := t.deny.Program(path); denied {
			return tool.SpecErrorf("exec-allow", "exec: cannot grant %q: %s", name, why)
		}
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		if r := programs.Lookup(validate.BinaryName(real)); r != nil && r.Refuse != "" {
			return tool.SpecErrorf("exec-allow", "exec: cannot grant %q: it resolves to %s, which defence 4 refuses whatever its arguments: %s",
				name, real, r.Refuse)
		}
	}
	return nil
}

// grantName says what is wrong with a granted name, or returns "".
func grantName(name string) string {
	switch {
	case name == "":
		return "the name is empty"
	case strings.ContainsAny(name, `/\`):
		return "give a bare command name, not a path; it is resolved through the kernel's PATH"
	case name == "." || name == "..":
		return "not a command name"
	}
	if err := validate.Value(&tool.Arg{Name: "exec-allow", Type: tool.String}, name, true); err != nil {
		return err.Msg
	}
	return ""
}

// Allowed returns the granted binaries, sorted.
func (t *Tool) Allowed() []string { return slices.Clone(t.allow) }

// Kernel returns the kernel the tool runs on.
func (t *Tool) Kernel() *kernel.Kernel { return t.kernel }

// Name returns "exec".
func (t *Tool) Name() string { return Name }

// Hints implements tool.Hinted: each call runs one command, which may write
// and destroy (the commands are the model's); nothing is claimed about the
// network, which the kernel's confinement decides.
func (t *Tool) Hints() tool.Hints {
	return tool.Hints{Title: "Run one command", Destructive: true, RunsCommand: true}
}

// Description tells the model what it may run and what is refused.
func (t *Tool) Description() string { return t.description }

// InputSchema returns {"command": string}, required, nothing else.
func (t *Tool) InputSchema() json.RawMessage { return slices.Clone(t.schema) }

// schema is the arguments' JSON Schema, built like every command tool's
// (base.Schema): one required string slot.
var schema = base.Schema(&tool.Spec{Args: []tool.Arg{{
	Name: "command", Type: tool.String, Required: true,
	Description: "One simple command: a granted binary and its arguments, as you would type it in a shell. " +
		"No shell runs it: no pipes, redirections, ;, &&, variables, $(...), globs or ~. " +
		"Quote arguments with spaces or glob characters ('*.go', \"file name.txt\").",
}}})

func describe(allow []string, k *kernel.Kernel) string {
	return fmt.Sprintf("Run one exploratory command in the workspace. Allowed binaries: %s. "+
		"Exactly one simple command of literal words: pipes, redirections, ;, &&, ||, &, variables, $(...), backticks, "+
		"unquoted globs and ~ are refused (no shell runs; quote a pattern such as '*.go' to pass it as is). "+
		"Options that run other programs or write outside the workspace are refused, and so are absolute paths and '..' in arguments. "+
		"The command runs in the workspace with a %s timeout; the result is its exit code and at most %d bytes of output.%s",
		strings.Join(allow, ", "), k.Timeout(), k.OutputLimit(), network(k.Access().Hosts))
}

// Call decodes {"command": "…"}, plans the command (the five defences) and
// runs it on the kernel. A refusal is a 614 *tool.Error naming the slot
// "command" and the defence that refused; see tool.Tool for the rest.
func (t *Tool) Call(ctx context.Context, args json.RawMessage) (string, error) {
	command, err := decodeArgs(args)
	if err != nil {
		return "", err
	}
	argv, _, err := t.Plan(command)
	if err != nil {
		return "", err
	}
	res, err := t.kernel.Run(base.ProgressContext(ctx), argv)
	if err != nil {
		return res.Text(), fmt.Errorf("%s: %w", Name, err)
	}
	return res.Text(), nil
}

// commandArg is ExecTool's one slot, as the shared decoder sees it.
var commandArg = tool.Arg{
	Name: Slot, Type: tool.String, Required: true,
	Description: `one command line, such as {"command": "ls -la"}`,
}

// decodeArgs returns the command of {"command": "…"}, decoded by the same
// strict decoder as every other command tool (base.DecodeArgs): a repeated
// or unknown key, a non-string value or a missing command is a 614.
func decodeArgs(args json.RawMessage) (string, error) {
	values, err := base.DecodeArgs(args, commandArg)
	if err != nil {
		return "", err
	}
	return values[Slot], nil
}
