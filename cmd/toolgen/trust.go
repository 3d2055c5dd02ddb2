package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nanogpt/toolgen/runtime/trust"
)

var trustCmd = &command{
	name: "trust",
	summary: "Trust a tools directory as it is now (default ./tools), so that it loads from inside the workspace.\n\n" +
		"Records the digest of each of its descriptors in the user's trust store (" + trustStoreHint + ",\n" +
		"mode 0600), outside every workspace.\n\n" +
		"A tools directory inside the workspace then loads without --allow-tools-in-workspace while every\n" +
		"descriptor is as recorded; a file added or changed since is refused (error 613) until you review it\n" +
		"and run toolgen trust again. serve --watch applies the same rule on reload. --list prints the trusted\n" +
		"directories; --revoke DIR forgets one.",
	usage: "[--list | --revoke] [DIR]",
	run:   runTrust,
}

// trustStoreHint names the store's place for the help text.
const trustStoreHint = "$XDG_CONFIG_HOME/toolgen/trust.json, by default ~/.config/toolgen/trust.json"

func runTrust(c *command, env *cmdEnv, args []string) int {
	fs := c.newFlagSet(env)
	list := fs.Bool("list", false, "print the trusted directories, one per line with their number of descriptors and the time they were trusted")
	revoke := fs.Bool("revoke", false, "forget DIR: its descriptors load only with --allow-tools-in-workspace again")
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	switch {
	case *list && *revoke:
		return c.usageErr(env, "--list and --revoke exclude each other")
	case *list && len(pos) > 0:
		return c.usageErr(env, "--list takes no directory")
	case len(pos) > 1:
		return c.usageErr(env, "want at most one directory, got %d arguments", len(pos))
	}
	path, err := trust.DefaultPath()
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen trust: %v\n", err)
		return exitFailure
	}
	store := trust.Open(path)
	dir := defaultToolsDir
	if len(pos) == 1 {
		dir = pos[0]
	}
	switch {
	case *list:
		return trustList(env, store)
	case *revoke:
		return trustRevoke(env, store, dir)
	}
	return trustDir(env, store, dir)
}

func trustList(env *cmdEnv, store *trust.Store) int {
	recs, err := store.List()
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen trust: %v\n", err)
		return exitFailure
	}
	for _, r := range recs {
		fmt.Fprintf(env.stdout, "%s\t%d descriptors\ttrusted %s\n", r.Dir, len(r.Files), r.Trusted.Format("2006-01-02 15:04:05Z"))
	}
	return exitOK
}

func trustRevoke(env *cmdEnv, store *trust.Store, dir string) int {
	found, err := store.Revoke(dir)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen trust: %v\n", err)
		return exitFailure
	}
	if !found {
		fmt.Fprintf(env.stderr, "toolgen trust: %s is not trusted (toolgen trust --list prints the trusted directories)\n", dir)
		return exitFailure
	}
	fmt.Fprintf(env.stdout, "revoked %s\n", dir)
	return exitOK
}

func trustDir(env *cmdEnv, store *trust.Store, dir string) int {
	rec, err := store.Trust(dir)
	if err != nil {
		fmt.Fprintf(env.stderr, "toolgen trust: %v\n", err)
		return exitFailure
	}
	names := make([]string, 0, len(rec.Files))
	for name := range rec.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	fmt.Fprintf(env.stdout, "trusted %s (%d descriptors", rec.Dir, len(names))
	if len(names) > 0 {
		fmt.Fprintf(env.stdout, ": %s", strings.Join(names, ", "))
	}
	fmt.Fprintf(env.stdout, ") in %s\n", store.Path())
	return exitOK
}
