//go:build !linux

package main

import "github.com/rogpeppe/go-internal/testscript"

// hostCmds are Linux-only (see the Linux file): the scripts that use them
// skip elsewhere.
var hostCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}

// hostPrograms are Linux-only too.
var hostPrograms = map[string]func(){}
