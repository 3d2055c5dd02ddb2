package base_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// countWord is a code-form tool's Spec: the template is fixed, the model
// fills two typed slots.
var countWord = tool.Spec{
	Name:        "count_word",
	Description: "Count the lines of a file that hold a word",
	Command:     "grep -c {word} {file}",
	Args: []tool.Arg{
		{Name: "word", Type: tool.String, Description: "The word to count", Required: true},
		{Name: "file", Type: tool.Path, Description: "The file, relative to the workspace", Default: "notes.txt", HasDefault: true},
	},
}

// newKernel returns a kernel on a fresh workspace holding notes.txt.
func newKernel() (*kernel.Kernel, func()) {
	dir, err := os.MkdirTemp("", "base-example")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("one\ntwo\none more\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	k, err := kernel.New(dir)
	if err != nil {
		log.Fatal(err)
	}
	return k, func() { os.RemoveAll(dir) }
}

// New checks the Spec with the validator (a 613 if it is not acceptable)
// and gives a tool.Tool: the model's JSON arguments in, checked slot by
// slot, one argv out, run by the kernel. A rejected value is a 614 whose
// text goes back to the model; nothing runs.
func ExampleNew() {
	k, cleanup := newKernel()
	defer cleanup()
	t, err := base.New(countWord, k)
	if err != nil {
		log.Fatal(err) // a 613
	}
	argv, _ := t.Argv(json.RawMessage(`{"word":"one"}`))
	fmt.Println(argv)
	res, err := t.Execute(context.Background(), json.RawMessage(`{"word":"one"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("exit %d: %s", res.ExitCode, res.Output)

	for _, args := range []string{`{"word":"-r"}`, `{"word":"one","file":"../secret"}`, `{"word":"a；b"}`, `{}`} {
		_, err := t.Call(context.Background(), json.RawMessage(args))
		fmt.Println(tool.CodeOf(err) == tool.CodeValue, err)
	}
	// Output:
	// [grep -c one notes.txt]
	// exit 0: 2
	// true error 614: slot "word": value "-r" begins with '-' and would be read as an option; a value that starts an argument may not begin with a dash (the template fixes the options)
	// true error 614: slot "file": path "../secret" climbs out of the workspace with ..; give a path inside it
	// true error 614: slot "word": character '；' (U+FF1B FULLWIDTH SEMICOLON) at byte offset 1 is not allowed: it is a lookalike of ";" (NFKC) and is rejected like it
	// true error 614: slot "word": required argument is missing (string: The word to count)
}

// A Spec the validator refuses never becomes a tool: a shell operator in
// the template, a denied binary, a slot that would choose an option.
func ExampleNew_refused() {
	k, cleanup := newKernel()
	defer cleanup()
	for _, command := range []string{"grep -c {word} {file} | head", "sh -c {word} {file}", "grep -{word} x {file}"} {
		spec := countWord
		spec.Command = command
		_, err := base.New(spec, k)
		fmt.Println(tool.CodeOf(err) == tool.CodeSpec)
	}
	// Output:
	// true
	// true
	// true
}

// countWordArgs is the typed form of count_word's slots: required slots
// are values, optional ones pointers (nil: not given, the default applies).
type countWordArgs struct {
	Word string  `json:"word"`
	File *string `json:"file,omitempty"`
}

// NewTyped gives Go code a typed Run over the same checks as the model's
// JSON call; generated tools are this type.
func ExampleNewTyped() {
	k, cleanup := newKernel()
	defer cleanup()
	t, err := base.NewTyped[countWordArgs](countWord, k)
	if err != nil {
		log.Fatal(err)
	}
	res, err := t.Run(context.Background(), countWordArgs{Word: "two"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("exit %d: %s", res.ExitCode, res.Output)
	_, err = t.Run(context.Background(), countWordArgs{Word: "two", File: new("/etc/passwd")})
	fmt.Println(err)
	// Output:
	// exit 0: 1
	// error 614: slot "file": path "/etc/passwd" is absolute; give a path relative to the workspace (for example . or src/main.go)
}
