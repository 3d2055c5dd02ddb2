package base

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// CommandToolBase is a command tool built from a Spec. It implements
// tool.SpecTool. It is immutable after New and safe for concurrent use.
type CommandToolBase struct {
	spec   tool.Spec
	tmpl   *validate.Template
	kernel *kernel.Kernel
	schema json.RawMessage
	slots  []slot
	index  map[string]int // slot name → position in slots
	also   []string       // the programs the template runs (find -exec's), for the execute set
	// files: the template's program, when it opens files named in option
	// values (programs.Program.Files); each call's are confined (files.go).
	files *programs.Program
}

// slot is a declared argument with what assembly needs to know about it.
type slot struct {
	arg   tool.Arg
	place validate.Place // where it stands, as the program reads it
	// respFiles: how respProg, the template's program or one it runs,
	// reads response files, when the slot starts a word and one does
	// (validate.ResponseFilesOf, ResponseFileValue).
	respProg, respFiles string
}

// New validates spec with the descriptor rules (the deny list defaults to
// DefaultDenyList; pass WithDenyList to change it), checks where its binary
// resolves on k (not inside the workspace, not a denied program under
// another name) and returns the tool running on k, granted exactly the
// access the Spec declares (Writes, Network, Hosts: see kernel.Access), which k's
// confinement enforces (unless it is off). An invalid spec is a 613
// *tool.Error (an errors.Join of
// them when there are several).
func New(spec tool.Spec, k *kernel.Kernel, opts ...Option) (*CommandToolBase, error) {
	if k == nil {
		return nil, fmt.Errorf("base: tool %q: nil kernel", spec.Name)
	}
	spec = cloneSpec(spec)
	vopts := validateOptions(opts)
	t, err := validate.Spec(&spec, vopts...)
	if err != nil {
		return nil, err
	}
	// The tool's own kernel: its access, and for a tool that runs code,
	// its toolchain's install directories on the way to its binary.
	k = withPrograms(k).WithAccess(kernel.Access{Write: spec.Writes, Network: spec.Network, Hosts: spec.Hosts, RunsCode: spec.RunsCode})
	// Where the binary resolves, on this kernel: not inside the workspace,
	// not the same file as or a script of a denied program (a runs_code
	// tool's toolchain entries lifted).
	vopts = append(vopts, validate.RunsCode(spec.RunsCode))
	if err := validate.CheckBinary(t.Binary(), k.Workspace(), k.LookPath, vopts...); err != nil {
		return nil, err
	}
	// The same for each program the template runs (find . -exec grep …):
	// confined, it joins the execute set (kernel.RunAlso).
	also := validate.RunsOf(t, &spec) // with each set of boolean flags written in
	for _, p := range also {
		if err := validate.CheckBinary(p, k.Workspace(), k.LookPath, vopts...); err != nil {
			return nil, err
		}
	}
	if spec.OutputLimit > 0 { // the descriptor's own limit overrides the kernel's (the run's)
		k = k.WithOutputLimitOf(spec.OutputLimit)
	}
	k = k.WithTimeoutOf(spec.Timeout) // the descriptor's own timeout, capped at the run's maximum
	k = k.WithSeparateStderr(spec.Stderr.Separate())
	b := &CommandToolBase{spec: spec, tmpl: t, kernel: k, index: map[string]int{}, also: also}
	if p := programs.Lookup(t.Binary()); p != nil && len(p.Files) > 0 {
		b.files = p
	}
	places := validate.Places(&spec, t)
	respProg, resp := validate.ResponseFilesOf(&spec, t)
	for i, a := range spec.Args {
		sl := slot{arg: a, place: places[a.Name]}
		if sl.place.StartsWord {
			sl.respProg, sl.respFiles = respProg, resp
		}
		b.slots = append(b.slots, sl)
		b.index[a.Name] = i
	}
	b.schema = Schema(&spec)
	return b, nil
}

