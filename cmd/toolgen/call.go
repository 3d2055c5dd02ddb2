package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var callCmd = &command{
	name: "call",
	summary: "Call one tool with JSON arguments and print exactly the text the model would see.\n\n" +
		"JSON_ARGS is one JSON object of the tool's arguments, in single quotes so that the shell keeps its\n" +
		"double quotes ('{\"pattern\":\"TODO\"}'); without it, {}. The text goes to stdout: exit: N and output: ...\n" +
		"when the command ran (exit 0, whatever N is; 1 if it could not start), or error 614: ... when a value\n" +
		"was rejected and nothing ran (exit 4; invalid JSON included). An unknown tool is exit 2 (3 when a\n" +
		"descriptor file is broken).\n\n" +
		"On a terminal the output is made safe to show: control characters and escape sequences (ESC, CSI,\n" +
		"OSC, C1 controls, BEL, backspace, CR), bidi and other invisible characters are written as \\uXXXX,\n" +
		"bytes that are not UTF-8 as \\xNN; newlines and tabs stay. --raw writes the bytes as they are.",
	usage: toolFlagsUsage + " " + runFlagsUsage + " [--raw] NAME 'JSON_ARGS'",
	run:   runCall,
}

// callTarget is a tool resolved from NAME 'JSON_ARGS', with its preset.
type callTarget struct {
	preset *preset.Preset
	entry  tool.Entry
	args   json.RawMessage
}

// resolveCall parses the flags and NAME 'JSON_ARGS' shared by call and
// explain (JSON_ARGS defaults to {}), assembles the preset and finds the tool.
// With prepare (call, which will run the tool), it first starts what the
// first spawn would otherwise wait for (kernel.Prepare).
// done=true means the command should return code at once. JSON_ARGS is the
// model's, so it is not checked here: the tool rejects bad JSON with a 614
// the model can act on (exit 4), as it does over MCP.
func resolveCall(c *command, env *cmdEnv, args []string, prepare bool, extra ...func(*flag.FlagSet)) (target callTarget, code int, done bool) {
	var f toolFlags
	fs := c.newFlagSet(env)
	f.register(fs, true)
	for _, reg := range extra {
		reg(fs)
	}
	pos, code, done := c.parse(env, fs, args)
	if done {
		return target, code, true
	}
	// One call from a process this small: forking it here costs less
	// than starting a spawner process (explain says so for this path).
	kernel.ForkFromThisProcess()
	if err := f.checkRunFlags(); err != nil {
		return target, c.usageErr(env, "%v", err), true
	}
	if prepare { // the spawner's thread joins its pids cgroup while the preset is assembled
		var opts []kernel.Option
		if f.processLimit.set {
			opts = append(opts, kernel.WithProcessLimit(f.processLimit.n))
		}
		kernel.Prepare(opts...)
		kernel.PrepareWorkspace(f.workspace) // an ordinary user's noexec holder
	}
	if len(pos) < 1 || len(pos) > 2 {
		return target, c.usageErr(env, "want a tool name and one JSON argument object"), true
	}
	name, raw := pos[0], "{}"
	if len(pos) == 2 {
		raw = pos[1]
	}
	p, code := assemble(c, env, &f)
	if p == nil {
		return target, code, true
	}
	entry, ok := p.Registry.Lookup(name)
	if !ok {
		return target, unknownTool(env, c, p, f.toolsDir(), name), true
	}
	return callTarget{preset: p, entry: entry, args: json.RawMessage(raw)}, 0, false
}

func runCall(c *command, env *cmdEnv, args []string) int {
	var raw bool
	target, code, done := resolveCall(c, env, args, true, func(fs *flag.FlagSet) {
		fs.BoolVar(&raw, "raw", false, "write the tool's output byte for byte, even to a terminal (by default a terminal gets control and escape sequences escaped)")
	})
	if done {
		return code
	}
	if raw {
		rawEnv := *env
		rawEnv.stdout = env.rawStdout
		env = &rawEnv
	}
	t, jargs := target.entry.Tool, target.args
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	text, err := t.Call(ctx, jargs)
	if err != nil {
		if text != "" {
			fmt.Fprintln(env.stdout, text)
		}
		fmt.Fprintln(env.stdout, err.Error())
		if hint := jsonArgsHint(c, target.entry.Tool, jargs); hint != "" {
			fmt.Fprintln(env.stderr, hint)
		}
		return exitFor(err)
	}
	fmt.Fprintln(env.stdout, strings.TrimRight(text, "\n"))
	return exitOK
}
