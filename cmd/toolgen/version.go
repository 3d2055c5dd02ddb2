package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
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

// moduleVersion is the version of the module toolgen was built from: a tag
// such as v0.3.1 after go install …@v0.3.1, a pseudo-version for a commit,
// "(devel)" when built inside a checkout.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
