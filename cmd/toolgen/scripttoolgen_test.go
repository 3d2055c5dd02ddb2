package main

import (
	"os"
	"path/filepath"
	"testing"
)

// scriptToolgenEnv names a toolgen binary (its file name toolgen) for the
// scripts to run instead of one built here: .ci/unprivileged builds it as
// root, because the ordinary user it runs the tests as has no build cache.
const scriptToolgenEnv = "TOOLGEN_TEST_TOOLGEN"

// scriptToolgenDir returns the directory holding the toolgen the scripts
// run, to put first on their PATH, or "" for the test binary itself
// (testscript's toolgen command, run under the test's own flags, -race
// included).
//
// Under -short the scripts run a build of this package without the race
// detector, built once per run (toolgenBinary): each toolgen a script runs,
// and the spawner process it starts, starts and runs several times faster,
// and it is the binary users run. The CLI's code still runs under -race in
// this package's in-process tests, and the full run (make test-all) runs
// the scripts with the test binary. Where the build fails the scripts run
// the test binary, and the log says why.
func scriptToolgenDir(t *testing.T) string {
	if bin := os.Getenv(scriptToolgenEnv); bin != "" {
		if filepath.Base(bin) != "toolgen" {
			t.Fatalf("%s=%s: the file must be named toolgen", scriptToolgenEnv, bin)
		}
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("%s: %v", scriptToolgenEnv, err)
		}
		return filepath.Dir(bin)
	}
	if !testing.Short() {
		return ""
	}
	bin, err := toolgenBinary()
	if err != nil {
		t.Logf("the scripts run the test binary as toolgen: building toolgen failed: %v", err)
		return ""
	}
	return filepath.Dir(bin)
}

// cleanupM runs the tests, then removes the toolgen binary built for them.
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	code := c.m.Run()
	if builtToolgenDir != "" {
		os.RemoveAll(builtToolgenDir)
	}
	return code
}