// Name returns the Spec's name.
func (b *CommandToolBase) Name() string { return b.spec.Name }

// Description returns the Spec's description.
func (b *CommandToolBase) Description() string { return b.spec.Description }

// InputSchema returns the JSON Schema generated from the slots.
func (b *CommandToolBase) InputSchema() json.RawMessage { return b.schema }

// Spec returns a copy of the tool's Spec.
func (b *CommandToolBase) Spec() tool.Spec { return cloneSpec(b.spec) }

// Kernel returns the kernel the tool runs on: the one given to New, with the
// Spec's access (kernel.(*Kernel).WithAccess) and, when the Spec sets them,
// its output limit (kernel.(*Kernel).WithOutputLimitOf), its timeout,
// capped at the kernel's maximum (kernel.(*Kernel).WithTimeoutOf), and its
// stderr mode (kernel.(*Kernel).WithSeparateStderr).
func (b *CommandToolBase) Kernel() *kernel.Kernel { return b.kernel }

// Call validates args, assembles the argv and runs it, and returns the text
// the model sees (kernel.Result.Text). See tool.Tool for the meaning of the
// results.
func (b *CommandToolBase) Call(ctx context.Context, args json.RawMessage) (string, error) {
	argv, err := b.Argv(args)
	if err != nil {
		return "", err
	}
	res, err := b.run(ctx, argv)
	return res.Text(), err
}

// Execute is Call for Go callers: it validates args, assembles the argv,
// runs it and returns the typed result (exit code, output, truncation,
// timeout, duration; Text is what the model would see). A non-zero exit
// status is a Result, not an error: grep exits 1 when nothing matches. The
// error is a 614 *tool.Error when an argument was rejected (nothing ran and
// the Result is zero), or an error naming the tool when the command could
// not be started or the context ended it (the Result says how it ended).
func (b *CommandToolBase) Execute(ctx context.Context, args json.RawMessage) (kernel.Result, error) {
	argv, err := b.Argv(args)
	if err != nil {
		return kernel.Result{}, err
	}
	return b.run(ctx, argv)
}

// RunsAlso returns the programs the template runs besides its binary, as
// written (find . -exec grep …: grep): a confined call may execute them too.
func (b *CommandToolBase) RunsAlso() []string { return slices.Clone(b.also) }

// run runs argv on the tool's kernel; an error names the tool.
func (b *CommandToolBase) run(ctx context.Context, argv []string) (kernel.Result, error) {
	res, err := b.kernel.RunAlso(ProgressContext(ctx), argv, b.also)
	if err != nil {
		return res, fmt.Errorf("%s: %w", b.spec.Name, err)
	}
	return res, nil
}

// Argv validates args exactly as Call does and returns the argv Call would
// run, without running anything. A rejected argument is a 614 *tool.Error.
func (b *CommandToolBase) Argv(args json.RawMessage) ([]string, error) {
	values, err := b.decode(args)
	if err != nil {
		return nil, err
	}
	return b.assemble(values)
}

func cloneSpec(s tool.Spec) tool.Spec {
	s.Args = slices.Clone(s.Args)
	for i := range s.Args {
		s.Args[i].Enum = slices.Clone(s.Args[i].Enum)
	}
	s.Examples = slices.Clone(s.Examples)
	s.Hosts = slices.Clone(s.Hosts)
	if s.Destructive != nil {
		d := *s.Destructive
		s.Destructive = &d
	}
	return s
}

// programs.Hook tells the kernel about toolchains too.
var _ kernel.CodeRunners = programs.Hook{}

// withPrograms returns k with package programs' hook when k has none, so
// that a tool built on a bare kernel.New still runs git, curl and the rest
// with their configuration forced safe (the preset's kernels have it).
func withPrograms(k *kernel.Kernel) *kernel.Kernel {
	if k.Programs() == nil {
		return k.WithPrograms(programs.Hook{})
	}
	return k
}
