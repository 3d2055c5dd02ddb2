package preset

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// A model that can write files must not be able to grant itself a new
// command by writing a descriptor. When the tools directory lies inside the
// workspace, the tools the preset serves could write into it, so unless
// WithToolsInWorkspace allows it explicitly:
//
//   - if a served tool other than the descriptors may write (ExecTool, whose
//     granted binaries may write, or a built-in or generated tool whose Spec
//     says "writes"), no descriptor is loaded: each file gets a 613 saying
//     why (and so does a file dropped in later, under Watch);
//   - otherwise the descriptors load, but one that says "writes" is refused
//     with a 613: it could write the next descriptor.
//
// A tools directory outside the workspace is not affected. The loader's own
// rules (files and directory owned by the user, not writable by others) apply
// everywhere.

// WithToolsInWorkspace allows a tools directory inside the workspace even
// when served tools can write there.
func WithToolsInWorkspace() Option { return func(c *config) { c.toolsInWorkspace = true } }

// trustCheck returns the rule each descriptor from dir must pass, or nil
// when there is none.
func (p *Preset) trustCheck(dir string, allowed bool) func(*tool.Spec) error {
	if allowed || !p.inWorkspace(dir) {
		return nil
	}
	if writers := p.writers(); len(writers) > 0 {
		msg := fmt.Sprintf("not loaded: the tools directory lies inside the workspace %s, and %s can write there, "+
			"so a model could grant itself new commands by writing a descriptor; move the tools directory out of "+
			"the workspace, or allow it explicitly (--allow-tools-in-workspace)",
			p.Kernel.Workspace(), strings.Join(writers, ", "))
		return func(*tool.Spec) error { return tool.SpecErrorf("", "%s", msg) }
	}
	return func(s *tool.Spec) error {
		if !s.Writes {
			return nil
		}
		return tool.SpecErrorf("writes", "tool %q writes, and its tools directory lies inside the workspace %s: "+
			"it could write the next descriptor and grant the model new commands; move the tools directory out of "+
			"the workspace, or allow it explicitly (--allow-tools-in-workspace)", s.Name, p.Kernel.Workspace())
	}
}

// inWorkspace reports whether dir, symlinks resolved, lies inside the
// workspace.
func (p *Preset) inWorkspace(dir string) bool {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return true
	}
	rel, err := filepath.Rel(p.Kernel.Workspace(), real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// writers names the registered tools that may write into the workspace.
func (p *Preset) writers() []string {
	var out []string
	for _, e := range p.Registry.Entries() {
		switch t := e.Tool.(type) {
		case tool.SpecTool:
			if t.Spec().Writes {
				out = append(out, fmt.Sprintf("%s (writes)", e.Tool.Name()))
			}
		default:
			if e.Form == tool.FormExec {
				out = append(out, "exec (its granted binaries may write)")
			}
		}
	}
	sort.Strings(out)
	return out
}

// trustOptions returns the loader options that enforce the rule.
func (p *Preset) trustOptions(td *toolsDir, allowed bool) []loader.Option {
	if check := p.trustCheck(td.dir, allowed); check != nil {
		return []loader.Option{loader.WithSpecCheck(check)}
	}
	return nil
}
