package main

import (
	"fmt"
	"runtime"

	"github.com/nanogpt/toolgen/runtime/mcp"
)

var versionCmd = &command{
	name:    "version",
	summary: "Print toolgen's module version (from the build information) and the Go version it was built with.",
	usage:   "",
	run:     runVersion,
}

func runVersion(c *command, env *cmdEnv, args []string) int {
	fs := c.newFlagSet(env)
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return c.usageErr(env, "takes no arguments")
	}
	fmt.Fprintf(env.stdout, "toolgen %s %s %s/%s\n", moduleVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return exitOK
}

// moduleVersion is toolgen's module version (one implementation, in package
// mcp, which also puts it in the server's serverInfo).
var moduleVersion = mcp.ModuleVersion
