package kernel

import (
	"strconv"
	"strings"
	"time"
)

// Result is what one Run produced. Every field's zero value means "nothing to
// report": exit 0, no output, not truncated, not timed out.
type Result struct {
	// Argv is what ran: the caller's argv with argv[0] resolved to an absolute
	// path. When argv[0] could not be resolved it is left as given.
	Argv []string
	// ExitCode is the exit status, shell style: 127 command not found, 126
	// found but not executable (or not startable), 128+n when killed by signal
	// n (137 when Run's context ended the call), 124 on timeout.
	ExitCode int
	// Output is stdout and stderr interleaved in the order they were written
	// (stdout alone when SeparateStderr), as valid UTF-8 (each run of invalid bytes becomes U+FFFD), at most the
	// output limit in bytes plus, when Truncated, the marker line
	// "\n[... N bytes omitted from the middle ...]\n" between the kept head and
	// tail. When the command could not start, it is the reason.
	Output string
	// Truncated reports that the middle of the output was dropped.
	Truncated bool
	// Omitted is the number of output bytes (as the command wrote them)
	// dropped from the middle; 0 unless Truncated.
	Omitted int64
	// SeparateStderr reports that stderr was kept apart from stdout
	// (WithSeparateStderr): Output is stdout alone and Stderr is stderr.
	SeparateStderr bool
	// Stderr is the command's stderr when SeparateStderr, bounded and made
	// valid UTF-8 as Output is, on its own (the output limit again, with
	// the same marker when its middle was dropped); "" otherwise.
	Stderr string
	// StderrTruncated reports that the middle of Stderr was dropped, and
	// StderrOmitted how many bytes; false and 0 unless SeparateStderr.
	StderrTruncated bool
	StderrOmitted   int64
	// TimedOut reports that the timeout elapsed and the process group was
	// killed; ExitCode is then 124.
	TimedOut bool
	// Timeout is the time limit the command ran under (the kernel's timeout).
	Timeout time.Duration
	// Duration is the wall time of the call, from start to the end of output.
	Duration time.Duration
	// Limit names the resource limit that ended the command, in one line
	// ("cpu time limit 30s exceeded"); "" when none did, as far as the
	// kernel can tell (see Limits).
	Limit string
	// Notice is the confinement's note about how the command ran, e.g. a
	// warning that it ran unconfined (WithConfinement); "" for none.
	Notice string
}

// Text returns the text the model sees, exactly:
//
//	exit: N
//	output: OUTPUT
//
// where OUTPUT is Result.Output verbatim (so a truncated output carries its
// "[... N bytes omitted from the middle ...]" marker line where the bytes were
// left out), and no newline is added after it. When SeparateStderr, the two
// streams stand under labels of their own instead:
//
//	exit: N
//	stdout: STDOUT
//	stderr: STDERR
//
// where a newline is added after STDOUT when it does not end with one, so
// that "stderr:" always starts a line. When the command timed out, a
// last line follows, on a line of its own:
//
//	[timed out after 30s; process group killed]
//
// When a resource limit ended the command, its reason follows, bracketed,
// on a line of its own:
//
//	[cpu time limit 30s exceeded]
//
// When there is a Notice, it comes last, bracketed, on a line of its own:
//
//	[warning: not confined: ...]
func (r Result) Text() string {
	var b strings.Builder
	b.Grow(len(r.Output) + 64)
	b.WriteString("exit: ")
	b.WriteString(strconv.Itoa(r.ExitCode))
	last := r.Output
	if r.SeparateStderr {
		b.WriteString("\nstdout: ")
		b.WriteString(r.Output)
		if !strings.HasSuffix(r.Output, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("stderr: ")
		b.WriteString(r.Stderr)
		last = r.Stderr
	} else {
		b.WriteString("\noutput: ")
		b.WriteString(r.Output)
	}
	if r.TimedOut {
		if last == "" || !strings.HasSuffix(last, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[timed out")
		if r.Timeout > 0 {
			b.WriteString(" after ")
			b.WriteString(r.Timeout.String())
		}
		b.WriteString("; process group killed]")
	}
	for _, note := range []string{r.Limit, r.Notice} {
		if note == "" {
			continue
		}
		if s := b.String(); !strings.HasSuffix(s, "\n") {
			b.WriteByte('\n')
		}
		b.WriteByte('[')
		b.WriteString(note)
		b.WriteByte(']')
	}
	return b.String()
}
