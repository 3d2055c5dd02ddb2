package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// toolFlags are the flags shared by the commands that assemble tools (list,
// schema, call, explain, serve), so they mean the same everywhere.
type toolFlags struct {
	tools     string
	workspace string
	execAllow string
	timeout   time.Duration
	watch     bool
	confine   sandbox.Mode // zero value: sandbox.DefaultMode
	// toolsInWorkspace allows a tools directory inside the workspace even
	// when served tools can write there.
	toolsInWorkspace bool
	runs             bool // registered with --timeout and --confine
}

// register adds the shared flags to fs; exec, timeout and confine only where
// the command runs or describes calls.
func (f *toolFlags) register(fs *flag.FlagSet, runs bool) {
	fs.StringVar(&f.tools, "tools", "", "directory of *.tool.json descriptors (default ./tools when it exists)")
	fs.StringVar(&f.workspace, "workspace", ".", "directory commands run in; path arguments must stay inside it")
	fs.StringVar(&f.execAllow, "exec-allow", "", "comma-separated binaries the exec tool may run (exec is off without it)")
	fs.BoolVar(&f.toolsInWorkspace, "allow-tools-in-workspace", false, "load descriptors from a tools directory inside the workspace even "+
		"when served tools (exec, tools that write) could write new descriptors there")
	f.runs = runs
	if runs {
		fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "per-call timeout; the whole process group is killed when it passes")
		f.confine = sandbox.DefaultMode
		fs.Var(&f.confine, "confine", "`mode` of kernel confinement (Linux Landlock: read the workspace, write it only "+
			"if the tool writes, no network unless it needs it): strict (refuse to run where the kernel cannot enforce it), "+
			"best-effort (run anyway, with a warning in the result) or off (default best-effort)")
	}
}

// checkTimeout reports a --timeout that is zero or negative, which would
// otherwise silently mean the default.
func (f *toolFlags) checkTimeout() error {
	if f.runs && f.timeout <= 0 {
		return fmt.Errorf("--timeout %v: want a positive duration, such as 30s or 2m", f.timeout)
	}
	return nil
}

// toolsDir returns the descriptor directory to load, or "" for none.
func (f *toolFlags) toolsDir() string {
	if f.tools != "" {
		return f.tools
	}
	if st, err := os.Stat("tools"); err == nil && st.IsDir() {
		return "tools"
	}
	return ""
}

// execBinaries returns the granted binaries.
func (f *toolFlags) execBinaries() []string {
	var out []string
	for _, b := range strings.Split(f.execAllow, ",") {
		if b = strings.TrimSpace(b); b != "" {
			out = append(out, b)
		}
	}
	return out
}

// options returns the preset options the flags ask for.
func (f *toolFlags) options() []preset.Option {
	opts := []preset.Option{preset.WithWorkspace(f.workspace), preset.WithConfinement(f.confine)}
	if f.timeout > 0 {
		opts = append(opts, preset.WithTimeout(f.timeout))
	}
	return append(opts, extraOptions(f)...)
}
