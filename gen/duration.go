package gen

import (
	"fmt"
	"strconv"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// durationUnits are the units a generated duration is written in, the
// largest that divides it first: 90 * time.Minute, not 5400000000000.
var durationUnits = []struct {
	d    time.Duration
	name string
}{
	{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"},
	{time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}, {time.Nanosecond, "Nanosecond"},
}

// durationLit is d as Go source a reviewer reads at a glance: time.Hour,
// 90 * time.Minute, 1500 * time.Millisecond.
func durationLit(d time.Duration) *jen.Statement {
	for _, u := range durationUnits {
		if d%u.d != 0 {
			continue
		}
		if n := int64(d / u.d); n != 1 {
			// An untyped constant, not jen.Lit's int64(n).
			return jen.Id(strconv.FormatInt(n, 10)).Op("*").Qual("time", u.name)
		}
		return jen.Qual("time", u.name)
	}
	return jen.Qual("time", "Duration").Call(jen.Id(strconv.FormatInt(int64(d), 10))) // not reached: every duration is whole nanoseconds
}

// runFields are the Spec literal's fields about how the command runs, in
// the order of tool.Spec, those that are set: Timeout, Stderr.
func runFields(s tool.Spec) []jen.Code {
	var fields []jen.Code
	if s.Timeout != 0 {
		fields = append(fields, field("Timeout", durationLit(s.Timeout)))
	}
	switch s.Stderr {
	case tool.StderrSeparate:
		fields = append(fields, field("Stderr", jen.Qual(pkgTool, "StderrSeparate")))
	case tool.StderrMerged:
		fields = append(fields, field("Stderr", jen.Qual(pkgTool, "StderrMerged")))
	}
	return fields
}

// runDoc are the sentences of a tool's doc comment about how its command
// runs, those that differ from the default.
func runDoc(s tool.Spec) []string {
	var p []string
	if s.Timeout != 0 {
		p = append(p, fmt.Sprintf("A call may run for %s (at most the kernel's maximum timeout) before its process group is killed.", s.Timeout))
	}
	if s.Stderr.Separate() {
		p = append(p, "It keeps the command's stderr apart from its stdout (Result.Stderr).")
	}
	return p
}
