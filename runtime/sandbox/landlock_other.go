//go:build !linux

package sandbox

import (
	"fmt"
	"os"
	"runtime"
)

// probe reports that there is no Landlock: it is Linux-only.
func probe() abiInfo {
	return abiInfo{reason: "Landlock is Linux-only, this is " + runtime.GOOS}
}

// confineExec cannot confine anything here, and says so: Confine never
// starts the trampoline on this system, so this runs only when the
// trampoline is started by hand.
func confineExec(_ Policy, _ bool, argv []string) int {
	fmt.Fprintf(os.Stderr, "sandbox: not running %s: %s\n", argv[0], probeABI().reason)
	return 126
}
