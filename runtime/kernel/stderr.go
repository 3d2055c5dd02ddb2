package kernel

import (
	"fmt"
	"os"
)

// WithSeparateStderr returns a kernel that is k in every respect except
// whether a command's stderr is kept apart from its stdout (on) or
// interleaved with it in the order written (off, the default). Apart,
// Result.Output holds stdout alone and Result.Stderr holds stderr, each
// bounded by the output limit on its own, and Result.Text shows them under
// "stdout:" and "stderr:". It returns k itself when k already does so. A
// tool whose Spec asks for it derives its kernel this way (package base
// does).
func (k *Kernel) WithSeparateStderr(on bool) *Kernel {
	if k.separateStderr == on {
		return k
	}
	d := *k // every field is immutable after New: sharing them is safe
	d.separateStderr = on
	return &d
}

// SeparateStderr reports whether k keeps a command's stderr apart from its
// stdout (WithSeparateStderr).
func (k *Kernel) SeparateStderr() bool { return k.separateStderr }

// stderrPipe returns the child's stderr given its stdout w: w itself
// (interleaved) and no reader, or, when k keeps stderr apart, the write
// end of a pipe of its own and its read end.
func (k *Kernel) stderrPipe(w *os.File) (r, ew *os.File, err error) {
	if !k.separateStderr {
		return nil, w, nil
	}
	r, ew, err = os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("kernel: stderr pipe: %w", err)
	}
	return r, ew, nil
}

// closeWriteEnds closes the host's copies of the child's stdout and
// stderr once the child has its own: EOF comes when every holder is gone.
func closeWriteEnds(w, ew *os.File) {
	w.Close()
	if ew != w {
		ew.Close()
	}
}
