//go:build unix

package kernel

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestMaxTimeoutDefaults(t *testing.T) {
	if got := newKernel(t).MaxTimeout(); got != DefaultMaxTimeout {
		t.Errorf("default MaxTimeout = %v, want %v", got, DefaultMaxTimeout)
	}
	// A timeout longer than the default maximum raises the maximum: a
	// --timeout 20m given alone keeps working.
	if got := newKernel(t, WithTimeout(20*time.Minute)).MaxTimeout(); got != 20*time.Minute {
		t.Errorf("MaxTimeout with a 20m timeout = %v, want 20m", got)
	}
	if got := newKernel(t, WithMaxTimeout(time.Hour)).MaxTimeout(); got != time.Hour {
		t.Errorf("MaxTimeout = %v, want 1h", got)
	}
}

func TestMaxTimeoutRefused(t *testing.T) {
	for _, c := range []struct {
		opts []Option
		want string
	}{
		{[]Option{WithMaxTimeout(0)}, "maximum timeout must be positive"},
		{[]Option{WithMaxTimeout(-time.Second)}, "maximum timeout must be positive"},
		{[]Option{WithTimeout(2 * time.Minute), WithMaxTimeout(time.Minute)}, "maximum timeout 1m0s is shorter than the timeout 2m0s"},
	} {
		_, err := New(t.TempDir(), c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New = %v, want an error containing %q", err, c.want)
		}
	}
}

func TestWithTimeoutOf(t *testing.T) {
	k := newKernel(t) // 30s, at most 10m, CPU limit the timeout
	if k.WithTimeoutOf(0) != k || k.WithTimeoutOf(-time.Second) != k || k.WithTimeoutOf(DefaultTimeout) != k {
		t.Error("a timeout that changes nothing did not return the kernel itself")
	}
	d := k.WithTimeoutOf(5 * time.Minute)
	if d.Timeout() != 5*time.Minute || d.Limits().CPU != 5*time.Minute {
		t.Errorf("derived timeout, CPU = %v, %v; want 5m, 5m (the CPU limit follows a default one)", d.Timeout(), d.Limits().CPU)
	}
	if k.Timeout() != DefaultTimeout || k.Limits().CPU != DefaultTimeout {
		t.Errorf("the parent changed: %v, %v", k.Timeout(), k.Limits().CPU)
	}
	if got := k.WithTimeoutOf(time.Hour).Timeout(); got != DefaultMaxTimeout {
		t.Errorf("a 1h timeout on a 10m maximum = %v, want it capped at 10m", got)
	}
	fixed := newKernel(t, WithCPULimit(7*time.Second)).WithTimeoutOf(5 * time.Minute)
	if fixed.Limits().CPU != 7*time.Second {
		t.Errorf("an explicit CPU limit became %v, want 7s kept", fixed.Limits().CPU)
	}
}

// TestRunTimeoutOfCapped runs a command on a derived kernel that asks for
// more than the maximum: it is killed at the maximum, and the Result says
// which timeout it ran under.
func TestRunTimeoutOfCapped(t *testing.T) {
	const most = 400 * time.Millisecond
	k := newKernel(t, WithTimeout(100*time.Millisecond), WithMaxTimeout(most)).WithTimeoutOf(time.Hour)
	promptly(t, 200*time.Millisecond, func() time.Duration {
		start := time.Now()
		res, err := k.Run(context.Background(), []string{"sh", "-c", "echo before; sleep 10"})
		elapsed := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if !res.TimedOut || res.ExitCode != 124 || res.Timeout != most || elapsed < most {
			t.Errorf("TimedOut, ExitCode, Timeout, elapsed = %v, %d, %v, %v; want true, 124, %v, >= %v", res.TimedOut, res.ExitCode, res.Timeout, elapsed, most, most)
		}
		assertText(t, res, "exit: 124\noutput: before\n[timed out after 400ms; process group killed]")
		return elapsed - most
	})
}
