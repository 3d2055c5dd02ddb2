// Package explain is toolgen's dry run: for a tool and the model's JSON
// arguments it reports exactly what a call would run — the resolved argv, one
// element per line and quoted unambiguously, the workspace, timeout, output
// limit, the confinement that would apply, and each defence's decision — or
// the 614 that would reject it, and which rule. Nothing is executed.
//
// It is a separate API on purpose: a "dry_run" argument in a tool's schema
// would hand the model a second path through every tool.
package explain

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Report is the outcome of a dry run.
type Report struct {
	// Tool, Form and Source identify the tool.
	Tool   string
	Form   tool.Form
	Source string
	// Template is the command template ("" for ExecTool).
	Template string
	// Workspace, Timeout and OutputLimit are the kernel's settings; a tool
	// whose Spec sets its own OutputLimit has that one instead, and one that
	// sets its own Timeout has that one, capped at the kernel's maximum,
	// with where it comes from: "5m0s (the tool's timeout)", or "10m0s (the
	// tool's timeout 30m0s, capped by the run's maximum)".
	Workspace   string
	Timeout     string
	OutputLimit int
	// OutputLimitFrom says where OutputLimit comes from: "the tool's
	// output_limit" or "the run's limit" (--output-limit, or the default).
	OutputLimitFrom string
	// StderrApart reports that the tool keeps stderr apart from stdout
	// (its descriptor's "stderr": "separate"), each bounded by OutputLimit.
	StderrApart bool
	// Confinement describes the kernel-enforced sandbox the call would get.
	Confinement string
	// Network is the network the call gets (none, every host or only the
	// hosts the tool names) and what enforces it.
	Network string
	// Limits are the resource caps of the call, and what enforces them.
	Limits string
	// Descendants says how the call's descendants are kept from outliving it.
	Descendants string
	// Spawner says which process the call would be forked from; "" when
	// there is no command to spawn.
	Spawner string
	// Privileges says what the call holds of the system's privileges
	// (capabilities, no_new_privs, IPC and UTS namespaces); "" when the
	// call is rejected.
	Privileges string
	// Syscalls says which system calls the call's seccomp filter refuses;
	// "" when nothing confines the call.
	Syscalls string
	// Protected lists the protected paths and how they are kept from the
	// call; "" when nothing confines the call.
	Protected string
	// Missing names each guarantee the call would not get, and why:
	// strict refuses such a call, best-effort and off run it with a
	// warning.
	Missing []string
	// WorkspaceExec says what keeps the call from running code from the
	// workspace; "" when nothing confines the call.
	WorkspaceExec string
	// RunsCode is the line of a tool that runs the repository's code
	// (runs_code): what runs, what holds, what does not; "" for other
	// tools.
	RunsCode string
	// BuildCache is such a tool's build cache (its workspace's own) and
	// how to remove it; "" for other tools.
	BuildCache string
	// Env is the exact environment the command would get; nil when rejected.
	Env []string
	// Exec is the execute set: the only files the command and everything it
	// starts could execute under confinement; nil when rejected or when
	// nothing confines the call.
	Exec []string
	// Decisions are the defences' decisions in order, one line each.
	Decisions []string
	// Argv is what would run, argv[0] resolved; nil when rejected.
	Argv []string
	// Notes are the validator's notes about the tool's descriptor
	// (validate.Notes): not problems, what its author may want to change.
	Notes []string
	// Err is the rejection (a 614 *tool.Error) when the call would not run.
	Err error
}

// Call explains a call of the tool in entry with args on kernel k (the
// preset's kernel). It never runs the command.
func Call(entry tool.Entry, k *kernel.Kernel, args json.RawMessage) *Report {
	timeout := k.Timeout().String()
	if st, ok := entry.Tool.(tool.SpecTool); ok && st.Spec().Timeout > 0 {
		k, timeout = timeoutOf(k, st.Spec().Timeout)
	}
	r := &Report{
		Tool: entry.Tool.Name(), Form: entry.Form, Source: entry.Source,
		Workspace: k.Workspace(), Timeout: timeout, OutputLimit: k.OutputLimit(), OutputLimitFrom: "the run's limit",
		Limits:      limitsText(runtime.GOOS, k.Limits().String()),
		Descendants: kernel.DescendantControl(),
	}
	var a kernel.Access
	var also []string // the programs the template runs, resolved
	switch t := entry.Tool.(type) {
	case *exec.Tool:
		a = t.Kernel().Access() // the least, or the hosts it was granted
		r.explainExec(t, args)
	case tool.SpecTool:
		spec := t.Spec()
		r.Template = spec.Command
		if spec.OutputLimit > 0 {
			r.OutputLimit, r.OutputLimitFrom = spec.OutputLimit, "the tool's output_limit"
		}
		r.StderrApart = spec.Stderr.Separate()
		for _, n := range validate.Notes(&spec) {
			r.Notes = append(r.Notes, n.Msg)
		}
		a = kernel.Access{Write: spec.Writes, Network: spec.Network, Hosts: spec.Hosts, RunsCode: spec.RunsCode}
		r.explainSpec(t, k.WithAccess(a), args) // a tool that runs code finds its toolchain where it is installed
		if rt, ok := t.(interface{ RunsAlso() []string }); ok {
			for _, name := range rt.RunsAlso() {
				if p, err := resolve(k, name); err == nil {
					also = append(also, p)
				}
			}
		}
	default:
		r.Err = fmt.Errorf("explain: tool %q is not a command tool; nothing to explain", r.Tool)
		return r
	}
	ka := k.WithAccess(a)
	path := ""
	if len(r.Argv) > 0 {
		path = r.Argv[0]
		r.Env = ka.ChildEnv(r.Argv)
	}
	r.Confinement, r.Exec = confinement(ka, path, also)
	r.Network = network(ka) // network.go
	if path != "" {
		// What the spawn path gives the call (a trial start, killed
		// before the program runs, on the first use).
		r.explainBuild(ka, path)
		g := ka.Guarantees(path, also...)
		r.Descendants = g.Descendants
		r.Spawner = g.Spawner
		r.Privileges = g.Privileges
		r.Syscalls = g.Syscalls
		r.Protected = g.Protected
		if g.Processes != "" {
			r.Limits += "; process cap: " + g.Processes
		}
		if r.Exec != nil {
			r.WorkspaceExec = g.WorkspaceCode
		}
		r.Missing = g.Missing
	}
	return r
}

