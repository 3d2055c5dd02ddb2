//go:build !linux

package kernel

import "os/exec"

// startLook starts the git config look that mk makes; outside Linux there
// are no resource limits to put on it (see the package doc).
func startLook(mk func() *exec.Cmd, _ Limits) (*exec.Cmd, error) {
	cmd := mk()
	return cmd, cmd.Start()
}
