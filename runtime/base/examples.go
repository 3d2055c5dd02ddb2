package base

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// CheckExamples checks the Spec's examples against the tool as it is: an
// example with Argv must be accepted and assemble exactly that argv; an
// example with Rejects must be rejected with a 614 whose message
// (err.Error()) contains that text. Nothing runs: the argv is assembled by
// Argv, so path examples are judged against the kernel's workspace.
//
// Each failing example is one 613 *tool.Error with Field "examples.N" (N
// counting from 0), which a descriptor's Positions can locate in its file. A
// nil result means every example holds. It is what `toolgen check` and the
// test toolgen generates beside a package's tools both run.
func (b *CommandToolBase) CheckExamples() []error {
	var errs []error
	for i, ex := range b.spec.Examples {
		if msg := b.checkExample(ex); msg != "" {
			errs = append(errs, tool.SpecErrorf(fmt.Sprintf("examples.%d", i), "example %d: %s", i, msg))
		}
	}
	return errs
}

// checkExample returns what is wrong with one example, or "".
func (b *CommandToolBase) checkExample(ex tool.Example) string {
	argv, err := b.Argv(json.RawMessage(ex.Args))
	var te *tool.Error
	rejected := errors.As(err, &te) && te.Code == tool.CodeValue
	switch {
	case err != nil && !rejected:
		return fmt.Sprintf("args %s: unexpected error: %v", ex.Args, err)
	case ex.Rejects != "" && !rejected:
		return fmt.Sprintf("args %s were accepted (argv %s), want a 614 containing %q", ex.Args, jsonText(argv), ex.Rejects)
	case ex.Rejects != "" && !strings.Contains(err.Error(), ex.Rejects):
		return fmt.Sprintf("args %s were rejected with %q, which does not contain %q", ex.Args, err.Error(), ex.Rejects)
	case ex.Rejects != "":
		return ""
	case rejected:
		return fmt.Sprintf("args %s were rejected (%v), want argv %s", ex.Args, err, jsonText(ex.Argv))
	case !slices.Equal(argv, ex.Argv):
		return fmt.Sprintf("args %s assemble argv %s, want %s", ex.Args, jsonText(argv), jsonText(ex.Argv))
	}
	return ""
}

// jsonText writes an argv as the JSON array a descriptor would hold.
func jsonText(argv []string) string {
	data, err := json.Marshal(argv)
	if err != nil {
		return fmt.Sprintf("%q", argv)
	}
	return string(data)
}
