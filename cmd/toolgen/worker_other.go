//go:build !linux

package main

import "syscall"

// workerProcAttr: outside Linux, toolgen-temporal-worker notices toolgen's
// end when its stdin (the tools' session) closes.
func workerProcAttr() *syscall.SysProcAttr { return nil }
