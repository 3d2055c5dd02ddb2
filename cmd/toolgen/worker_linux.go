package main

import "syscall"

// workerProcAttr makes toolgen-temporal-worker die with toolgen: a worker
// whose tools are gone must stop taking calls.
func workerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
