//go:build !linux

package kernel

import (
	"fmt"
	"os"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// call is one started command.
type call struct {
	proc   *os.Process
	out    *os.File
	errOut *os.File // stderr's own pipe when kept apart (stderr.go)
	note   string
}

// start starts argv as the leader of a new process group. Outside Linux
// there is no Landlock (sandbox.Decide never applies a policy), no PID
// namespace and no resource limit: the process group is the only
// descendant control, and the package doc says so.
func (k *Kernel) start(argv []string, _ sandbox.Policy, d sandbox.Decision) (*call, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("kernel: output pipe: %w", err)
	}
	er, ew, err := k.stderrPipe(w)
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	c := &call{out: r, errOut: er, note: d.Note}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		closeWriteEnds(w, ew)
		c.done()
		return nil, fmt.Errorf("kernel: %w", err)
	}
	defer devNull.Close()
	c.proc, err = os.StartProcess(argv[0], argv, &os.ProcAttr{
		Dir: k.workspace, Env: k.ChildEnv(argv), Files: []*os.File{devNull, w, ew},
		Sys: groupAttr(), // procattr_unix.go, procattr_windows.go
	})
	closeWriteEnds(w, ew)
	if err != nil {
		c.done()
		return nil, fmt.Errorf("kernel: start %s: %w", argv[0], classifyStart(err))
	}
	return c, nil
}

func (c *call) done() {
	c.out.Close()
	if c.errOut != nil {
		c.errOut.Close()
	}
}

func (c *call) limitReason(Limits, exitStatus, string, bool) string { return "" }

// watchLeader returns a channel closed once the started leader has exited,
// and reap, which returns its status. Without waitid(WNOWAIT) the leader is
// reaped as soon as it exits, so killGroup runs just after; the tiny window
// in which its group id could be reused is accepted on these systems.
func watchLeader(p *os.Process) (exited <-chan struct{}, reap func() (*os.ProcessState, error)) {
	ch := make(chan struct{})
	var (
		ps      *os.ProcessState
		waitErr error
	)
	go func() {
		defer close(ch)
		ps, waitErr = p.Wait()
	}()
	return ch, func() (*os.ProcessState, error) {
		<-ch
		return ps, waitErr
	}
}

func descendantControl(int32) string { return descendantNote }

// DescendantControl describes how this process keeps a call's descendants
// from outliving it.
func DescendantControl() string { return descendantControl(0) }

// ProcessLimitEnforcement describes what enforces WithProcessLimit here.
func ProcessLimitEnforcement() string { return "not enforced outside Linux" }

// ForkFromThisProcess does nothing outside Linux: every call is forked
// from this process.
func ForkFromThisProcess() {}

// Prepare does nothing outside Linux: there is no spawner thread to make
// ahead of need.
func Prepare(...Option) {}

// Guarantees returns what a call gets outside Linux: the process group
// is the only descendant control and nothing caps the processes or keeps
// code from the workspace (nothing confines); each is missing, so Strict
// refuses the call and BestEffort warns (see Guarantees on Linux).
func (k *Kernel) Guarantees(path string, also ...string) Guarantees {
	g := Guarantees{Descendants: descendantControl(0), Network: "open: nothing confines commands outside Linux",
		Spawner: "the agent's process itself (there is no spawner process outside Linux)"}
	g.Missing = append(g.Missing, "a PID namespace (Linux-only): a descendant that calls setsid can outlive the call")
	if k.limits.Processes > 0 {
		g.Processes = "not enforced outside Linux"
		g.Missing = append(g.Missing, "the process cap (Linux-only)")
	}
	return g
}

// egressActive is false outside Linux: there is no network namespace to
// confine a command to its hosts (an unconfined command reaches every
// host).
func (k *Kernel) egressActive() bool { return false }

// egressPort is unused outside Linux.
const egressPort = 0

// shimExec is empty outside Linux: there is no egress shim.
func shimExec() []string { return nil }

// afterNotice is empty outside Linux: there is no egress proxy and no
// spawner process.
func (c *call) afterNotice() string { return "" }

// egressEnforced is false outside Linux.
func egressEnforced() bool { return false }

// PrepareWorkspace does nothing outside Linux: there is no noexec holder.
func PrepareWorkspace(string) {}
