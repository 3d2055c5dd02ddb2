// Package guarantee is how a test of one of toolgen's guarantees (the
// confinement, descendant control, network isolation, the attacks they
// stop) gives up when the machine cannot run it: it skips, and where
// TOOLGEN_REQUIRE_GUARANTEES is set, as CI sets it, it fails instead, so a
// guarantee the machine should give but a change lost is a failure, never
// a silent skip.
//
// Every skip of a test in this module goes through this package, or is
// under testing.Short() (make test-all runs it), or is in a benchmark, or
// is named with its reason in the allowlist of this package's tests
// (TestNoBareSkips scans the tree).
//
// It is for tests only.
package guarantee

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Env is the environment variable that makes a guarantee test that cannot
// run fail instead of skip. Any non-empty value sets it.
const Env = "TOOLGEN_REQUIRE_GUARANTEES"

// Required reports whether Env is set: a guarantee test that cannot run
// must fail.
func Required() bool { return os.Getenv(Env) != "" }

// Missing ends t because this machine lacks what the test needs, said by
// format and args: t skips, or fails where Required.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	why := fmt.Sprintf(format, args...)
	if Required() {
		t.Fatalf("%s is set, but this guarantee test cannot run here: %s", Env, why)
	}
	t.Skip(why)
}

// Program returns the path of the program name on PATH, or ends t with
// Missing when it is not installed.
func Program(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "%s is not installed: %v", name, err)
	}
	return p
}

// AsRoot skips t unless it runs as root: the test needs what only root can
// do (give a file to another user, mount, start a process as another
// user). CI runs the tests as root (make test) and as an ordinary user
// (make test-user), so such a test is never skipped by both; it never fails
// for Required.
func AsRoot(t testing.TB, why string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: " + why)
	}
}

// AsUser skips t when it runs as root: the test checks what holds for an
// ordinary user only (root reads every file, keeps its namespaces). It
// never fails for Required; make test-user runs it.
func AsUser(t testing.TB, why string) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("as an ordinary user only: " + why)
	}
}
