// Package preset assembles a tool.Registry: the built-in tools, generated
// and other code-form tools (WithCommandTools, the seed's withCommandTools),
// descriptor tools loaded from a directory, and ExecTool only when binaries
// are granted. It is the one place where the lineage's forms meet, so name
// conflicts between them are found here (613 naming both sources).
package preset

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/builtin"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/runtime/trust"
)

// Factory builds tools on the preset's kernel; a generated package's Tools
// function is one.
type Factory func(k *kernel.Kernel) ([]tool.Tool, error)

// Option configures New.
type Option func(*config)

type config struct {
	workspace   string
	path        *string // WithCommandPath; nil: the kernel's default
	timeout     time.Duration
	maxTimeout  time.Duration
	outputLimit int
	limits      limits // limits.go
	denyExtra   []string
	denyAllow   []string
	noBuiltins  bool
	only        map[string]bool // nil: every tool; see WithOnly
	factories   []namedFactory
	tools       *toolsDir // descriptors.go
	// toolsInWorkspace allows a tools directory inside the workspace (trust.go).
	toolsInWorkspace bool
	trust            *trust.Store // trust.go
	confine          *confinement // sandbox.go
	exec             []string     // exec.go
	egress           egressConfig // egress.go
}

type namedFactory struct {
	source string
	form   tool.Form
	build  Factory
}

// WithWorkspace sets the directory commands run in and paths are confined
// to. The zero value is the current directory.
func WithWorkspace(dir string) Option { return func(c *config) { c.workspace = dir } }

// WithCommandPath sets the PATH commands are looked up in and run with
// (kernel.WithPath): entries separated as the system separates them, each
// absolute. Default: the kernel's for the system (kernel.DefaultPathFor).
func WithCommandPath(path string) Option { return func(c *config) { c.path = &path } }

// WithTimeout sets the per-call timeout of every tool that does not set its
// own (default: the kernel's, 30s).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithMaxTimeout sets the longest any call may run: a tool whose Spec asks
// for a longer Timeout (a descriptor's "timeout") runs with this one
// (kernel.WithMaxTimeout). Default: the kernel's, kernel.DefaultMaxTimeout
// (10m), or the timeout when that is longer. New fails when it is shorter
// than WithTimeout's.
func WithMaxTimeout(d time.Duration) Option { return func(c *config) { c.maxTimeout = d } }

// WithOutputLimit sets the run's model-visible output limit in bytes, 1 to
// kernel.MaxOutputLimit (default: the kernel's, 2048). A tool whose Spec sets
// its own OutputLimit (a descriptor's "output_limit") keeps that one.
func WithOutputLimit(n int) Option { return func(c *config) { c.outputLimit = n } }

// WithDenied extends the default deny list with more binaries.
func WithDenied(binaries ...string) Option {
	return func(c *config) { c.denyExtra = append(c.denyExtra, binaries...) }
}

// WithDenyListNarrowed removes entries (as written in the list, e.g.
// "python*") from the default deny list. It is the explicit way to let a
// tool run a binary the default denies.
func WithDenyListNarrowed(entries ...string) Option {
	return func(c *config) { c.denyAllow = append(c.denyAllow, entries...) }
}

// WithoutBuiltins leaves out grep_text, find_files and sed_print.
func WithoutBuiltins() Option { return func(c *config) { c.noBuiltins = true } }

// WithOnly keeps only the named tools: every other built-in, generated,
// exec or descriptor tool is left out of the registry, on reloads too (see
// Watch). Repeated options accumulate. A name that matches no tool makes New
// fail with a *SelectionError that lists the tools there are, so a typo is
// not a silently empty server. With no names (or without the option) every
// tool is kept.
func WithOnly(names ...string) Option {
	return func(c *config) {
		if c.only == nil {
			c.only = map[string]bool{}
		}
		for _, n := range names {
			c.only[n] = true
		}
	}
}

// SelectionError is New's error when WithOnly names tools that do not exist.
type SelectionError struct {
	// Unknown are the names that match no tool, sorted.
	Unknown []string
	// Known are the names of every tool there is without WithOnly, sorted.
	Known []string
	// Problems are the 613 errors met while loading descriptors: a broken
	// file may define one of the Unknown names.
	Problems []error
}

