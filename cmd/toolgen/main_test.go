package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar (cmp stdout/stderr)")

func TestMain(m *testing.M) {
	progs := map[string]func(){
		"toolgen": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
		"attack":  attackMain,
		// toolgen-ticker N prints "tick I" on stdout and "warn I" on
		// stderr N times, 250ms apart: a command that runs long and
		// prints as it goes (serve_progress_e2e_test.go).
		"toolgen-ticker": tickerMain,
		// toolgen-exit N ARGS... runs toolgen ARGS and succeeds only when it
		// exits with code N, so scripts pin the exit codes of the CLI contract.
		"toolgen-exit": func() {
			want, err := strconv.Atoi(os.Args[1])
			if err != nil {
				fmt.Fprintln(os.Stderr, "toolgen-exit: first argument must be the expected exit code")
				os.Exit(100)
			}
			if got := run(os.Args[2:], os.Stdout, os.Stderr); got != want {
				fmt.Fprintf(os.Stderr, "toolgen-exit: exit code %d, want %d\n", got, want)
				os.Exit(100)
			}
			os.Exit(0)
		},
	}
	for name, p := range hostPrograms {
		progs[name] = p
	}
	testscript.Main(cleanupM{m}, progs)
}

// TestScript runs the CLI scripts in testdata/script, named by category
// (call_*, check_*, generate_*, list_*, schema_*, serve_*, ...). Each script
// starts in a fresh $WORK directory; $REPO is the module root.
func TestScript(t *testing.T) {
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"attacktools":    attackTools,
		"attackbin":      attackBin,
		"gone":           goneOrFail,
		"listen":         listen,
		"listenudp":      listenUDP,
		"listenabstract": listenAbstract,
		// envfrom VAR FILE RE sets $VAR to the first submatch of the
		// regular expression RE in FILE (a head --verify printed).
		"envfrom": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 3 {
				ts.Fatalf("usage: envfrom VAR FILE RE")
			}
			m := regexp.MustCompile(args[2]).FindStringSubmatch(ts.ReadFile(args[1]))
			if len(m) < 2 {
				ts.Fatalf("envfrom: %s holds no match of %s", args[1], args[2])
			}
			ts.Setenv(args[0], m[1])
		},
		// mkline FILE N writes one line of N bytes of 'a' to FILE.
		"mkline": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: mkline FILE N")
			}
			n, err := strconv.Atoi(args[1])
			ts.Check(err)
			ts.Check(os.WriteFile(ts.MkAbs(args[0]), bytes.Repeat([]byte{'a'}, n), 0o644))
		},
	}
	for name, c := range hostCmds {
		cmds[name] = c
	}
	toolgenDir := scriptToolgenDir(t)
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Cmds:          cmds,
		// [egress]: the kernel runs a command with network hosts in a
		// network namespace whose only route out is the egress proxy.
		// [root]: the tests run as root. [absent:PATH]: nothing is at
		// PATH.
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "egress":
				return kernel.EgressEnforced(), nil
			case "root":
				return os.Geteuid() == 0, nil
			}
			if p, ok := strings.CutPrefix(cond, "absent:"); ok {
				_, err := os.Lstat(p)
				return err != nil, nil
			}
			// [tool:NAME]: NAME is on PATH. A script that skips without it
			// (a C compiler, binutils) fails instead where
			// TOOLGEN_REQUIRE_GUARANTEES is set, as in CI.
			if name, ok := strings.CutPrefix(cond, "tool:"); ok {
				if _, err := exec.LookPath(name); err == nil {
					return true, nil
				}
				if guarantee.Required() {
					return false, fmt.Errorf("%s is set, but %s, which an attack test needs, is not installed", guarantee.Env, name)
				}
				return false, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(e *testscript.Env) error {
			e.Setenv("REPO", repo+"/../..")
			// A marker for the processes a script starts, unique to this
			// run: concurrent runs (two checkouts on one machine) must not
			// see, or kill, each other's.
			e.Setenv("MARK", fmt.Sprintf("tg%d-%d", os.Getpid(), rand.Int64()))
			e.Setenv("HOME", e.WorkDir)
			// The trust store (toolgen trust) beside $WORK, outside the
			// workspace as a user's config directory is, one per script.
			e.Setenv("XDG_CONFIG_HOME", e.WorkDir+".config")
			e.Setenv("GOCACHE", os.Getenv("GOCACHE"))
			// Under -race every toolgen the scripts run would sleep a second
			// on exit (the race runtime's atexit_sleep_ms default), most of
			// this package's time under go test -race.
			e.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
			if toolgenDir != "" {
				e.Setenv("PATH", toolgenDir+string(os.PathListSeparator)+e.Getenv("PATH"))
			}
			return nil
		},
	})
}
