package sandbox

import (
	"fmt"
	"os"
	"sync/atomic"
)

// initCalled records that this program called Init, so it may serve as its
// own trampoline.
var initCalled atomic.Bool

// Init must be called first thing in main (or in an init function of
// package main) by every program that confines commands through itself,
// which is the default (see WithTrampoline). In the host process it only
// takes note that it was called, and returns at once.
//
// In a process started as the trampoline (argv[1] is the marker
// "toolgen-sandbox", followed by the policy and the command), it does not
// return: it applies the policy to itself with Landlock and replaces itself
// with the command (execve, same environment, same process and process
// group), or, when that fails, writes the reason on stderr and exits 126
// (127 when the command does not exist). The trampoline can only take
// rights away: running it by hand confines what it runs, nothing more.
//
// Package init functions run before Init; keep them free of side effects a
// trampoline should not have.
func Init() {
	initCalled.Store(true)
	if len(os.Args) < 2 || os.Args[1] != marker {
		return
	}
	os.Exit(trampoline(os.Args[2:]))
}

// trampoline confines this process and executes the command, and returns
// the exit code only when something failed.
func trampoline(args []string) int {
	p, strict, argv, err := parseTrampoline(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sandbox: %v\n", err)
		return 126
	}
	return confineExec(p, strict, argv)
}
