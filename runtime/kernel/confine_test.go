package kernel

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingConfiner prefixes argv with prefix and remembers what it saw.
type recordingConfiner struct {
	prefix []string
	note   string
	err    error

	mu        sync.Mutex
	argv      []string
	workspace string
	access    Access
}

func (c *recordingConfiner) Confine(argv []string, workspace string, a Access) ([]string, string, error) {
	c.mu.Lock()
	c.argv, c.workspace, c.access = slices.Clone(argv), workspace, a
	c.mu.Unlock()
	argv[0] = "clobbered" // the kernel passes a copy
	if c.err != nil {
		return nil, "", c.err
	}
	return append(slices.Clone(c.prefix), argv[1:]...), c.note, nil
}

func TestConfinerRunsConfinedArgv(t *testing.T) {
	c := &recordingConfiner{prefix: []string{"/bin/echo", "confined"}, note: "note from the confiner"}
	k := newKernel(t, WithConfiner(c))
	res := mustRun(t, k, "true", "a b")
	assertText(t, res, "exit: 0\noutput: confined a b\n[note from the confiner]")
	if res.Argv[0] != "/usr/bin/true" && res.Argv[0] != "/bin/true" {
		t.Errorf("Result.Argv = %q, want the unconfined, resolved argv", res.Argv)
	}
	if !strings.HasSuffix(c.argv[0], "/true") || c.argv[1] != "a b" {
		t.Errorf("confiner saw %q, want the resolved argv", c.argv)
	}
	if c.workspace != k.Workspace() || c.access != (Access{}) {
		t.Errorf("confiner saw workspace %q access %+v, want %q and the zero Access", c.workspace, c.access, k.Workspace())
	}
	if k.Confiner() != c {
		t.Error("Confiner() does not return the confiner")
	}
}

func TestConfinerAfterWrapper(t *testing.T) {
	c := &recordingConfiner{prefix: []string{"/bin/echo"}}
	k := newKernel(t, WithConfiner(c), WithWrapper(func(argv []string) ([]string, error) {
		return append([]string{"/usr/bin/env", "wrapped"}, argv...), nil
	}))
	res := mustRun(t, k, "true")
	if len(c.argv) < 3 || c.argv[0] != "/usr/bin/env" || c.argv[1] != "wrapped" {
		t.Errorf("confiner saw %q, want the wrapped argv", c.argv)
	}
	if res.Notice != "" {
		t.Errorf("Notice = %q, want none", res.Notice)
	}
}

func TestConfinerRefuses(t *testing.T) {
	for name, c := range map[string]*recordingConfiner{
		"error":    {err: errors.New("no sandbox here")},
		"relative": {prefix: []string{"echo"}},
		"empty":    {prefix: []string{}},
	} {
		k := newKernel(t, WithConfiner(c))
		res, err := k.Run(context.Background(), []string{"true"})
		if err == nil || res.ExitCode != 126 || !strings.HasPrefix(res.Output, "kernel: confine") {
			t.Errorf("%s: Run = %q, %v; want exit 126 and a confine error", name, res.Text(), err)
		}
	}
	k := newKernel(t, WithConfiner(&recordingConfiner{err: errors.New("no sandbox here")}))
	res, _ := k.Run(context.Background(), []string{"true"})
	assertText(t, res, "exit: 126\noutput: kernel: confine: no sandbox here")
}

func TestWithAccess(t *testing.T) {
	c := &recordingConfiner{prefix: []string{"/bin/echo"}}
	k := newKernel(t, WithConfiner(c), WithTimeout(7*time.Second), WithEnv("A=1"))
	if k.WithAccess(Access{}) != k {
		t.Error("WithAccess(same access) should return the kernel itself")
	}
	rw := Access{Write: true, Network: true}
	d := k.WithAccess(rw)
	if d == k || d.Access() != rw || k.Access() != (Access{}) {
		t.Fatalf("derived access %+v, original %+v", d.Access(), k.Access())
	}
	if d.Workspace() != k.Workspace() || d.Timeout() != k.Timeout() || !slices.Equal(d.Env(), k.Env()) || d.Confiner() != c {
		t.Error("the derived kernel differs from the original in more than its access")
	}
	mustRun(t, d, "true")
	if c.access != rw {
		t.Errorf("confiner saw %+v, want %+v", c.access, rw)
	}
	mustRun(t, k, "true")
	if c.access != (Access{}) {
		t.Errorf("confiner saw %+v through the original kernel, want the zero Access", c.access)
	}
}

func TestTextNotice(t *testing.T) {
	for _, tc := range []struct {
		res  Result
		want string
	}{
		{Result{Notice: "n"}, "exit: 0\noutput: \n[n]"},
		{Result{Output: "x\n", Notice: "n"}, "exit: 0\noutput: x\n[n]"},
		{Result{Output: "x", Notice: "n"}, "exit: 0\noutput: x\n[n]"},
		{Result{ExitCode: 124, Output: "x", TimedOut: true, Timeout: time.Second, Notice: "n"},
			"exit: 124\noutput: x\n[timed out after 1s; process group killed]\n[n]"},
	} {
		if got := tc.res.Text(); got != tc.want {
			t.Errorf("Text() = %q, want %q", got, tc.want)
		}
	}
}
