package preset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/runtime/trust"
)

// DescriptorGroup is the tool.Registry group that holds the descriptor tools:
// a reload swaps the whole group at once (tool.Registry.ReplaceGroup).
const DescriptorGroup = "descriptors"

// toolsDir is what WithToolsDir asks for.
type toolsDir struct {
	dir  string
	opts []loader.Option
}

// descriptorTools is the preset's descriptor loader and its last problems.
type descriptorTools struct {
	loader *loader.Loader

	// refused is why the directory was refused as a whole (trust.go); "" when
	// its descriptors load.
	refused string

	mu       sync.Mutex
	problems []error
}

// WithToolsDir loads the *.tool.json descriptors in dir when New runs (see
// package loader), after the built-in and generated tools, and registers
// them as descriptor tools in one registry group (DescriptorGroup).
// Descriptors are validated with the preset's deny list. A descriptor
// identical to a generated tool (same name and tool.Digest) is skipped; a
// descriptor whose name a built-in, generated or other tool already has is a
// 613 naming both places. Problems with single files go to
// Preset.Problems; the other files load. A directory inside the workspace
// loads nothing unless WithToolsInWorkspace allows it (see trust.go and
// Preset.ToolsDirRefused).
//
// dir is created when missing, unless opts hold loader.WithoutCreate. opts
// go to loader.New after the preset's own (deny list, known tools), so
// they may override them.
func WithToolsDir(dir string, opts ...loader.Option) Option {
	return func(c *config) { c.tools = &toolsDir{dir: dir, opts: opts} }
}

func (p *Preset) loadDescriptors(td *toolsDir, inWorkspaceAllowed bool, store *trust.Store) error {
	if td == nil {
		return nil
	}
	refused := p.refusal(td.dir, inWorkspaceAllowed) // trust.go
	var check func(file, name string, data []byte) error
	if refused != "" && store != nil {
		var why string
		if check, why = p.trusted(td.dir, store); check != nil {
			refused = ""
		} else if why != "" {
			refused += " (" + why + ")"
		}
	}
	opts := append([]loader.Option{loader.WithDenyList(p.deny), loader.WithKnown(p.known)}, td.opts...)
	// After the caller's options: no option given to WithToolsDir lifts the
	// refusal, only WithToolsInWorkspace or the user's trust does, and the
	// trusted files' check stands.
	opts = append(opts, loader.WithRefusal(refused))
	if check != nil {
		opts = append(opts, loader.WithContentCheck(check))
	}
	l, err := loader.New(td.dir, p.Kernel, opts...)
	if err != nil {
		return fmt.Errorf("preset: %w", err)
	}
	p.descriptors = &descriptorTools{loader: l, refused: refused}
	tools, problems := l.LoadAll()
	p.Problems = p.swap(loader.Snapshot{Tools: tools, Problems: problems})
	return nil
}

// known tells the loader which names tools outside the descriptor group
// hold, with the digest of generated ones.
func (p *Preset) known(name string) (loader.Known, bool) {
	e, ok := p.Registry.Lookup(name)
	if !ok || e.Group == DescriptorGroup {
		return loader.Known{}, false
	}
	k := loader.Known{Source: e.Source}
	if e.Form == tool.FormGenerated {
		k.Digest = digestOf(e.Tool)
	}
	return k, true
}

// digestOf returns the digest a generated tool was generated from: its
// Digest method (toolgen's output has one), else its Spec's.
func digestOf(t tool.Tool) string {
	if d, ok := t.(interface{ Digest() string }); ok {
		return d.Digest()
	}
	if st, ok := t.(tool.SpecTool); ok {
		return tool.Digest(st.Spec())
	}
	return ""
}

// swap puts the snapshot's tools in the registry as one group, atomically,
// and returns the problems (the snapshot's, plus any tool whose name was
// registered elsewhere since it was loaded).
func (p *Preset) swap(s loader.Snapshot) []error {
	problems := slices.Clone(s.Problems)
	entries := make([]tool.Entry, 0, len(s.Tools))
	for _, t := range s.Tools {
		e := t.Entry()
		if !p.selected(e.Tool.Name()) { // WithOnly
			continue
		}
		if prev, ok := p.Registry.Lookup(e.Tool.Name()); ok && prev.Group != DescriptorGroup {
			problems = append(problems, &tool.Error{Code: tool.CodeSpec, File: t.File, Field: "name",
				Msg: fmt.Sprintf("tool name %q is already defined by %s", e.Tool.Name(), prev.Source)})
			continue
		}
		entries = append(entries, e)
	}
	if err := p.Registry.ReplaceGroup(DescriptorGroup, entries); err != nil {
		problems = append(problems, err) // a tool was registered meanwhile; the last set stays
	}
	p.descriptors.mu.Lock()
	p.descriptors.problems = problems
	p.descriptors.mu.Unlock()
	return problems
}

// DescriptorProblems returns the 613 problems of the last load or reload of
// the tools directory (Preset.Problems holds those of New and is not
// updated by Watch). It is safe to call while Watch runs.
func (p *Preset) DescriptorProblems() []error {
	if p.descriptors == nil {
		return nil
	}
	p.descriptors.mu.Lock()
	defer p.descriptors.mu.Unlock()
	return slices.Clone(p.descriptors.problems)
}

// Watching returns a channel that is closed once a Watch of p is in place
// (see loader.Loader.Watching): a change made to the tools directory from
// then on is seen. It is nil, and never ready, when the preset has no tools
// directory.
func (p *Preset) Watching() <-chan struct{} {
	if p.descriptors == nil {
		return nil
	}
	return p.descriptors.loader.Watching()
}

// Watch keeps the descriptor tools current until ctx ends: each change in
// the tools directory is reloaded (debounced, only the changed files read
// again; see loader.Loader.Watch), the registry's descriptor group is
// swapped atomically — a reader of Registry sees the old set or the new one,
// never a mix — DescriptorProblems is updated, and onChange, if not nil, is
// called. A broken file keeps its last good version, with its 613 in
// DescriptorProblems.
//
// Watch returns nil when ctx ends, and an error when the preset has no tools
// directory (WithToolsDir) or watching fails.
func (p *Preset) Watch(ctx context.Context, onChange func()) error {
	if p.descriptors == nil {
		return errors.New("preset: Watch: no tools directory (WithToolsDir)")
	}
	return p.descriptors.loader.Watch(ctx, func(s loader.Snapshot) {
		p.swap(s)
		if onChange != nil {
			onChange()
		}
	})
}
