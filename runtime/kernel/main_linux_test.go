//go:build linux

package kernel

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// TestMain lets this test binary serve as the helper programs of the
// attack tests, chosen by argv[1] (the kernel scrubs the environment, so
// argv is the only channel):
//
//	helper-escape MARKER [wait]
//	                       start "helper-sleep MARKER" through an
//	                       intermediate process that calls setsid and exits
//	                       (a double fork out of the session), print
//	                       "escaped", then exit (or, with wait, sleep 60 s)
//	helper-sleep MARKER    sleep 60 s
//	helper-host MODE ARGV  run ARGV on a kernel in mode MODE (a workspace
//	                       in the temporary directory), print "running",
//	                       wait for ever: the test SIGKILLs this host
//	helper-reach PID       try to reach process PID (signal 0 by kill,
//	                       pidfd_open and pidfd_send_signal on its /proc
//	                       directory, ptrace seize, a read of its memory)
//	                       and print one line per try; then print the
//	                       sockets among its own descriptors
//	helper-listen NAME READY STOP
//	                       listen on the abstract socket @NAME, write the
//	                       file READY, wait for the file STOP
//	helper-dial NAME       connect to @NAME; print the outcome and the
//	                       network namespace
//	helper-nonroot MARKER  (run as an unprivileged user) print the
//	                       descendant control and the process cap in use,
//	                       then run an escape through setsid and a burst of
//	                       40 forks under a cap of 24, printing the results
func TestMain(m *testing.M) {
	if len(os.Args) > 2 {
		switch os.Args[1] {
		case "helper-escape":
			os.Exit(helperEscape(os.Args[2], len(os.Args) > 3 && os.Args[3] == "wait"))
		case "helper-intermediate":
			os.Exit(helperIntermediate(os.Args[2]))
		case "helper-sleep":
			time.Sleep(60 * time.Second)
			os.Exit(0)
		case "helper-host":
			os.Exit(helperHost(os.Args[2], os.Args[3:]))
		case "helper-host-in":
			os.Exit(helperHostIn(os.Args[2], os.Args[3:]))
		case "helper-reach":
			os.Exit(helperReach(os.Args[2]))
		case "helper-nonroot":
			os.Exit(helperNonRoot(os.Args[2]))
		case "helper-listen":
			if len(os.Args) > 4 {
				os.Exit(helperListen(os.Args[2], os.Args[3], os.Args[4]))
			}
		case "helper-dial":
			os.Exit(helperDial(os.Args[2]))
		}
	}
	os.Exit(m.Run())
}

func helperIntermediate(marker string) int {
	self, err := os.Executable()
	if err == nil {
		_, err = syscall.ForkExec(self, []string{self, "helper-sleep", marker}, &syscall.ProcAttr{
			Sys: &syscall.SysProcAttr{Setsid: true}})
	}
	if err != nil {
		fmt.Println(err)
		return 1
	}
	return 0
}

func helperEscape(marker string, wait bool) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Println(err)
		return 1
	}
	pid, err := syscall.ForkExec(self, []string{self, "helper-intermediate", marker}, &syscall.ProcAttr{
		Files: []uintptr{0, 1, 2}, Sys: &syscall.SysProcAttr{Setsid: true}})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	var ws syscall.WaitStatus
	syscall.Wait4(pid, &ws, 0, nil)
	fmt.Println("escaped", ws.ExitStatus())
	if wait {
		time.Sleep(60 * time.Second)
	}
	return 0
}

func helperHost(mode string, argv []string) int {
	var m sandbox.Mode
	if err := m.Set(mode); err != nil {
		fmt.Println(err)
		return 1
	}
	ws, err := os.MkdirTemp("", "kernel-host-*")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(ws)
	k, err := New(ws, WithConfinement(m), WithTimeout(time.Minute), WithMemoryLimit(0))
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("running")
	res, err := k.Run(context.Background(), argv)
	fmt.Println(res.Text(), err)
	return 0
}

func helperNonRoot(marker string) int {
	fmt.Println("descendants:", DescendantControl())
	fmt.Println("process cap:", ProcessLimitEnforcement())
	ws, err := os.MkdirTemp("", "kernel-nonroot-*")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(ws)
	k, err := New(ws, WithConfinement(sandbox.Off), WithTimeout(time.Minute), WithProcessLimit(24), WithMemoryLimit(0)) // far away: a loaded machine is slow
	if err != nil {
		fmt.Println(err)
		return 1
	}
	res, err := k.Run(context.Background(), []string{"sh", "-c", "setsid -f sleep " + marker + "; echo escape-ran"})
	fmt.Println("escape:", res.Text(), err)
	res, err = k.Run(context.Background(), []string{"bash", "-c", "for i in $(seq 40); do sleep 1 & done 2>&1; wait"})
	fmt.Println("forks:", res.Text(), err)
	if _, ok := sandbox.Available(); ok {
		sk, err := New(ws, WithConfinement(sandbox.Strict), WithMemoryLimit(0))
		if err != nil {
			fmt.Println(err)
			return 1
		}
		res, err = sk.Run(context.Background(), []string{"env", "sh", "-c", "echo pw''ned"})
		fmt.Println("strict:", res.Text(), err)
	}
	return 0
}
