//go:build !linux

package kernel

import "os/exec"

// startLook starts cmd (the git config look); outside Linux there are no
// resource limits to put on it (see the package doc).
func startLook(cmd *exec.Cmd, _ Limits) error { return cmd.Start() }
