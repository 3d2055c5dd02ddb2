//go:build linux

package kernel

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// helperListen listens on the abstract Unix socket @name, checks that it
// reaches itself there, writes the file ready (in the workspace) and then
// waits until the file stop appears (at most a minute).
func helperListen(name, ready, stop string) int {
	l, err := net.Listen("unix", "@"+name)
	if err != nil {
		fmt.Println("listen:", err)
		return 1
	}
	defer l.Close()
	c, err := net.Dial("unix", "@"+name)
	if err != nil {
		fmt.Println("self:", err)
		return 1
	}
	c.Close()
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		fmt.Println("ready:", err)
		return 1
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Lstat(stop); err == nil {
			fmt.Println("stopped")
			return 0
		}
	}
	fmt.Println("no stop")
	return 1
}

// helperDial connects to the abstract Unix socket @name and prints
// "connected" or "refused: ERROR", and its network namespace.
func helperDial(name string) int {
	if c, err := net.Dial("unix", "@"+name); err == nil {
		c.Close()
		fmt.Println("connected")
	} else {
		fmt.Println("refused:", err)
	}
	ns, err := os.Readlink("/proc/self/ns/net")
	fmt.Println("netns:", ns, err)
	return 0
}

// TestNetNamespaceEachCall: a confined call of a tool without the network
// has a network namespace of its own, shared with no other call and not
// the host's: a call does not reach an abstract socket that another call,
// running at the same time from the same spawner thread, listens on, nor
// one of the host's (Landlock's scoping, where the kernel has it, does not
// keep two calls of one spawner apart: only the namespace does). Through
// the spawner process and forked from the host.
func TestNetNamespaceEachCall(t *testing.T) {
	if st, why := nsCurrent(); st == nsNone {
		guarantee.Missing(t, "no call namespaces here (%v): calls share the host's network", why)
	}
	self, err := os.Executable()
	require.NoError(t, err)
	hostName := fmt.Sprintf("toolgen-kernel-host-%d", os.Getpid())
	hl, err := net.Listen("unix", "@"+hostName)
	require.NoError(t, err)
	defer hl.Close()
	for _, where := range []struct {
		name string
		opts []Option
	}{{"spawner", nil}, {"in-process", []Option{inProcess}}} {
		t.Run(where.name, func(t *testing.T) {
			forModes(t, []sandbox.Mode{sandbox.Strict, sandbox.BestEffort}, func(t *testing.T, mode sandbox.Mode) {
				ws := t.TempDir()
				k := modeKernel(t, ws, mode, append([]Option{WithMemoryLimit(0), WithTimeout(2 * time.Minute)}, where.opts...)...).
					WithAccess(Access{Write: true})
				rounds := 3 // the later rounds reuse the spawner's thread of the first
				if testing.Short() {
					rounds = 1
				}
				for round := range rounds {
					callName := fmt.Sprintf("toolgen-kernel-call-%d-%d", os.Getpid(), round)
					ready, stop := filepath.Join(ws, "ready"), filepath.Join(ws, "stop")
					os.Remove(ready)
					os.Remove(stop)
					type result struct {
						res Result
						err error
					}
					listener := make(chan result, 1)
					go func() {
						res, err := k.Run(context.Background(), []string{self, "helper-listen", callName, ready, stop})
						listener <- result{res, err}
					}()
					waitForFile(t, ready, listener)
					other := mustRun(t, k, self, "helper-dial", callName)
					host := mustRun(t, k, self, "helper-dial", hostName)
					require.NoError(t, os.WriteFile(stop, nil, 0o644))
					l := <-listener
					require.NoError(t, l.err)
					require.Equal(t, 0, l.res.ExitCode, l.res.Text())
					assert.Contains(t, other.Output, "refused:", "a call reached another call's abstract socket: they share a network namespace")
					assert.Contains(t, host.Output, "refused:", "a call reached the host's abstract socket")
					assert.NotContains(t, host.Output, "netns: "+hostNetNS(t)+" ", "a call ran in the host's network namespace")
				}
			})
		})
	}
}

// waitForFile waits until path exists, failing the test when the call
// that makes it ended first or a minute passed.
func waitForFile[T any](t *testing.T, path string, ended chan T) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Lstat(path); err == nil {
			return
		}
		select {
		case r := <-ended:
			t.Fatalf("the listening call ended first: %+v", r)
		default:
		}
		require.True(t, time.Now().Before(deadline), "the listening call never listened")
	}
}

// hostNetNS is this process's network namespace, as readlink shows it.
func hostNetNS(t *testing.T) string {
	t.Helper()
	ns, err := os.Readlink("/proc/self/ns/net")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(ns, "net:"), ns)
	return ns
}
