package kernel

import (
	"context"
	"os"
	"time"
)

// reading is the reading side of one started call: stdout (or stdout and
// stderr interleaved) and, kept apart, stderr, each drained into its own
// bounded buffer, and the progress reports made from both.
type reading struct {
	out, errOut      *boundedBuffer // errOut nil unless stderr is kept apart
	outFile, errFile *os.File
	outDone, errDone chan struct{}
	report           *reporter // nil without WithProgress
}

// readOutput starts draining c's output pipes and, under WithProgress,
// reporting the call's Progress (counted from start).
func (k *Kernel) readOutput(ctx context.Context, c *call, start time.Time) *reading {
	rd := &reading{out: newBoundedBuffer(k.limit), outFile: c.out, errFile: c.errOut}
	spec := progressOf(ctx)
	var m *meter
	if spec != nil {
		m = &meter{}
	}
	rd.outDone = drainInto(c.out, metered{rd.out, m})
	if c.errOut != nil {
		rd.errOut = newBoundedBuffer(k.limit)
		rd.errDone = drainInto(c.errOut, metered{rd.errOut, m})
	}
	rd.report = startReporter(spec, m, start)
	return rd
}

// drainInto drains r into w on a goroutine of its own, and returns a
// channel closed when it is done.
func drainInto(r *os.File, w metered) chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		drain(r, w)
	}()
	return done
}

// finish stops reading once the leader is reaped (see stopDrain), waits
// for the reporter, and puts the output in res.
func (rd *reading) finish(res *Result) {
	stopDrain(drainOf{rd.outFile, rd.outDone}, drainOf{rd.errFile, rd.errDone})
	rd.report.wait()
	res.setOutput(rd.out.clip())
	if rd.errOut != nil {
		res.SeparateStderr = true
		c := rd.errOut.clip()
		res.Stderr, res.StderrOmitted, res.StderrTruncated = c.String(), c.omitted, c.omitted > 0
	}
}

// drainOf is one pipe being drained and the channel closed when its drain
// is done; a zero drainOf stands for no pipe.
type drainOf struct {
	r    *os.File
	done chan struct{}
}

// stopDrain waits for each output pipe to reach EOF, but at most
// drainGrace in all: past that, a process outside the group still holds a
// pipe, and reading stops once what the pipe already holds is read.
func stopDrain(pipes ...drainOf) {
	t := time.NewTimer(drainGrace)
	defer t.Stop()
	for _, p := range pipes {
		if p.r == nil {
			continue
		}
		select {
		case <-p.done:
		case <-t.C:
			t.Reset(0) // expired: the pipes after this one end at once too
			if p.r.SetReadDeadline(time.Now()) != nil {
				p.r.Close() // not pollable: closing unblocks the read instead
			}
			<-p.done
		}
		p.r.Close()
	}
}
