package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nanogpt/toolgen/internal/escape"
)

// Summary is what Summarize finds in a log.
type Summary struct {
	// Calls is the number of records.
	Calls int `json:"calls"`
	// BadLines counts lines that are not records (line numbers in BadLineNos,
	// at most 10).
	BadLines   int   `json:"bad_lines"`
	BadLineNos []int `json:"bad_line_numbers,omitempty"`
	// Gaps counts places where seq jumps forward by more than one (a record
	// missing: lost or removed); a drop back to 1 is a new server, not a gap.
	Gaps int `json:"gaps"`
	// Events are the lines about the log itself (event "reopened": its
	// file was deleted, renamed or replaced while serving), in log order.
	Events []Record `json:"events,omitempty"`
	// Tools holds the calls per tool, by name.
	Tools map[string]*ToolStats `json:"tools"`
	// Refusals counts refused calls by rule: 613s and 614s, and the calls
	// that reached no tool (Auditor.Refused: "unknown tool", "shutting
	// down").
	Refusals map[string]int `json:"refusals"`
	// Slowest are the slowest calls, slowest first.
	Slowest []Record `json:"slowest"`
	// Killed are the calls whose process group was killed (timeout or
	// cancellation), in log order.
	Killed []Record `json:"killed"`
}

// ToolStats are the calls of one tool.
type ToolStats struct {
	Calls   int     `json:"calls"`
	Refused int     `json:"refused"`
	Failed  int     `json:"failed"`
	NonZero int     `json:"nonzero_exit"`
	TotalMS float64 `json:"total_ms"`
}

// maxLineBytes is the longest line Summarize parses; a longer one is a line
// that is not a record (no record is that long: a call's arguments are
// bounded far below it).
var maxLineBytes = 64 << 20

// Summarize reads a log (one record per line) and keeps the top slowest
// calls. A line longer than 64 MiB counts as a line that is not a record,
// and is skipped without being held in memory.
func Summarize(r io.Reader, top int) (*Summary, error) {
	s := &Summary{Tools: map[string]*ToolStats{}, Refusals: map[string]int{}}
	lr := lineReader{r: bufio.NewReaderSize(r, 64<<10), max: maxLineBytes}
	var last uint64
	for n := 1; ; n++ {
		line, tooLong, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s, fmt.Errorf("audit: reading the log: %w", err)
		}
		if !tooLong && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec Record
		bad := tooLong || json.Unmarshal(line, &rec) != nil || rec.Seq == 0
		if !bad && rec.Tool == "" && rec.Event != "" {
			last = rec.Seq
			s.Events = append(s.Events, rec)
			continue
		}
		if bad || rec.Tool == "" {
			s.BadLines++
			if len(s.BadLineNos) < 10 {
				s.BadLineNos = append(s.BadLineNos, n)
			}
			continue
		}
		if rec.Seq != 1 && last != 0 && rec.Seq > last+1 {
			s.Gaps++
		}
		last = rec.Seq
		s.Calls++
		ts := s.Tools[rec.Tool]
		if ts == nil {
			ts = &ToolStats{}
			s.Tools[rec.Tool] = ts
		}
		ts.Calls++
		ts.TotalMS += rec.DurationMS
		switch {
		case rec.Code == 613 || rec.Code == 614 || rec.Rule != "":
			ts.Refused++
			s.Refusals[rec.Rule]++
		case rec.Error != "":
			ts.Failed++
		case rec.Exit != nil && *rec.Exit != 0:
			ts.NonZero++
		}
		if rec.Killed {
			s.Killed = append(s.Killed, rec)
		}
		if top > 0 {
			rec.Args = slices.Clone(rec.Args)
			i, _ := slices.BinarySearchFunc(s.Slowest, rec.DurationMS, func(r Record, d float64) int {
				switch {
				case r.DurationMS > d:
					return -1
				case r.DurationMS < d:
					return 1
				}
				return 0
			})
			if i < top {
				s.Slowest = slices.Insert(s.Slowest, i, rec)
				if len(s.Slowest) > top {
					s.Slowest = s.Slowest[:top]
				}
			}
		}
	}
	return s, nil
}

