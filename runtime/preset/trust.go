package preset

import (
	"fmt"
	"path/filepath"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/runtime/trust"
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
// A directory the user trusted (toolgen trust; package trust) loads too,
// when WithTrustStore names the store: only the descriptor files as they
// were when the user trusted it, each file added or changed since being a
// 613 naming toolgen trust, under Watch as well. A store that lies inside
// the workspace is not used (a tool that writes could trust directories in
// the user's name).
//
// A tools directory outside the workspace is not affected. The loader's own
// rules (files and directory owned by the user, not writable by others) apply
// everywhere.

// WithToolsInWorkspace allows a tools directory inside the workspace: its
// descriptors load as trusted tools. Give it only for a repository whose
// tools/ you wrote or reviewed (the CLI's --allow-tools-in-workspace).
func WithToolsInWorkspace() Option { return func(c *config) { c.toolsInWorkspace = true } }

// WithTrustStore makes a tools directory inside the workspace load when the
// store trusts it (see above; the CLI passes trust.DefaultPath's store).
// Without it, only WithToolsInWorkspace lifts the refusal.
func WithTrustStore(s *trust.Store) Option { return func(c *config) { c.trust = s } }

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
		"move the tools directory out of the workspace, trust it as it is now (toolgen trust %s), "+
		"or allow it explicitly (--allow-tools-in-workspace)",
		dir, p.Kernel.Workspace(), dir)
}

// trusted returns the check of the files of dir when store trusts dir: each
// file must be as the user trusted it (the record is read again at every
// check, so trusting anew counts at the next change of the file). It
// returns nil when store does not trust dir, with the reason when the
// store cannot be used.
func (p *Preset) trusted(dir string, store *trust.Store) (check func(file, name string, data []byte) error, why string) {
	if _, ok, err := store.Lookup(dir); err != nil || !ok {
		if err != nil {
			return nil, err.Error()
		}
		return nil, ""
	}
	if p.inWorkspace(store.Path()) {
		return nil, fmt.Sprintf("the trust store %s lies inside the workspace, so it is not used", store.Path())
	}
	return func(file, name string, data []byte) error {
		rec, ok, err := store.Lookup(dir)
		switch {
		case err != nil:
			return &tool.Error{Code: tool.CodeSpec, File: file, Msg: "not loaded: " + err.Error()}
		case !ok:
			return &tool.Error{Code: tool.CodeSpec, File: file, Msg: fmt.Sprintf(
				"not loaded: the tools directory is no longer trusted (the trust was revoked); run toolgen trust %s to trust it again", dir)}
		}
		return rec.Check(file, name, data)
	}, ""
}

// inWorkspace reports whether dir, symlinks resolved, lies inside the
// workspace; a directory that does not exist yet is judged by where it
// would be created (within.Resolved).
func (p *Preset) inWorkspace(dir string) bool {
	return within.Resolved(p.Kernel.Workspace(), dir)
}

// protectedOption keeps the tools directory and the trust store (and its
// directory) from every call's command (kernel.WithProtected): a tool that
// writes must not be able to add or trust a tool.
func (c *config) protectedOption() kernel.Option {
	var paths []string
	if c.tools != nil {
		if abs, err := filepath.Abs(c.tools.dir); err == nil {
			paths = append(paths, resolved(abs))
		}
	}
	if c.trust != nil {
		if abs, err := filepath.Abs(c.trust.Path()); err == nil {
			paths = append(paths, resolved(abs), resolved(filepath.Dir(abs)))
		}
	}
	return kernel.WithProtected(paths...)
}

// resolved is path with its symlinks resolved, where it exists.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