// Error names the unknown tools and the known ones.
func (e *SelectionError) Error() string {
	known := strings.Join(e.Known, ", ")
	if known == "" {
		known = "none"
	}
	return fmt.Sprintf("no tool named %s; the tools are: %s", quoteAll(e.Unknown), known)
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// WithCommandTools registers the tools that build returns, as generated
// tools from source (a package path, for messages). A generated package's
// Tools function fits: preset.WithCommandTools("example.com/agent/tools",
// tools.Tools).
func WithCommandTools(source string, build Factory) Option {
	return func(c *config) {
		c.factories = append(c.factories, namedFactory{source: source, form: tool.FormGenerated, build: build})
	}
}

// Preset is an assembled set of tools.
type Preset struct {
	// Registry holds every tool.
	Registry *tool.Registry
	// Kernel is the kernel every tool runs on.
	Kernel *kernel.Kernel
	// Problems are the 613 errors met while loading descriptors; the tools of
	// the files concerned were skipped and the rest loaded.
	Problems []error

	deny        programs.DenyList
	descriptors *descriptorTools // descriptors.go; nil without WithToolsDir
	only        map[string]bool  // WithOnly; nil keeps every tool
	seen        map[string]bool  // with only: every name offered to the registry
}

// New assembles a Preset. An error means nothing usable could be assembled
// (bad workspace, a conflict between code-form tools); problems with single
// descriptor files are in Preset.Problems instead.
func New(opts ...Option) (*Preset, error) {
	c := config{workspace: "."}
	for _, o := range opts {
		o(&c)
	}
	var kopts []kernel.Option
	if c.path != nil {
		kopts = append(kopts, kernel.WithPath(*c.path))
	}
	if c.timeout > 0 {
		kopts = append(kopts, kernel.WithTimeout(c.timeout))
	}
	if c.maxTimeout > 0 {
		kopts = append(kopts, kernel.WithMaxTimeout(c.maxTimeout))
	}
	if c.outputLimit > 0 {
		kopts = append(kopts, kernel.WithOutputLimit(c.outputLimit))
	}
	kopts = c.limits.kernelOptions(kopts)        // limits.go
	kopts, err := c.confine.kernelOptions(kopts) // sandbox.go
	if err != nil {
		return nil, err
	}
	kopts = c.egress.kernelOptions(kopts) // egress.go
	if err := c.egress.checkExecHosts(c.exec); err != nil {
		return nil, err
	}
	// What the kernel must force on each program it runs (git's
	// configuration, curl's .curlrc …) comes from package programs.
	kopts = append(kopts, kernel.WithPrograms(programs.Hook{}))
	kopts = append(kopts, c.protectedOption()) // trust.go
	k, err := kernel.New(c.workspace, kopts...)
	if err != nil {
		return nil, err
	}
	p := &Preset{Registry: &tool.Registry{}, Kernel: k,
		deny: programs.DefaultDenyList().With(c.denyExtra...).Without(c.denyAllow...), only: c.only}
	if c.only != nil {
		p.seen = map[string]bool{}
	}
	if !c.noBuiltins {
		tools, err := builtin.All(k, base.WithDenyList(p.deny))
		if err != nil {
			return nil, err
		}
		for _, t := range tools {
			if !p.selected(t.Name()) {
				continue
			}
			if err := p.Registry.Add(tool.Entry{Tool: t, Form: tool.FormBuiltin, Source: "builtin " + t.Name()}); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range c.factories {
		if err := p.addFactory(f); err != nil {
			return nil, err
		}
	}
	if err := p.addExec(c.exec, c.egress.execHosts); err != nil { // exec.go
		return nil, err
	}
	if err := p.loadDescriptors(c.tools, c.toolsInWorkspace, c.trust); err != nil { // last: every other tool is known by now
		return nil, err
	}
	if err := p.checkSelection(); err != nil {
		return nil, err
	}
	return p, nil
}

// selected reports whether the tool called name is to be registered, and
// notes the name for checkSelection.
func (p *Preset) selected(name string) bool {
	if p.only == nil {
		return true
	}
	if p.seen != nil {
		p.seen[name] = true
	}
	return p.only[name]
}

// checkSelection fails when WithOnly names a tool that New did not meet.
func (p *Preset) checkSelection() error {
	if p.only == nil {
		return nil
	}
	e := &SelectionError{Problems: p.Problems}
	for n := range p.only {
		if !p.seen[n] {
			e.Unknown = append(e.Unknown, n)
		}
	}
	if len(e.Unknown) == 0 {
		p.seen = nil // reloads (Watch) only filter
		return nil
	}
	for n := range p.seen {
		e.Known = append(e.Known, n)
	}
	sort.Strings(e.Unknown)
	sort.Strings(e.Known)
	return e
}

func (p *Preset) addFactory(f namedFactory) error {
	tools, err := f.build(p.Kernel)
	if err != nil {
		return fmt.Errorf("preset: %s: %w", f.source, err)
	}
	for _, t := range tools {
		if !p.selected(t.Name()) {
			continue
		}
		if err := p.checkDenied(t); err != nil {
			return err
		}
		e := tool.Entry{Tool: t, Form: f.form, Source: f.source + " (" + t.Name() + ")"}
		if err := p.Registry.Add(e); err != nil {
			return err
		}
	}
	return nil
}

// checkDenied re-checks a prebuilt tool's binary against the preset's deny
// list: a generated tool was validated against the default list when it was
// built, but the assembling code may have extended the list since.
func (p *Preset) checkDenied(t tool.Tool) error {
	st, ok := t.(tool.SpecTool)
	if !ok {
		return nil
	}
	spec := st.Spec()
	tmpl, err := validate.Spec(&spec, validate.WithDenyList(p.deny))
	if err == nil { // the file the binary resolves to, judged by the preset's list too
		err = validate.CheckBinary(tmpl.Binary(), p.Kernel.Workspace(), p.Kernel.LookPath, validate.WithDenyList(p.deny), validate.RunsCode(spec.RunsCode))
	}
	if err != nil {
		return fmt.Errorf("preset: tool %q: %w", t.Name(), err)
	}
	return nil
}

// DenyList returns the deny list the preset validates with.
func (p *Preset) DenyList() programs.DenyList { return p.deny }
