package base

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nanogpt/toolgen/internal/validate"
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
}

// slot is a declared argument with what assembly needs to know about it.
type slot struct {
	arg        tool.Arg
	startsWord bool
}

// New validates spec with package validate (the deny list defaults to
// validate.DefaultDenyList; pass validate.WithDenyList to change it), checks
// where its binary resolves on k (validate.CheckBinary: not inside the
// workspace, not a denied program under another name) and
// returns the tool running on k, granted exactly the access the Spec
// declares (Writes, Network: see kernel.Access), which k's confinement
// enforces (unless it is off). An invalid spec is a 613 *tool.Error (an errors.Join of
// them when there are several).
func New(spec tool.Spec, k *kernel.Kernel, opts ...validate.Option) (*CommandToolBase, error) {
	if k == nil {
		return nil, fmt.Errorf("base: tool %q: nil kernel", spec.Name)
	}
	spec = cloneSpec(spec)
	t, err := validate.Spec(&spec, opts...)
	if err != nil {
		return nil, err
	}
	// Where the binary resolves, on this kernel: not inside the workspace,
	// not the same file as or a script of a denied program.
	if err := validate.CheckBinary(t.Binary(), k.Workspace(), k.LookPath, opts...); err != nil {
		return nil, err
	}
	k = k.WithAccess(kernel.Access{Write: spec.Writes, Network: spec.Network})
	b := &CommandToolBase{spec: spec, tmpl: t, kernel: k, index: map[string]int{}}
	for i, a := range spec.Args {
		b.slots = append(b.slots, slot{arg: a, startsWord: t.StartsWord(a.Name)})
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

// Template returns the parsed command template.
func (b *CommandToolBase) Template() *validate.Template { return b.tmpl }

// Kernel returns the kernel the tool runs on: the one given to New, with the
// Spec's access (kernel.(*Kernel).WithAccess).
func (b *CommandToolBase) Kernel() *kernel.Kernel { return b.kernel }

// Call validates args, assembles the argv and runs it. See tool.Tool for the
// meaning of the results.
func (b *CommandToolBase) Call(ctx context.Context, args json.RawMessage) (string, error) {
	argv, err := b.Argv(args)
	if err != nil {
		return "", err
	}
	res, err := b.kernel.Run(ctx, argv)
	if err != nil {
		return res.Text(), fmt.Errorf("%s: %w", b.spec.Name, err)
	}
	return res.Text(), nil
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
	return s
}
