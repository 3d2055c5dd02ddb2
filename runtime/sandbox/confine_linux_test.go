//go:build linux

package sandbox_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

var (
	readOnly = kernel.Access{}
	writes   = kernel.Access{Write: true}
	network  = kernel.Access{Network: true}
)

// TestReadOutsideWorkspaceDenied: a confined command cannot read
// /etc/hostname or a file next to the workspace, while the same command
// unconfined can (so the denial is Landlock's), and the host process is
// not restricted by what it started.
func TestReadOutsideWorkspaceDenied(t *testing.T) {
	requireLandlock(t)
	ws, outside := dirs(t)
	secret := filepath.Join(outside, "secret.txt")
	targets := []string{secret}
	if _, err := os.ReadFile("/etc/hostname"); err == nil {
		targets = append(targets, "/etc/hostname")
	}
	k := confined(t, ws, readOnly)
	for _, p := range targets {
		succeeds(t, plain(t, ws), "", "cat", p)
		denied(t, k, "cat", p)
	}
	denied(t, k, "ls", outside)
	denied(t, k, "ls", "/")
	denied(t, k, "cat", "/proc/self/status") // /proc is not in the read set
	if _, err := os.ReadFile(secret); err != nil {
		t.Errorf("the host process lost access: %v", err)
	}
}

