package main

import (
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/nanogpt/toolgen/internal/escape"
)

// terminalSafe returns w, or an escape.Writer over it when w is a terminal:
// what toolgen prints there — a tool's output (call), descriptor text (list,
// schema, explain, check), a log's fields (audit) — comes from the
// repository, a model or a log, and must not drive the terminal (clear it,
// fake coloured output, set the clipboard with OSC 52, rewrite a line with
// CR or backspace). Newlines and tabs stay; JSON stays the same JSON. A pipe
// or a file gets the bytes as they are.
func terminalSafe(w io.Writer) io.Writer {
	if !isTerminal(w) {
		return w
	}
	return escape.NewWriter(w)
}

// isTerminal reports whether w is a file open on a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || f == nil {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// flush writes out what an escape.Writer holds back (a rune split by the
// end of the last write).
func flush(w io.Writer) {
	if ew, ok := w.(*escape.Writer); ok {
		ew.Flush()
	}
}