// explainBuild fills the lines of a tool that runs code (runs_code).
func (r *Report) explainBuild(k *kernel.Kernel, path string) {
	b, ok := k.Build(path)
	if !ok {
		return
	}
	tc := "no toolchain profile"
	if b.Toolchain != "" {
		tc = "the " + b.Toolchain + " toolchain"
	}
	r.Limits = limitsText(runtime.GOOS, b.Limits.String()) + "; no memory cgroup: each process is capped, not their sum"
	r.Exec = nil // it may execute what it reads: the confinement line says so
	r.RunsCode = fmt.Sprintf("yes (%s): what runs is the repository's own code (build files, tests, scripts, what it compiles), "+
		"executed from the workspace, its build cache and its scratch directory; what holds: reads (workspace, system, the toolchain: %s), "+
		"writes (the workspace only if the tool writes, the build cache, the scratch directory), the network line, the limits, "+
		"descendant control and configuration isolation; what does not: the execute set and the noexec workspace",
		tc, strings.Join(append(b.Read, "the build cache"), ", "))
	r.BuildCache = b.Cache + " (this workspace's own, outside it; the scratch directory is tmp/call-* in it, removed after each call; " +
		"remove every build cache with: toolgen cache clean)"
}

func (r *Report) explainSpec(t tool.SpecTool, k *kernel.Kernel, args json.RawMessage) {
	spec := t.Spec()
	bin := strings.Fields(spec.Command)[0]
	r.add("1 allowlist: the template fixes the binary %q; the model cannot change it", bin)
	r.add("2 deny list: %q passed the deny list when the tool was built", bin)
	argv, err := t.Argv(args)
	if err != nil {
		r.add("3 slot values: REFUSED: %v", err)
		r.Err = err
		return
	}
	r.add("3 slot values: every value passed the slot rules (a string is one word with no quote or operator; no value " +
		"begins with '-' unless it is an option's whole value; paths stay inside the workspace)")
	for _, line := range textRules(spec) {
		r.add("  %s", line)
	}
	if flags := booleanFlags(spec); flags != "" {
		r.add("4 flags: fixed by the template; no value can add an option, and a boolean slot only puts its own fixed flag in or leaves it out (%s)", flags)
	} else {
		r.add("4 flags: fixed by the template; no value can add an option")
	}
	resolved, err := resolve(k, argv[0])
	if err != nil {
		r.add("5 kernel: REFUSED: %v", err)
		r.Err = err
		return
	}
	argv[0] = resolved
	r.add("5 kernel: runs %s with no shell, cwd %s, timeout %s, output limit %d bytes, scrubbed environment", resolved, k.Workspace(), k.Timeout(), r.OutputLimit)
	r.Argv = argv
}

// timeoutOf returns the kernel a tool asking for d runs on, and its
// timeout's text: the duration and where it comes from.
func timeoutOf(k *kernel.Kernel, d time.Duration) (*kernel.Kernel, string) {
	tk := k.WithTimeoutOf(d)
	if tk.Timeout() < d {
		return tk, fmt.Sprintf("%s (the tool's timeout %s, capped by the run's maximum)", tk.Timeout(), d)
	}
	return tk, fmt.Sprintf("%s (the tool's timeout)", tk.Timeout())
}

// limitsText is the limits line: the caps; off Linux the kernel sets no
// resource limit at all (no rlimits, no cgroups), and the line says so
// rather than list caps that do not hold.
func limitsText(goos, limits string) string {
	if goos != "linux" {
		return limits + ", none of them enforced: the kernel sets resource limits on Linux only, this is " + goos
	}
	return limits
}