// lineReader reads lines of at most max bytes; of a longer line it keeps
// nothing.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// next returns the next line without its newline, or tooLong (and no
// line) when it is longer than max; io.EOF after the last line.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max+1 { // +1: the newline
				tooLong, l.buf = true, l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && (tooLong || len(l.buf) > 0):
			return bytes.TrimSuffix(l.buf, []byte("\n")), tooLong, nil
		case err != nil:
			return nil, false, err
		}
		return bytes.TrimSuffix(l.buf, []byte("\n")), tooLong, nil
	}
}

// WriteText writes the summary for a person.
func (s *Summary) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "calls: %d", s.Calls)
	if s.BadLines > 0 {
		fmt.Fprintf(tw, "   lines that are not records: %d (line %s)", s.BadLines, joinInts(s.BadLineNos))
	}
	if s.Gaps > 0 {
		fmt.Fprintf(tw, "   sequence gaps (records missing): %d", s.Gaps)
	}
	for _, e := range s.Events {
		fmt.Fprintf(tw, "\nlog %s at %s: %s", cell(e.Event), cell(e.Time), cell(e.Detail))
	}
	fmt.Fprintf(tw, "\n\ncalls per tool:\nTOOL\tCALLS\tREFUSED\tFAILED\tEXIT≠0\tMEAN MS\n")
	names := make([]string, 0, len(s.Tools))
	for n := range s.Tools {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := s.Tools[b].Calls - s.Tools[a].Calls; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, n := range names {
		t := s.Tools[n]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\n", cell(n), t.Calls, t.Refused, t.Failed, t.NonZero, t.TotalMS/float64(t.Calls))
	}
	fmt.Fprintf(tw, "\nrefusals per rule:\n")
	if len(s.Refusals) == 0 {
		fmt.Fprintf(tw, "(none)\n")
	} else {
		fmt.Fprintf(tw, "RULE\tCOUNT\n")
		rules := make([]string, 0, len(s.Refusals))
		for r := range s.Refusals {
			rules = append(rules, r)
		}
		slices.SortFunc(rules, func(a, b string) int {
			if d := s.Refusals[b] - s.Refusals[a]; d != 0 {
				return d
			}
			return strings.Compare(a, b)
		})
		for _, r := range rules {
			fmt.Fprintf(tw, "%s\t%d\n", cell(r), s.Refusals[r])
		}
	}
	fmt.Fprintf(tw, "\nslowest calls:\n")
	if len(s.Slowest) == 0 {
		fmt.Fprintf(tw, "(none)\n")
	} else {
		fmt.Fprintf(tw, "MS\tTOOL\tTIME\tSESSION\tARGV\n")
		for _, r := range s.Slowest {
			fmt.Fprintf(tw, "%.2f\t%s\t%s\t%s\t%s\n", r.DurationMS, cell(r.Tool), cell(r.Time), cell(session(r)), argvText(r))
		}
	}
	fmt.Fprintf(tw, "\nprocesses killed:\n")
	if len(s.Killed) == 0 {
		fmt.Fprintf(tw, "(none)\n")
	} else {
		fmt.Fprintf(tw, "TIME\tTOOL\tWHY\tMS\tARGV\n")
		for _, r := range s.Killed {
			why := "cancelled"
			if r.TimedOut {
				why = "timed out"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%s\n", cell(r.Time), cell(r.Tool), why, r.DurationMS, argvText(r))
		}
	}
	return tw.Flush()
}

func session(r Record) string {
	if r.Session == "" {
		return r.Transport
	}
	return r.Transport + ":" + r.Session
}

func argvText(r Record) string {
	if len(r.Argv) == 0 {
		return "-"
	}
	q := make([]string, len(r.Argv))
	for i, a := range r.Argv {
		if a == "" || strings.ContainsAny(a, " \"'\\") || cell(a) != a {
			a = strconv.Quote(a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// cell makes a value of the log fit for one cell of the text summary: the
// log may be hostile (written where the agent can write, or handed over by
// someone), and its strings must neither drive the terminal, start a line of
// their own, nor split a column (a tab is tabwriter's cell separator, so it
// is escaped too).
func cell(s string) string { return escape.Unprintable(s, "") }

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
