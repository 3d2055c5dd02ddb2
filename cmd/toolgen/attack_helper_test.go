package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// attackMain is the program the guarantee scripts' tools run (the test
// binary, registered as "attack"): each subcommand is one thing a hostile
// command tries. A confined call may execute its own program, so the
// helper starts copies of itself where an attacker would start anything.
//
//	attack daemon MARKER    double fork + setsid: a sleeper, orphaned in a session of
//	                        its own, that should die with the call
//	attack forker N MARKER  start N sleepers at once, print how many started
//	attack loadlib FILE     map FILE as code (what a loader does with a plugin)
//	attack connect ADDR     open a TCP connection
//	attack udp ADDR         send a UDP datagram and wait for the echo
//	attack resolve NAME     look NAME up (DNS, through the system's resolver)
//	attack unix NAME        connect to the abstract Unix socket @NAME
//	attack sleeper MARKER   sleep 60 s (MARKER only marks it in ps)
//	attack readfile PATH    read PATH, print "ESCAPED: read" and its first line if it can
//	attack writefile PATH   create PATH, print "ESCAPED: wrote" if it can
//	attack writecache ROOT WS  create a file in the build cache toolgen keeps
//	                        under ROOT for the workspace WS (its name is a hash of
//	                        WS's path, which an attacker can compute), and in its
//	                        go-build directory; "ESCAPED" for each
func attackMain() {
	args := os.Args[1:]
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: attack daemon|forker|loadlib|connect|sleeper ARG...")
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	sleeper := func(marker string, setsid bool) error {
		p, err := os.StartProcess(self, []string{"attack", "sleeper", marker}, &os.ProcAttr{
			Files: []*os.File{nil, nil, nil},
			Sys:   &syscall.SysProcAttr{Setsid: setsid},
		})
		if err == nil {
			p.Release()
		}
		return err
	}
	switch args[0] {
	case "sleeper":
		time.Sleep(60 * time.Second)
	case "daemon": // the first fork; it waits for the second to leave
		p, err := os.StartProcess(self, []string{"attack", "daemon-fork", args[1]}, &os.ProcAttr{Files: []*os.File{nil, nil, nil}})
		if err == nil {
			_, err = p.Wait()
		}
		if err != nil {
			fmt.Println("daemon: not started:", err)
			os.Exit(1)
		}
		fmt.Println("daemon started")
	case "daemon-fork": // the second fork: a new session, then its parent exits
		if err := sleeper(args[1], true); err != nil {
			os.Exit(1)
		}
	case "forker":
		n, _ := strconv.Atoi(args[1])
		started := 0
		for range n {
			if sleeper(args[2], false) == nil {
				started++
			}
		}
		fmt.Printf("forker: started %d of %d\n", started, n)
	case "loadlib":
		f, err := os.Open(args[1])
		if err == nil {
			var b []byte
			b, err = syscall.Mmap(int(f.Fd()), 0, 4096, syscall.PROT_READ|syscall.PROT_EXEC, syscall.MAP_PRIVATE)
			if err == nil {
				syscall.Munmap(b)
			}
		}
		if err != nil {
			fmt.Println("loadlib: refused:", err)
			return
		}
		fmt.Println("loadlib: mapped as code")
	case "readfile":
		b, err := os.ReadFile(args[1])
		if err != nil {
			fmt.Println("readfile: refused:", err)
			return
		}
		first, _, _ := strings.Cut(string(b), "\n")
		fmt.Println("ESCAPED: read", args[1]+":", first)
	case "writefile":
		if err := os.WriteFile(args[1], []byte("planted by a runs_code attack\n"), 0o755); err != nil {
			fmt.Println("writefile: refused:", err)
			return
		}
		fmt.Println("ESCAPED: wrote", args[1])
	case "writecache":
		sum := sha256.Sum256([]byte(args[2]))
		cache := filepath.Join(args[1], hex.EncodeToString(sum[:8]))
		_, err := os.Stat(cache)
		fmt.Println("writecache: the other workspace's cache exists:", err == nil)
		for _, d := range []string{cache, filepath.Join(cache, "go-build"), filepath.Join(cache, "tmp")} {
			if err := os.WriteFile(filepath.Join(d, "planted"), []byte("x"), 0o644); err != nil {
				fmt.Println("writecache: refused:", err)
				continue
			}
			fmt.Println("ESCAPED: wrote into", d)
		}
	case "connect":
		c, err := net.DialTimeout("tcp", args[1], 2*time.Second)
		if err != nil {
			fmt.Println("connect: refused:", err)
			return
		}
		c.Close()
		fmt.Println("connect: connected")
	case "udp":
		c, err := net.Dial("udp", args[1])
		if err == nil {
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(2 * time.Second))
			if _, err = c.Write([]byte("ping")); err == nil {
				_, err = c.Read(make([]byte, 16))
			}
		}
		if err != nil {
			fmt.Println("udp: refused:", err)
			return
		}
		fmt.Println("udp: answered")
	case "resolve":
		addrs, err := net.LookupHost(args[1])
		if err != nil {
			fmt.Println("resolve: refused:", err)
			return
		}
		fmt.Println("resolve: resolved", addrs)
	case "unix":
		c, err := net.DialTimeout("unix", "@"+args[1], 2*time.Second)
		if err != nil {
			fmt.Println("unix: refused:", err)
			return
		}
		c.Close()
		fmt.Println("unix: connected")
	default:
		fmt.Fprintln(os.Stderr, "attack: unknown subcommand", args[0])
		os.Exit(2)
	}
}

