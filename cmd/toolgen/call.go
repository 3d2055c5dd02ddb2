package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

var callCmd = &command{
	name:    "call",
	summary: "Call one tool with JSON arguments and print exactly the text the model would see.",
	usage:   "[--tools DIR] [--workspace DIR] [--exec-allow BIN,...] [--timeout DUR] NAME 'JSON_ARGS'",
	run:     runCall,
}

func runCall(c *command, env *cmdEnv, args []string) int {
	var f toolFlags
	fs := c.newFlagSet(env)
	f.register(fs, true)
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) < 1 || len(pos) > 2 {
		return c.usageErr(env, "want a tool name and one JSON argument object")
	}
	name, raw := pos[0], "{}"
	if len(pos) == 2 {
		raw = pos[1]
	}
	if !json.Valid([]byte(raw)) {
		return c.usageErr(env, "JSON_ARGS is not valid JSON: %s", raw)
	}
	p, code := assemble(env, &f)
	if p == nil {
		return code
	}
	t, ok := p.Registry.Get(name)
	if !ok {
		return unknownTool(env, c, p, name)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	text, err := t.Call(ctx, json.RawMessage(raw))
	if err != nil {
		if text != "" {
			fmt.Fprintln(env.stdout, text)
		}
		fmt.Fprintln(env.stdout, err.Error())
		return exitFor(err)
	}
	fmt.Fprintln(env.stdout, strings.TrimRight(text, "\n"))
	return exitOK
}
