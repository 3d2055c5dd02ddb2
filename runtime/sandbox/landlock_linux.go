//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Access rights, as Landlock names them.
const (
	rRead  = ll.AccessFSReadFile | ll.AccessFSReadDir
	rExec  = ll.AccessFSExecute | ll.AccessFSReadFile
	rWrite = ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSRemoveFile | ll.AccessFSRemoveDir |
		ll.AccessFSMakeReg | ll.AccessFSMakeDir | ll.AccessFSMakeSym | ll.AccessFSMakeFifo | ll.AccessFSMakeSock
	// rFile are the rights that apply to a file, as opposed to a directory.
	rFile = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate
)

// devNull may be read and written by every confined command.
const devNull = "/dev/null"

// probe asks the kernel for its Landlock ABI version.
func probe() abiInfo {
	v, err := ll.LandlockGetABIVersion()
	switch {
	case err == nil && v > 0:
		return abiInfo{version: v}
	case errors.Is(err, syscall.ENOSYS):
		return abiInfo{reason: "this Linux kernel was built without Landlock"}
	case errors.Is(err, syscall.EOPNOTSUPP):
		return abiInfo{reason: "Landlock is disabled: add landlock to the kernel's lsm= boot parameter"}
	case err != nil:
		return abiInfo{reason: "landlock_create_ruleset: " + err.Error()}
	}
	return abiInfo{reason: fmt.Sprintf("ABI version %d", v)}
}

// RestrictThread applies p to the calling OS thread, for good, as d (from
// Decide(p, mode)) says: nothing when d.Apply is false. It sets
// no_new_privs first, and drops every capability a command could gain
// from its execve as root (see dropPrivileges); it ends with the seccomp
// filter (see seccomp_filter_linux.go). Landlock restricts one
// thread at a time (no TSYNC here): the caller must have locked its goroutine to the thread with
// runtime.LockOSThread and must never unlock it, so that the restricted
// thread runs nothing else and dies with its goroutine (GoThread does this,
// avoiding the main thread, which the runtime never ends). Every process
// started from that thread afterwards inherits the restriction, which its
// programs cannot lift.
func RestrictThread(p Policy, d Decision) error {
	if !d.Apply {
		return nil
	}
	if err := p.check(); err != nil {
		return err
	}
	abi := probeABI().version
	rules, err := p.rules(abi)
	if err != nil {
		return err
	}
	fd, flags, err := p.config().NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("sandbox: landlock: %w", err)
	}
	if fd < 0 {
		return errors.New("sandbox: landlock: nothing to enforce on this kernel")
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	var keep []uintptr
	if p.ProxyPort != 0 {
		keep = ShimCapabilities
	}
	if err := dropPrivileges(keep...); err != nil {
		return err
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("sandbox: landlock_restrict_self: %w", err)
	}
	return restrictSyscalls(p.SpawnFlags)
}

// config is the set of rights the policy handles (denies unless a rule
// grants them): every right go-landlock's V11 knows, cut down to what the
// kernel supports (best effort; Decide checked the ABI where it must),
// minus the socket rights when the network is allowed.
func (p Policy) config() landlock.Config {
	c := landlock.Config{
		HandledAccessFS:  landlock.V11.HandledAccessFS,
		HandledAccessNet: landlock.V11.HandledAccessNet,
		Scoped:           landlock.V11.Scoped,
	}
	if p.Network {
		c.HandledAccessFS &^= ll.AccessFSResolveUnix
		c.HandledAccessNet = 0
		c.Scoped &^= ll.ScopeAbstractUnixSocket
	}
	return c.BestEffort()
}

// rules are the grants of p: its bundles, its reads, the workspace, HOME,
// /dev/null and the execute set.
func (p Policy) rules(abi int) ([]landlock.Rule, error) {
	var r ruleSet
	read := landlock.AccessFSSet(rRead)
	if p.RunsCode { // it may execute what it reads
		read |= rExec
	}
	for _, b := range p.Bundles() {
		r.optional(read, b.Dirs...)
		r.optional(ll.AccessFSReadFile, b.Files...)
	}
	r.optional(read, p.Read...)
	r.optional(rRead|rExec, p.Exec...)
	if p.Home != "" {
		r.optional(rRead, p.Home)
	}
	r.required(ll.AccessFSReadFile|ll.AccessFSWriteFile|ll.AccessFSTruncate, devNull)
	write := landlock.AccessFSSet(rWrite)
	if abi >= 2 { // before ABI 2, renames across directories are always denied
		write |= ll.AccessFSRefer
	}
	ws := read
	if p.Write {
		ws |= write
	}
	r.required(ws, p.Workspace)
	for _, d := range p.WriteDirs {
		r.required(read|write, d)
	}
	if p.ProxyPort != 0 && !p.Network && abi >= abiNetwork {
		// The shim binds it, the command connects to it (see kernel).
		r.rules = append(r.rules, landlock.ConnectTCP(p.ProxyPort), landlock.BindTCP(p.ProxyPort))
	}
	return r.rules, r.err
}

// ruleSet collects path rules, fitting each grant to the kind of file it
// names (directory rights on a file are an error to Landlock).
type ruleSet struct {
	rules []landlock.Rule
	err   error
}

// optional grants access to the paths that exist.
func (r *ruleSet) optional(access landlock.AccessFSSet, paths ...string) {
	for _, path := range paths {
		if a, ok := fit(access, path); ok {
			r.rules = append(r.rules, landlock.PathAccess(a, path).IgnoreIfMissing())
		}
	}
}

// required grants access to path, which must exist.
func (r *ruleSet) required(access landlock.AccessFSSet, path string) {
	a, ok := fit(access, path)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("sandbox: %s: cannot be granted: it does not exist or is not accessible", path)
		return
	}
	r.rules = append(r.rules, landlock.PathAccess(a, path))
}

// fit returns access cut down to the rights that apply to what path names
// (following symlinks, as Landlock does), and false when it names nothing.
func fit(access landlock.AccessFSSet, path string) (landlock.AccessFSSet, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	if !fi.IsDir() {
		access &= rFile
	}
	return access, access != 0
}
