// Command toolgen is the toolchain for the command tools of LLM agents: it
// checks *.tool.json descriptors, compiles them into typed Go tools, lists
// and calls tools, and serves them over MCP.
//
// Usage:
//
//	toolgen <command> [flags] [arguments]
//
// The commands are init, generate, check, list, schema, call, explain, serve,
// worker, trust, audit, cache and version; "toolgen <command> -h" describes each. Exit codes are part of the
// contract: 0 success, 2 usage error, 3 invalid descriptors (613), 4 a call
// rejected (614), 1 anything else.
//
// In an agent repository, a go:generate line compiles the package's
// descriptors:
//
//	//go:generate go run github.com/nanogpt/toolgen/cmd/toolgen generate
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
