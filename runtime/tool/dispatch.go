package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// CallByName is the model's tool call, for adapters to agent SDKs: it calls
// the tool of tools named name with args (empty or white space means {}) and
// returns the text the model sees and whether the call failed. A failed call
// is one whose tool returned an error — its text is then err.Error(), such as
// "error 614: …", which the model can act on — or one naming no tool of tools
// (the text then lists the tools there are). A command that ran is not a
// failure, whatever its exit status: the text says it. A tool that panics
// (the Tool contract rules it out) is a failure too, not a crash of the
// agent.
func CallByName(ctx context.Context, tools []Tool, name string, args json.RawMessage) (text string, failed bool) {
	var t Tool
	names := make([]string, 0, len(tools))
	for _, c := range tools {
		if c == nil {
			continue
		}
		names = append(names, c.Name())
		if c.Name() == name && t == nil {
			t = c
		}
	}
	if t == nil {
		return fmt.Sprintf("unknown tool %q: the tools are %s", name, strings.Join(names, ", ")), true
	}
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	return callSafely(ctx, t, args)
}

func callSafely(ctx context.Context, t Tool, args json.RawMessage) (text string, failed bool) {
	defer func() {
		if r := recover(); r != nil {
			text, failed = fmt.Sprintf("%s: internal error: the tool panicked: %v", t.Name(), r), true
		}
	}()
	out, err := t.Call(ctx, args)
	if err != nil {
		return err.Error(), true
	}
	return out, false
}
