package base

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Typed is a command tool whose arguments Go code passes as a value of In,
// a struct with one field per slot (json tags naming the slots; optional
// slots as pointers, nil meaning "not given"). It is the one runtime type
// behind every generated tool (toolgen emits `type SearchText =
// base.Typed[SearchTextArgs]`), and code-form tools may use it too. It
// has every method of CommandToolBase (Call for the model's JSON, Execute,
// Argv, Spec, …) and implements tool.SpecTool. It is immutable after its
// constructor and safe for concurrent use.
type Typed[In any] struct {
	*CommandToolBase
	digest string
}

var _ tool.SpecTool = (*Typed[struct{}])(nil)

// NewTyped returns the tool of spec running on k (see New: a 613 when spec
// is invalid), taking its arguments as In. When In is a struct, each of its
// exported fields must name a slot of spec by its json tag (or its name when
// it has none): a field that names no slot is a 613, since its value could
// never reach the command.
func NewTyped[In any](spec tool.Spec, k *kernel.Kernel, opts ...Option) (*Typed[In], error) {
	if err := checkArgsType[In](&spec); err != nil {
		return nil, err
	}
	b, err := New(spec, k, opts...)
	if err != nil {
		return nil, err
	}
	return &Typed[In]{CommandToolBase: b, digest: tool.Digest(b.spec)}, nil
}

// NewGenerated is the constructor of generated tools: NewTyped, after
// checking that spec still has the digest toolgen computed when it
// generated the file (a 613 telling to run go generate when it does not:
// the generated file was edited by hand).
func NewGenerated[In any](spec tool.Spec, digest string, k *kernel.Kernel, opts ...Option) (*Typed[In], error) {
	if got := tool.Digest(spec); got != digest {
		return nil, tool.SpecErrorf("name", "generated tool %q: its Spec has digest %s, but it was generated with %s: "+
			"the generated file was edited, or toolgen changed; run go generate", spec.Name, got, digest)
	}
	t, err := NewTyped[In](spec, k, opts...)
	if err != nil {
		return nil, fmt.Errorf("generated tool %q: %w", spec.Name, err)
	}
	return t, nil
}

// Run calls the tool with typed arguments and returns the typed result: in
// is marshalled to JSON and goes through Execute, the same decoding, checks
// and assembly as the model's JSON, so no check can be skipped. A non-zero
// exit status is in the Result (ExitCode), not the error; a rejected value
// is a 614 *tool.Error and nothing runs. res.Text() is what the model would
// see.
func (t *Typed[In]) Run(ctx context.Context, in In) (kernel.Result, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return kernel.Result{}, tool.ValueErrorf("", "arguments do not encode as JSON: %v", err)
	}
	return t.Execute(ctx, raw)
}

// Digest returns the digest the tool was built with: for a generated tool,
// the one toolgen computed from its descriptor; otherwise tool.Digest of its
// Spec. A runtime loader compares it with a descriptor of the same name.
func (t *Typed[In]) Digest() string { return t.digest }

// checkArgsType requires every exported field of In, when In is a struct, to
// name a slot of spec.
func checkArgsType[In any](spec *tool.Spec) error {
	rt := reflect.TypeFor[In]()
	if rt.Kind() != reflect.Struct {
		return nil
	}
	var errs []error
	for f := range rt.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		if _, ok := spec.Arg(name); !ok {
			errs = append(errs, tool.SpecErrorf("arguments", "tool %q: field %s of %s (json %q) names no slot of the tool",
				spec.Name, f.Name, rt, name))
		}
	}
	return errors.Join(errs...)
}

// Builder builds one tool on a kernel: the constructor of a typed tool with
// its argument type erased (Erase), for Build.
type Builder func(k *kernel.Kernel, opts ...Option) (tool.SpecTool, error)

// Erase returns newTool (a typed constructor, such as a generated NewX) as
// a Builder.
func Erase[In any](newTool func(k *kernel.Kernel, opts ...Option) (*Typed[In], error)) Builder {
	return func(k *kernel.Kernel, opts ...Option) (tool.SpecTool, error) {
		t, err := newTool(k, opts...)
		if err != nil {
			return nil, err
		}
		return t, nil
	}
}

// Build builds every tool on k, in order. It is the body of a generated
// package's Tools function. An error joins the errors of every tool that
// could not be built, and no tool is returned.
func Build(k *kernel.Kernel, builders ...Builder) ([]tool.Tool, error) {
	tools := make([]tool.Tool, 0, len(builders))
	var errs []error
	for _, b := range builders {
		t, err := b(k)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tools = append(tools, t)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return tools, nil
}