// booleanFlags lists a Spec's boolean slots and their flags ("{ignore_case}
// -i, {word} --word-regexp"), or "".
func booleanFlags(spec tool.Spec) string {
	var parts []string
	for _, a := range spec.Args {
		if a.Type == tool.Boolean {
			parts = append(parts, "{"+a.Name+"} "+a.Flag)
		}
	}
	return strings.Join(parts, ", ")
}

func (r *Report) explainExec(t *exec.Tool, args json.RawMessage) {
	command, err := exec.DecodeCommand(args)
	if err != nil {
		r.add("arguments: REFUSED: %v", err)
		r.Err = err
		return
	}
	argv, verdicts, err := t.Plan(command)
	for _, v := range verdicts {
		r.Decisions = append(r.Decisions, v.String())
	}
	if err != nil {
		r.Err = err
		return
	}
	r.Argv = argv
}

func (r *Report) add(format string, args ...any) {
	r.Decisions = append(r.Decisions, fmt.Sprintf(format, args...))
}

// resolve gives the absolute path the kernel would run.
func resolve(k *kernel.Kernel, bin string) (string, error) {
	if strings.Contains(bin, "/") {
		return bin, nil
	}
	return k.LookPath(bin)
}

// confinement describes the sandbox a call of the program at path ("" when
// the call is rejected) would get on k, and its execute set (with also, the
// programs its template runs).
func confinement(k *kernel.Kernel, path string, also []string) (string, []string) {
	mode := k.Confinement()
	if mode == sandbox.Off {
		return "none (--confine off): the environment, descendant control and limits still apply", nil
	}
	pol := k.Policy(path, also...)
	if path == "" {
		pol.Exec = nil
	}
	abi, _ := sandbox.Available()
	d := sandbox.Decide(pol, mode)
	var state string
	switch {
	case d.Err != nil:
		state = "REFUSED: " + d.Err.Error()
	case !d.Apply:
		state = d.Note
	case d.Note != "":
		state = fmt.Sprintf("Landlock ABI %d; %s", abi, d.Note)
	default:
		state = fmt.Sprintf("Landlock ABI %d", abi)
	}
	text := fmt.Sprintf("%s (%s): %s", mode, state, pol)
	if !d.Apply || path == "" {
		return text, nil
	}
	return text, pol.Exec
}

// Write prints the report for a person.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "tool:        %s (%s, %s)\n", r.Tool, r.Form, r.Source)
	if r.Template != "" {
		fmt.Fprintf(&b, "template:    %s\n", r.Template)
	}
	fmt.Fprintf(&b, "workspace:   %s\n", r.Workspace)
	fmt.Fprintf(&b, "timeout:     %s\n", r.Timeout)
	fmt.Fprintf(&b, "output:      at most %d bytes (head and tail kept; %s)\n", r.OutputLimit, r.OutputLimitFrom)
	if r.StderrApart {
		fmt.Fprintf(&b, "stderr:      kept apart from stdout, at most %d bytes of its own (the tool's stderr: separate)\n", r.OutputLimit)
	}
	fmt.Fprintf(&b, "confinement: %s\n", r.Confinement)
	fmt.Fprintf(&b, "network:     %s\n", r.Network)
	fmt.Fprintf(&b, "limits:      %s\n", r.Limits)
	fmt.Fprintf(&b, "descendants: %s\n", r.Descendants)
	if r.Spawner != "" {
		fmt.Fprintf(&b, "spawner:     %s\n", r.Spawner)
	}
	if r.Privileges != "" {
		fmt.Fprintf(&b, "privileges:  %s\n", r.Privileges)
	}
	if r.Syscalls != "" {
		fmt.Fprintf(&b, "syscalls:    %s\n", r.Syscalls)
	}
	if r.Protected != "" {
		fmt.Fprintf(&b, "protected:   %s (names: %s)\n", r.Protected, strings.Join(sandbox.ProtectedNames(), " "))
	}
	if r.WorkspaceExec != "" {
		fmt.Fprintf(&b, "workspace code: %s\n", r.WorkspaceExec)
	}
	if r.RunsCode != "" {
		fmt.Fprintf(&b, "runs code:   %s\n", r.RunsCode)
		fmt.Fprintf(&b, "build cache: %s\n", r.BuildCache)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note:        %s\n", n)
	}
	for _, m := range r.Missing {
		fmt.Fprintf(&b, "missing:     %s (strict refuses the call; best-effort and off warn)\n", m)
	}
	if r.Exec != nil {
		b.WriteString("execute:\n")
		for _, e := range r.Exec {
			fmt.Fprintf(&b, "  %s\n", e)
		}
	}
	if r.Env != nil {
		b.WriteString("environment:\n")
		for _, e := range r.Env {
			fmt.Fprintf(&b, "  %s\n", strconv.Quote(e))
		}
	}
	b.WriteString("defences:\n")
	for _, d := range r.Decisions {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	if r.Err != nil {
		fmt.Fprintf(&b, "verdict:     rejected: %v\n", r.Err)
	} else {
		b.WriteString("argv:\n")
		for i, a := range r.Argv {
			fmt.Fprintf(&b, "  [%d] %s\n", i, strconv.Quote(a))
		}
		b.WriteString("verdict:     would run (nothing was executed)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
