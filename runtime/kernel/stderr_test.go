//go:build unix

package kernel

import (
	"strings"
	"testing"
)

func TestRunSeparateStderr(t *testing.T) {
	k := newKernel(t).WithSeparateStderr(true)
	res := mustRun(t, k, "sh", "-c", "echo out; echo err >&2; printf out2")
	if !res.SeparateStderr || res.Output != "out\nout2" || res.Stderr != "err\n" {
		t.Errorf("SeparateStderr, Output, Stderr = %v, %q, %q", res.SeparateStderr, res.Output, res.Stderr)
	}
	assertText(t, res, "exit: 0\nstdout: out\nout2\nstderr: err\n")
	empty := mustRun(t, k, "sh", "-c", "echo '{\"Action\":\"pass\"}'")
	assertText(t, empty, "exit: 0\nstdout: {\"Action\":\"pass\"}\nstderr: ")
	// The default is unchanged: one stream, interleaved.
	if k.WithSeparateStderr(false) == k || newKernel(t).SeparateStderr() {
		t.Error("WithSeparateStderr(false) on a separating kernel returned it unchanged, or the default separates")
	}
	merged := mustRun(t, newKernel(t), "sh", "-c", "echo out; echo err >&2")
	if merged.SeparateStderr || merged.Stderr != "" {
		t.Errorf("default kernel: SeparateStderr, Stderr = %v, %q", merged.SeparateStderr, merged.Stderr)
	}
	assertText(t, merged, "exit: 0\noutput: out\nerr\n")
}

// TestRunSeparateStderrBounded: each stream is bounded by the output limit
// on its own, and a flood on one leaves the other whole.
func TestRunSeparateStderrBounded(t *testing.T) {
	k := newKernel(t, WithOutputLimit(100)).WithSeparateStderr(true)
	res := mustRun(t, k, "sh", "-c", "echo '{\"a\":1}'; i=0; while [ $i -lt 500 ]; do echo noise-noise-noise >&2; i=$((i+1)); done")
	if res.Output != "{\"a\":1}\n" || res.Truncated {
		t.Errorf("stdout = %q (truncated %v), want it whole", res.Output, res.Truncated)
	}
	if !res.StderrTruncated || res.StderrOmitted != 500*18-100 || !strings.Contains(res.Stderr, "bytes omitted from the middle") {
		t.Errorf("stderr truncated %v, omitted %d; %q", res.StderrTruncated, res.StderrOmitted, res.Stderr)
	}
	both := mustRun(t, k, "sh", "-c", "i=0; while [ $i -lt 100 ]; do echo out-out-out; echo err-err-err >&2; i=$((i+1)); done")
	if both.Omitted != 1200-100 || both.StderrOmitted != 1200-100 {
		t.Errorf("omitted = %d, %d; want 1100 each", both.Omitted, both.StderrOmitted)
	}
}

// TestRunSeparateStderrTimeout: a timed-out call keeps both streams, the
// timeout line after stderr.
func TestRunSeparateStderrTimeout(t *testing.T) {
	k := newKernel(t, WithTimeout(300_000_000)).WithSeparateStderr(true)
	res := mustRun(t, k, "sh", "-c", "echo out; printf err >&2; sleep 10")
	assertText(t, res, "exit: 124\nstdout: out\nstderr: err\n[timed out after 300ms; process group killed]")
}
