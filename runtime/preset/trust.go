package preset

import (
	"fmt"

	"github.com/nanogpt/toolgen/internal/within"
)

// A repository's own descriptors are not tools. The agent works inside a
// repository somebody else wrote, and with the defaults (workspace = the
// current directory, tools directory = ./tools) that repository's
// tools/*.tool.json would grant the model whatever commands its author chose
// (git -c core.fsmonitor=sh status, ./build.sh {x}, curl -T {path} …). So a
// tools directory that lies inside the workspace (symlinks resolved) loads
// nothing unless WithToolsInWorkspace allows it: each of its descriptor
// files gets a 613 naming the file, the reason and the flag to use, and so
// does a file dropped in later, under Watch. ToolsDirRefused says why no
// tools came from the directory, even when it holds no file at all.
//
// Allowing it loads the descriptors subject to the validator's rules like
// any other: in particular a template's binary must be a bare name resolved
// on the kernel's PATH, or an absolute path, outside the workspace (see
// validate.CheckBinary).
//
// A tools directory outside the workspace is not affected. The loader's own
// rules (files and directory owned by the user, not writable by others) apply
// everywhere.

// WithToolsInWorkspace allows a tools directory inside the workspace: its
// descriptors load as trusted tools. Give it only for a repository whose
// tools/ you wrote or reviewed (the CLI's --allow-tools-in-workspace).
func WithToolsInWorkspace() Option { return func(c *config) { c.toolsInWorkspace = true } }

// ToolsDirRefused reports whether the tools directory (WithToolsDir) was
// refused as a whole because it lies inside the workspace, and why, in one
// line a person can act on (it names the directory, the workspace and
// --allow-tools-in-workspace). It is false without a tools directory, when
// the directory lies outside the workspace, or with WithToolsInWorkspace.
// The per-file 613s are in Problems and DescriptorProblems.
func (p *Preset) ToolsDirRefused() (reason string, refused bool) {
	if p.descriptors == nil || p.descriptors.refused == "" {
		return "", false
	}
	return p.descriptors.refused, true
}

// refusal returns why the descriptors of dir are not loaded, or "" when
// they may be.
func (p *Preset) refusal(dir string, allowed bool) string {
	if allowed || !p.inWorkspace(dir) {
		return ""
	}
	return fmt.Sprintf("not loaded: the tools directory %s lies inside the workspace %s, and a repository's own "+
		"descriptors are not trusted as tools (a cloned repository could grant itself any command); "+
		"move the tools directory out of the workspace, or allow it explicitly (--allow-tools-in-workspace)",
		dir, p.Kernel.Workspace())
}

// inWorkspace reports whether dir, symlinks resolved, lies inside the
// workspace; a directory that does not exist yet is judged by where it
// would be created (within.Resolved).
func (p *Preset) inWorkspace(dir string) bool {
	return within.Resolved(p.Kernel.Workspace(), dir)
}