// attackBin copies the attack helper (this test binary) to DIR/attack: a
// program of the workspace, as a repository's test or build output is.
func attackBin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: attackbin DIR")
	}
	self, err := os.Executable()
	ts.Check(err)
	b, err := os.ReadFile(self)
	ts.Check(err)
	ts.Check(os.WriteFile(filepath.Join(ts.MkAbs(args[0]), "attack"), b, 0o755))
}

// attackTools writes, into DIR, descriptors whose templates run the
// "attack" helper by its absolute path (the kernel's PATH is its own).
func attackTools(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: attacktools DIR")
	}
	bin := ""
	for _, d := range filepath.SplitList(ts.Getenv("PATH")) {
		if p := filepath.Join(d, "attack"); fileExists(p) {
			bin = p
			break
		}
	}
	if bin == "" {
		ts.Fatalf("no attack helper on PATH")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	tools := map[string]string{
		"daemon":  `"command": "` + bin + ` daemon {marker}", "arguments": {"marker": {"type": "string", "description": "marker", "required": true}}`,
		"forker":  `"command": "` + bin + ` forker {n} {marker}", "arguments": {"n": {"type": "integer", "description": "how many", "required": true}, "marker": {"type": "string", "description": "marker", "required": true}}`,
		"loadlib": `"command": "` + bin + ` loadlib {file}", "arguments": {"file": {"type": "path", "description": "library", "required": true}}`,
		"connect": `"command": "` + bin + ` connect {addr}", "arguments": {"addr": {"type": "string", "description": "host:port", "required": true}}`,
		"udp":     `"command": "` + bin + ` udp {addr}", "arguments": {"addr": {"type": "string", "description": "host:port", "required": true}}`,
		"resolve": `"command": "` + bin + ` resolve {name}", "arguments": {"name": {"type": "string", "description": "host name", "required": true}}`,
		"unix":    `"command": "` + bin + ` unix {name}", "arguments": {"name": {"type": "string", "description": "abstract socket name", "required": true}}`,
	}
	for name, body := range tools {
		desc := `{"name": "attack_` + name + `", "description": "attack: ` + name + `", ` + body + "}\n"
		ts.Check(os.WriteFile(filepath.Join(dir, name+".tool.json"), []byte(desc), 0o644))
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// goneOrFail fails the script when a process whose command line holds
// MARKER is still alive a moment after the call returned ("! gone": when
// one is).
func goneOrFail(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: gone MARKER")
	}
	var left []int
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left = pidsWith(args[0])
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, pid := range left {
		_ = syscall.Kill(pid, syscall.SIGKILL) // leave nothing behind either way
	}
	switch {
	case neg && len(left) == 0:
		ts.Fatalf("no process with %q outlived the call", args[0])
	case !neg && len(left) > 0:
		ts.Fatalf("processes %v with %q outlived the call", left, args[0])
	}
}

// pidsWith lists the processes whose command line holds marker.
func pidsWith(marker string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), marker) {
			out = append(out, pid)
		}
	}
	return out
}

// listenUDP starts a UDP echo server on 127.0.0.1 for the rest of the
// script and sets $UDPADDR to its address.
func listenUDP(ts *testscript.TestScript, neg bool, args []string) {
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	ts.Check(err)
	ts.Defer(func() { c.Close() })
	go func() {
		buf := make([]byte, 64)
		for {
			n, from, err := c.ReadFrom(buf)
			if err != nil {
				return
			}
			_, _ = c.WriteTo(buf[:n], from)
		}
	}()
	ts.Setenv("UDPADDR", c.LocalAddr().String())
}

// listenAbstract listens on the abstract Unix socket @NAME for the rest of
// the script.
func listenAbstract(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: listenabstract NAME")
	}
	ln, err := net.Listen("unix", "@"+args[0])
	ts.Check(err)
	ts.Defer(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
}

// listen starts a TCP listener on 127.0.0.1 that accepts and closes
// connections for the rest of the script, and sets $ADDR to its address.
func listen(ts *testscript.TestScript, neg bool, args []string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	ts.Defer(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ts.Setenv("ADDR", ln.Addr().String())
}
