package validate

import (
	"errors"
	"fmt"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// checkRunFields checks how a Spec asks to be run: its timeout is unset
// (0) or more than zero and at most tool.MaxTimeout, and its stderr mode
// is one of "merged" (or unset) and "separate". (A file that gives a
// timeout of zero or less, or no duration at all, is refused by the
// decoder.)
func checkRunFields(s *tool.Spec) error {
	var errs []error
	if s.Timeout < 0 || s.Timeout > tool.MaxTimeout {
		errs = append(errs, tool.SpecErrorf("timeout", "timeout %s is out of range: want more than zero and at most %s (a day); "+
			"leave it out for the run's timeout (--timeout, 30s by default)", fmtDuration(s.Timeout), fmtDuration(tool.MaxTimeout)))
	}
	if !s.Stderr.Valid() {
		errs = append(errs, tool.SpecErrorf("stderr", "stderr %q is not a mode: want %q (interleaved with stdout, the default) "+
			"or %q (stdout and stderr kept apart, each bounded by the output limit)", s.Stderr, tool.StderrMerged, tool.StderrSeparate))
	}
	return errors.Join(errs...)
}

// fmtDuration writes d as a descriptor would: "24h0m0s" as time writes it,
// quoted, so that a person can paste it back.
func fmtDuration(d fmt.Stringer) string { return fmt.Sprintf("%q", d.String()) }
