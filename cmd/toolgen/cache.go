package main

import (
	"fmt"
	"os"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

var cacheCmd = &command{
	name: "cache",
	summary: "Show or remove the build caches of tools that run code (\"runs_code\").\n\n" +
		"toolgen cache dir prints the directory that holds them (toolgen/build in the user's cache directory: " +
		"$XDG_CACHE_HOME or ~/.cache), one subdirectory per workspace. toolgen cache clean removes it and " +
		"everything in it: the next call of each such tool starts cold.",
	usage: "dir|clean",
	run:   runCache,
}

func runCache(c *command, env *cmdEnv, args []string) int {
	fs := c.newFlagSet(env)
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) != 1 || pos[0] != "dir" && pos[0] != "clean" {
		return c.usageErr(env, "want one of dir, clean")
	}
	root, err := kernel.BuildCacheRoot()
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen cache: %v\n", err)
		return exitFailure
	}
	if pos[0] == "dir" {
		fmt.Fprintln(env.stdout, root)
		return exitOK
	}
	if _, err := os.Lstat(root); err != nil {
		fmt.Fprintf(env.stdout, "no build caches (%s does not exist)\n", root)
		return exitOK
	}
	if err := kernel.RemoveBuildCaches(root); err != nil {
		fmt.Fprintf(env.stderr, "toolgen cache: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(env.stdout, "removed %s\n", root)
	return exitOK
}
