package kernel_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

// workspace returns a fresh directory holding notes.txt, for the examples.
func workspace() string {
	dir, err := os.MkdirTemp("", "kernel-example")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	return dir
}

// Run executes one argv in the workspace: no shell, the program resolved
// on the kernel's own PATH, confined by default (read-only, no network).
// A command that fails is a Result, not an error.
func ExampleKernel_Run() {
	ws := workspace()
	defer os.RemoveAll(ws)
	k, err := kernel.New(ws)
	if err != nil {
		log.Fatal(err)
	}
	res, err := k.Run(context.Background(), []string{"head", "-n", "2", "notes.txt"})
	if err != nil {
		log.Fatal(err) // the command could not start
	}
	fmt.Printf("exit %d, %q\n", res.ExitCode, res.Output)

	res, _ = k.Run(context.Background(), []string{"head", "missing.txt"})
	fmt.Println("exit", res.ExitCode)
	// Output:
	// exit 0, "one\ntwo\n"
	// exit 1
}

// No shell ever reads an argument: operators and variables are bytes.
func ExampleKernel_Run_noShell() {
	ws := workspace()
	defer os.RemoveAll(ws)
	k, err := kernel.New(ws)
	if err != nil {
		log.Fatal(err)
	}
	res, err := k.Run(context.Background(), []string{"echo", "$HOME;", "rm", "-rf", "/", "|", "$(id)"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Output)
	// Output:
	// $HOME; rm -rf / | $(id)
}

// A command that outlives the timeout is killed with its whole process
// group; the result says so in the text the model sees.
func ExampleWithTimeout() {
	ws := workspace()
	defer os.RemoveAll(ws)
	k, err := kernel.New(ws, kernel.WithTimeout(100*time.Millisecond))
	if err != nil {
		log.Fatal(err)
	}
	res, err := k.Run(context.Background(), []string{"sleep", "10"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.TimedOut, res.ExitCode, res.Duration < 5*time.Second)
	// Output:
	// true 124 true
}

// The output kept is bounded: the first and the last halves of the limit
// (here 8 bytes each: "1\n2\n3\n4\n" and "\n100000\n"), with the middle counted
// and dropped, however much the command prints.
func ExampleWithOutputLimit() {
	ws := workspace()
	defer os.RemoveAll(ws)
	k, err := kernel.New(ws, kernel.WithOutputLimit(16))
	if err != nil {
		log.Fatal(err)
	}
	res, err := k.Run(context.Background(), []string{"seq", "1", "100000"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Truncated, res.Omitted)
	fmt.Print(res.Output)
	// Output:
	// true 588879
	// 1
	// 2
	// 3
	// 4
	//
	// [... 588879 bytes omitted from the middle ...]
	//
	// 100000
}
