//go:build unix && !linux

package kernel

import "os/exec"

// watchLeader returns a channel closed once the started leader has exited,
// and reap, which returns its wait error. Without waitid(WNOWAIT) the leader
// is reaped as soon as it exits, so killGroup runs just after; the tiny window
// in which its group id could be reused is accepted on these systems.
func watchLeader(cmd *exec.Cmd) (exited <-chan struct{}, reap func() error) {
	ch := make(chan struct{})
	var waitErr error
	go func() {
		defer close(ch)
		waitErr = cmd.Wait()
	}()
	return ch, func() error {
		<-ch
		return waitErr
	}
}
