//go:build linux

package kernel

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// A holder keeps, for a user who is not root, a mount namespace in which the
// workspace is mounted noexec, nosuid and nodev: a process of the kernel's
// own executable (see runHolder) started in a user namespace of its own,
// where it may mount, and a mount namespace of its own. A confined call's
// leader, started in a user namespace of its own too (so it holds
// CAP_SYS_CHROOT there before its execve), changes its root to the holder's
// root directory (/proc/self/fd/N, N an O_PATH descriptor of the holder's
// /proc/PID/root that the kernel keeps open, close-on-exec): from then on it
// and everything it starts see the host's files through the holder's
// mounts, the workspace noexec among them. The command cannot undo it: it
// holds no capability after its execve, a chrooted process may not make a
// user namespace (where it would get CAP_SYS_CHROOT back), and Landlock
// keeps it from reaching another process's root through /proc.
//
// Root needs no holder: its spawner thread makes the mount namespace itself
// (sandbox.NoExecWorkspace).
type holder struct {
	proc   *os.Process
	root   int      // O_PATH descriptor of the holder's root directory
	stdin  *os.File // closing it ends the holder
	exited atomic.Bool
	// broken is set once a leader failed to take the holder's root.
	broken atomic.Bool
}

// holderStartTimeout bounds the wait for a holder's "ok".
const holderStartTimeout = 10 * time.Second

// startHolder starts a holder for dir (absolute, symlinks resolved). It
// must run on a thread Landlock does not restrict (any goroutine but a
// spawner's), since it writes the holder's user namespace maps.
func startHolder(dir string, pr sandbox.Protection, noexec bool) (*holder, error) {
	in, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, out, err := os.Pipe()
	if err != nil {
		in.Close()
		inW.Close()
		return nil, err
	}
	uid, gid := os.Geteuid(), os.Getegid()
	proc, err := os.StartProcess("/proc/self/exe", []string{"toolgen-noexec-holder"}, &os.ProcAttr{
		Dir:   "/",
		Env:   []string{helperEnv + "=" + helperHolder, helperDirEnv + "=" + dir, helperProtectEnv + "=" + encodeProtection(pr), helperNoExecEnv + "=" + strconv.FormatBool(noexec)},
		Files: []*os.File{in, out, out},
		Sys: &syscall.SysProcAttr{
			Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
			UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}},
			GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}},
			GidMappingsEnableSetgroups: false,
			Setpgid:                    true, // not in the host's terminal's group
		},
	})
	in.Close()
	out.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("starting the noexec holder: %w", err)
	}
	h := &holder{proc: proc, root: -1, stdin: inW}
	exited := make(chan struct{})
	go func() {
		_, _ = proc.Wait()
		h.exited.Store(true)
		close(exited)
	}()
	line, err := readStatus(outR, exited)
	outR.Close()
	if err == nil && line != "ok" {
		err = errors.New(line)
	}
	if err == nil {
		h.root, err = unix.Open("/proc/"+strconv.Itoa(proc.Pid)+"/root", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		h.close()
		return nil, fmt.Errorf("noexec holder: %w", err)
	}
	return h, nil
}

// readStatus reads the holder's one status line, giving up when it exits
// without one or after holderStartTimeout.
func readStatus(r *os.File, exited <-chan struct{}) (string, error) {
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		line, err := bufio.NewReader(r).ReadString('\n')
		ch <- result{strings.TrimSpace(line), err}
	}()
	t := time.NewTimer(holderStartTimeout)
	defer t.Stop()
	select {
	case res := <-ch:
		if res.line == "" && res.err != nil {
			return "", fmt.Errorf("it said nothing: %w", res.err)
		}
		return res.line, nil
	case <-t.C:
		_ = r.SetReadDeadline(time.Now())
		return "", errors.New("it did not answer within " + holderStartTimeout.String())
	}
}

// chroot is the path a leader passes to chroot(2) to take the holder's
// root, or "" when the holder has exited (its mounts are gone with it).
func (h *holder) chroot() string {
	if h == nil || h.exited.Load() || h.broken.Load() || h.root < 0 {
		return ""
	}
	return "/proc/self/fd/" + strconv.Itoa(h.root)
}

// close ends the holder: closing its stdin makes it exit; it is killed too,
// in case it does not. Its descriptor is closed. Calls still running keep
// what they have.
func (h *holder) close() {
	if h.root >= 0 {
		unix.Close(h.root)
		h.root = -1
	}
	h.stdin.Close()
	_ = h.proc.Kill()
}

// preparedHolders are holders started ahead of need by PrepareWorkspace,
// by workspace, each taken by the first spawner that needs one there.
var preparedHolders = struct {
	sync.Mutex
	m map[string]chan preparedHolder
}{m: map[string]chan preparedHolder{}}

type preparedHolder struct {
	h   *holder
	err error
	key string // the Protection.Key of its protected paths
}

// PrepareWorkspace starts, in the background, what the first confined
// call in dir will need and an ordinary user would otherwise wait for: the
// holder of dir's noexec mount namespace (a start of the program's own
// executable, from the spawner process). It does nothing as root, where
// the spawner's thread makes the namespace itself, or when dir cannot be
// resolved. Like Prepare it is optional and changes nothing of what a
// call gets: a spawner takes the prepared holder instead of starting one.
func PrepareWorkspace(dir string) {
	if os.Geteuid() == 0 {
		return
	}
	ws, err := resolveWorkspace(dir)
	if err != nil {
		return
	}
	if forkFromHost.Load() {
		prepareWorkspaceLocal(ws)
		return
	}
	go func() {
		if p, err := liveSpawnProc(); err == nil {
			p.notify(opPrepare, prepareRequest{Processes: -1, Workspace: ws})
		}
	}()
}

// prepareWorkspaceLocal is PrepareWorkspace in the process that forks the
// calls, ws resolved.
func prepareWorkspaceLocal(ws string) {
	preparedHolders.Lock()
	defer preparedHolders.Unlock()
	if _, ok := preparedHolders.m[ws]; ok {
		return
	}
	c := make(chan preparedHolder, 1)
	preparedHolders.m[ws] = c
	pr := sandbox.Policy{Workspace: ws}.Protection()
	go func() { // an unrestricted goroutine: startHolder writes the maps
		h, err := startHolder(ws, pr, true)
		c <- preparedHolder{h, err, pr.Key()}
	}()
}

// takeHolder returns the holder prepared for dir, waiting for it while it
// starts, or starts one; pr are the protected paths it is to bind, which
// a prepared holder must have bound too, and noexec whether it mounts the
// workspace noexec (a prepared holder does; one for a tool that runs code
// does not).
func takeHolder(dir string, pr sandbox.Protection, noexec bool) (*holder, error) {
	if !noexec {
		return startHolder(dir, pr, false)
	}
	preparedHolders.Lock()
	c, ok := preparedHolders.m[dir]
	delete(preparedHolders.m, dir)
	preparedHolders.Unlock()
	if !ok {
		return startHolder(dir, pr, true)
	}
	p := <-c
	if p.key != pr.Key() {
		if p.h != nil {
			p.h.close()
		}
		return startHolder(dir, pr, true)
	}
	return p.h, p.err
}