// TestSymlinkOutsideWorkspaceDenied: a symlink inside the workspace does not
// lead out of it, whether it names a file or a directory, absolute or
// relative: Landlock checks the file finally opened.
func TestSymlinkOutsideWorkspaceDenied(t *testing.T) {
	requireLandlock(t)
	ws, outside := dirs(t)
	links := map[string]string{
		"abs-file": filepath.Join(outside, "secret.txt"),
		"rel-file": "../outside/secret.txt",
		"abs-dir":  outside,
		"etc":      "/etc",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	k := confined(t, ws, readOnly)
	denied(t, k, "cat", "abs-file")
	denied(t, k, "cat", "rel-file")
	denied(t, k, "cat", "abs-dir/secret.txt")
	denied(t, k, "ls", "abs-dir/")
	denied(t, k, "cat", "etc/hostname")
	denied(t, k, "grep", "-R", "secret", ".")
	succeeds(t, k, "needle here", "cat", "a.txt") // the workspace itself is fine
}

// TestWritesFollowThePolicy: a read-only command writes nothing; a writing
// command writes inside the workspace only; /dev/null is always writable.
func TestWritesFollowThePolicy(t *testing.T) {
	requireLandlock(t)
	ws, outside := dirs(t)
	write(t, ws, "sub/b.txt", "b\n")

	ro := confined(t, ws, readOnly)
	denied(t, ro, "touch", "new.txt")
	denied(t, ro, "cp", "a.txt", "copy.txt")
	denied(t, ro, "mkdir", "d")
	denied(t, ro, "truncate", "-s", "0", "a.txt")
	denied(t, ro, "mv", "a.txt", "moved.txt")
	denied(t, ro, "ln", "-s", "a.txt", "link")
	denied(t, ro, "sed", "-i", "s/alpha/omega/", "a.txt")
	for _, p := range []string{"new.txt", "copy.txt", "d", "moved.txt", "link"} {
		missing(t, filepath.Join(ws, p))
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "alpha\nneedle here\n" {
		t.Errorf("a read-only command changed a.txt: %q", b)
	}
	succeeds(t, ro, "", "cp", "a.txt", "/dev/null")

	rw := confined(t, ws, writes)
	succeeds(t, rw, "", "touch", "new.txt")
	succeeds(t, rw, "", "cp", "a.txt", "copy.txt")
	succeeds(t, rw, "", "mkdir", "d")
	succeeds(t, rw, "", "mv", "copy.txt", "d/moved.txt") // across directories
	succeeds(t, rw, "", "sed", "-i", "s/alpha/omega/", "a.txt")
	succeeds(t, rw, "", "rm", "-r", "sub")
	for _, p := range []string{"new.txt", "d/moved.txt"} {
		if _, err := os.Stat(filepath.Join(ws, p)); err != nil {
			t.Errorf("a writing command could not create %s: %v", p, err)
		}
	}
	denied(t, rw, "touch", filepath.Join(outside, "x"))
	denied(t, rw, "cp", "a.txt", filepath.Join(outside, "copy.txt"))
	denied(t, rw, "cp", "a.txt", filepath.Join(os.TempDir(), "toolgen-sandbox-test-"+strconv.Itoa(os.Getpid())))
	denied(t, rw, "mv", "a.txt", filepath.Join(outside, "moved.txt"))
	denied(t, rw, "truncate", "-s", "0", filepath.Join(outside, "secret.txt"))
	missing(t, filepath.Join(outside, "x"))
	missing(t, filepath.Join(outside, "copy.txt"))
	missing(t, filepath.Join(outside, "moved.txt"))
	missing(t, filepath.Join(os.TempDir(), "toolgen-sandbox-test-"+strconv.Itoa(os.Getpid())))
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "the secret\n" {
		t.Errorf("a writing command changed a file outside the workspace: %q", b)
	}
}

// TestNetworkFollowsThePolicy: connecting to a listener on 127.0.0.1 and
// binding a TCP port fail without the network and succeed with it.
func TestNetworkFollowsThePolicy(t *testing.T) {
	requireLandlock(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	ws, _ := dirs(t)

	// No memory cap: the helper is this test binary, which under the race
	// detector reserves terabytes of address space.
	noCap := kernel.WithMemoryLimit(0)
	off := confined(t, ws, readOnly, noCap)
	denied(t, off, self, "net-helper", "dial", addr)
	denied(t, off, self, "net-helper", "listen")
	denied(t, off, "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/"+port)
	denied(t, confined(t, ws, writes, noCap), self, "net-helper", "dial", addr)
	select {
	case <-accepted:
		t.Fatal("the listener accepted a connection from a command without network")
	default:
	}

	on := confined(t, ws, network, noCap)
	succeeds(t, on, "ok", self, "net-helper", "dial", addr)
	succeeds(t, on, "ok", self, "net-helper", "listen")
	succeeds(t, on, "", "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/"+port)
	for range 2 {
		select {
		case <-accepted:
		case <-time.After(5 * time.Second):
			t.Fatal("the listener saw no connection from a command with network")
		}
	}

	// From ABI 6, abstract Unix sockets outside the sandbox count as network
	// (and the call's network namespace has none of the host's).
	if abi, _ := sandbox.Available(); abi >= 6 {
		name := "@toolgen-sandbox-test-" + strconv.Itoa(os.Getpid())
		ul, err := net.Listen("unix", name)
		if err != nil {
			t.Fatal(err)
		}
		defer ul.Close()
		go func() {
			for {
				c, err := ul.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		unreachable(t, off, self, "net-helper", "dial-unix", name)
		succeeds(t, on, "ok", self, "net-helper", "dial-unix", name)
	}
}

// TestOrdinaryToolsWork: the tools an agent runs work confined, git in a
// real repository included.
func TestOrdinaryToolsWork(t *testing.T) {
	requireLandlock(t)
	ws, _ := dirs(t)
	write(t, ws, "src/main.go", "package main\n\nfunc main() {}\n")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "HOME="+ws, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			guarantee.Missing(t, "git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", ".")
	git("add", ".")
	git("commit", "-q", "-m", "first commit")

	k := confined(t, ws, readOnly)
	succeeds(t, k, "a.txt:2:needle here", "grep", "-rn", "needle", ".")
	succeeds(t, k, "./src/main.go", "find", ".", "-name", "*.go")
	succeeds(t, k, "needle here", "sed", "-n", "2p", "a.txt")
	succeeds(t, k, "first commit", "git", "log", "--oneline")
	succeeds(t, k, "", "git", "status", "--short")
	succeeds(t, k, "package main", "git", "show", "HEAD:src/main.go")
	succeeds(t, k, "2 a.txt", "wc", "-l", "a.txt")
	succeeds(t, k, "main.go", "ls", "-la", "src")
	succeeds(t, k, "alpha", "sort", "a.txt")
	succeeds(t, k, "", "date")
	succeeds(t, confined(t, ws, writes), "", "git", "-c", "user.name=t", "-c", "user.email=t@x",
		"commit", "-q", "--allow-empty", "-m", "confined commit")
	succeeds(t, k, "confined commit", "git", "log", "--oneline")
}

// TestSignalsStayInside: a command cannot signal a process outside its
// call, such as the agent that started it: it runs in a PID namespace of
// its own, where the agent's pid names nothing, in every mode; and from
// Landlock ABI 6 its sandbox scopes signals too.
func TestSignalsStayInside(t *testing.T) {
	ws, _ := dirs(t)
	pid := strconv.Itoa(os.Getpid())
	for _, mode := range []sandbox.Mode{sandbox.Off, sandbox.BestEffort, sandbox.Strict} {
		if abi, ok := sandbox.Available(); mode == sandbox.Strict && !ok {
			t.Logf("strict needs Landlock ABI 4, this kernel has %d", abi)
			continue
		}
		if mode == sandbox.Off && !strings.Contains(kernel.DescendantControl(), "PID namespace per call") {
			continue // no namespace: unconfined, the agent's pid is reachable
		}
		res := run(t, newKernel(t, ws, mode, readOnly), "kill", "-0", pid)
		out := strings.ToLower(res.Output)
		if res.ExitCode == 0 || !(strings.Contains(out, "no such process") || strings.Contains(out, "not permitted")) {
			t.Errorf("%v: kill -0 of the agent: %s", mode, res.Text())
		}
	}
}

// TestConfinedTimeout: the kernel's timeout still kills the confined command.
func TestConfinedTimeout(t *testing.T) {
	requireLandlock(t)
	ws, _ := dirs(t)
	k := confined(t, ws, readOnly, kernel.WithTimeout(200*time.Millisecond))
	start := time.Now()
	res := run(t, k, "sleep", "30")
	if !res.TimedOut || res.ExitCode != 124 || time.Since(start) > 5*time.Second {
		t.Errorf("want a timeout within a few seconds, got %v:\n%s", time.Since(start), res.Text())
	}
}

// TestResultArgvUnconfined: the Result reports the command as resolved.
func TestResultArgvUnconfined(t *testing.T) {
	requireLandlock(t)
	ws, _ := dirs(t)
	res := succeeds(t, confined(t, ws, readOnly), "alpha", "cat", "a.txt")
	if len(res.Argv) != 2 || filepath.Base(res.Argv[0]) != "cat" || res.Argv[1] != "a.txt" {
		t.Errorf("Result.Argv = %q", res.Argv)
	}
}

// TestDocumentedLimits pins what the package doc says Landlock does not
// stop, so the doc is corrected when a kernel starts stopping it.
func TestDocumentedLimits(t *testing.T) {
	requireLandlock(t)
	ws, outside := dirs(t)
	secret := filepath.Join(outside, "secret.txt")
	k := confined(t, ws, readOnly)

	// Metadata of any file: stat, and (as far as permissions allow) chmod.
	succeeds(t, k, "the secret", "bash", "-c", "test -e "+secret+" && echo the secret exists")
	succeeds(t, k, "", "chmod", "0600", secret)
	if fi, err := os.Stat(secret); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("chmod outside the workspace: mode %v, %v; update the package doc", fi.Mode(), err)
	}

	// A hard link inside the workspace reaches the file: rules are by path.
	if err := os.Link(secret, filepath.Join(ws, "hard")); err != nil {
		t.Logf("no hard link (%v): skipping that limit", err)
	} else {
		succeeds(t, k, "the secret", "cat", "hard")
	}
}

// TestWithReadable: a path granted with WithReadable is readable, and only
// readable.
func TestWithReadable(t *testing.T) {
	requireLandlock(t)
	ws, outside := dirs(t)
	k := confined(t, ws, readOnly, kernel.WithReadable(outside, filepath.Join(outside, "missing")))
	succeeds(t, k, "the secret", "cat", filepath.Join(outside, "secret.txt"))
	denied(t, k.WithAccess(writes), "touch", filepath.Join(outside, "new"))
	missing(t, filepath.Join(outside, "new"))
}
