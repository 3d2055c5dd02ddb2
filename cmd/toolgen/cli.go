package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/runtime/egress"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Exit codes: part of the CLI contract (toolgen -h states them).
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	exitSpec    = 3
	exitValue   = 4
)

// command is one subcommand. run gets the arguments after the command name
// and returns an exit code; it writes nothing to os.Stdout or os.Stderr
// directly.
type command struct {
	name    string
	summary string
	usage   string // the arguments after the name, for the usage line
	run     func(c *command, env *cmdEnv, args []string) int
}

// cmdEnv is what a command may use: its output streams, and options of
// the egress proxy (nil in the binary; a test's resolver, runEnv). When
// stdout (or stderr) is a terminal, it is an escape.Writer over it
// (terminalSafe), and rawStdout is the terminal itself, for call --raw.
type cmdEnv struct {
	stdout, stderr io.Writer
	rawStdout      io.Writer
	egress         []egress.Option
}

// commands lists every subcommand; each lives in its own file.
func commands() []*command {
	return []*command{
		generateCmd, checkCmd, initCmd, listCmd, schemaCmd, callCmd, explainCmd, serveCmd, workerCmd, trustCmd, versionCmd, auditCmd, cacheCmd,
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	env := &cmdEnv{stdout: terminalSafe(stdout), stderr: terminalSafe(stderr), rawStdout: stdout}
	code := runEnv(env, args)
	flush(env.stdout)
	flush(env.stderr)
	return code
}

// runEnv is run with its environment given (env.rawStdout may be nil:
// stdout then).
func runEnv(env *cmdEnv, args []string) int {
	if env.rawStdout == nil {
		env.rawStdout = env.stdout
	}
	stdout, stderr := env.stdout, env.stderr
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			c := lookup(args[1])
			if c == nil {
				unknownCommand(stderr, args[1])
				printUsage(stderr)
				return exitUsage
			}
			return c.run(c, env, []string{"-h"})
		}
		printUsage(stdout)
		return exitOK
	}
	c := lookup(args[0])
	if c == nil {
		unknownCommand(stderr, args[0])
		printUsage(stderr)
		return exitUsage
	}
	return c.run(c, env, args[1:])
}

// unknownCommand says that name is no command, and which one it may be.
func unknownCommand(w io.Writer, name string) {
	msg := fmt.Sprintf("toolgen: unknown command %q", name)
	if hint := suggestCommand(name); hint != "" {
		msg += "; " + hint
	}
	fmt.Fprintln(w, msg)
}

func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "toolgen: the command tools of LLM agents: check, generate, list, call and serve them.\n\n")
	fmt.Fprintf(w, "Usage:\n\n\ttoolgen <command> [flags] [arguments]\n\nCommands:\n\n")
	cs := commands()
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		first, _, _ := strings.Cut(c.summary, "\n")
		fmt.Fprintf(w, "\t%-9s %s\n", c.name, first)
	}
	fmt.Fprintf(w, "\nRun \"toolgen <command> -h\" for a command's flags.\n")
	fmt.Fprintf(w, "Exit codes: 0 success, 1 failure, 2 usage error, 3 invalid descriptors (613), 4 call rejected (614).\n")
}

// newFlagSet returns a flag set for c whose -h prints c's usage to stdout and
// whose errors go to stderr.
func (c *command) newFlagSet(env *cmdEnv) *flag.FlagSet {
	fs := flag.NewFlagSet("toolgen "+c.name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "usage: %s\n\n%s\n", c.usageLine(), c.summary)
		if hasFlags(fs) {
			fmt.Fprintf(out, "\nFlags:\n")
			printDefaults(fs)
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parse parses args, allowing flags after positional arguments (up to a
// "--"), and returns the positional arguments. done=true means the command
// should return code at once: -h printed the usage to stdout (0), or a flag
// error was printed to stderr (2).
func (c *command) parse(env *cmdEnv, fs *flag.FlagSet, args []string) (pos []string, code int, done bool) {
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	defer fs.SetOutput(env.stderr)
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			env.stdout.Write(buf.Bytes())
			return nil, exitOK, true
		case err != nil:
			// One line, not the whole help: the error (with advice for a
			// flag the command does not take), and where the help is.
			msg := flagError(fs, err)
			if hint := unknownFlagHint(c, fs, err); hint != "" {
				msg += "; " + hint
			}
			fmt.Fprintf(env.stderr, "toolgen %s: %s\nrun 'toolgen %s -h' for usage\n", c.name, msg, c.name)
			return nil, exitUsage, true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, false
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), 0, false
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagParseError matches the flag package's message for a value its own
// types (int, duration, bool, ...) cannot parse, which says only "parse
// error".
var flagParseError = regexp.MustCompile(`^(invalid (?:boolean )?value ".*" for (?:flag )?-([\w-]+)): parse error$`)

// flagError is err from FlagSet.Parse, with "parse error" replaced by what a
// valid value of the flag's type looks like.
func flagError(fs *flag.FlagSet, err error) string {
	m := flagParseError.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	f := fs.Lookup(m[2])
	if f == nil {
		return err.Error()
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return err.Error()
	}
	switch g.Get().(type) {
	case time.Duration:
		return m[1] + ": want a duration such as 30s, 2m or 1h30m"
	case int, int64, uint, uint64:
		return m[1] + ": want a whole number, such as 10"
	case float64:
		return m[1] + ": want a number, such as 1.5"
	case bool:
		return m[1] + ": want true or false"
	}
	return err.Error()
}

// usageErr prints a usage error for c and returns exitUsage.
func (c *command) usageErr(env *cmdEnv, format string, args ...any) int {
	fmt.Fprintf(env.stderr, "toolgen %s: %s\n", c.name, fmt.Sprintf(format, args...))
	fmt.Fprintf(env.stderr, "usage: %s\nRun \"toolgen %s -h\" for details.\n", c.usageLine(), c.name)
	return exitUsage
}

// usageLine is "toolgen NAME USAGE", without a trailing space when the
// command takes nothing (version).
func (c *command) usageLine() string {
	return strings.TrimSpace("toolgen " + c.name + " " + c.usage)
}

// The usage of the shared flags (toolFlags.register), in every usage line
// that has them; TestUsageLines checks every line against the flags.
const (
	toolFlagsUsage = "[--tools DIR] [--workspace DIR] [--allow-tools-in-workspace] [--exec-allow BIN,...] [--net-allow HOST:PORT,...] [--only NAME,...] [--no-builtins]"
	runFlagsUsage  = "[--timeout DUR] [--max-timeout DUR] [--confine MODE] [--output-limit SIZE] [--memory-limit SIZE] [--cpu-limit DUR] [--process-limit N] [--path DIRS]"
)

// exitFor maps an error to its exit code: 613 is 3, 614 is 4, a usage error 2, anything else 1.
func exitFor(err error) int {
	switch tool.CodeOf(err) {
	case tool.CodeSpec:
		return exitSpec
	case tool.CodeValue:
		return exitValue
	}
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitFailure
}

// usageError is an error caused by how toolgen was invoked.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// printProblems prints each 613 problem on its own line, like go vet.
func printProblems(w io.Writer, problems []error) {
	for _, p := range problems {
		for _, e := range tool.Flatten(p) {
			fmt.Fprintln(w, escape.Unprintable(strings.TrimRight(e.Error(), "\n"), "\t"))
		}
	}
}
