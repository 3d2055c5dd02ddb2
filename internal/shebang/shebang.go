// Package shebang reads a script's #! line as the Linux kernel does, and
// the program a "#!/usr/bin/env ARG" line runs. Package programs judges the
// file a program path resolves to with it: a script is denied when its
// interpreter is.
package shebang

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"unicode"
)

// Size is how much of a file the Linux kernel reads to find a #!
// line (BINPRM_BUF_SIZE).
const Size = 256

// Line is a script's #! line as the Linux kernel reads it
// (fs/binfmt_script.c): the interpreter, and at most one argument, which is
// the whole rest of the line (spaces included) after the blanks that follow
// the interpreter.
type Line struct {
	// Interpreter is the program the kernel runs: a path, or a bare name
	// (which execve does not look up on PATH, so it fails unless it names a
	// file of the current directory).
	Interpreter string
	// Arg is the optional argument, "" when there is none.
	Arg string
}

// Parse parses the start of a file (its first 256 bytes are enough;
// more is ignored) as the kernel would: it must begin with "#!", the line
// ends at the first newline (or at 256 bytes), trailing spaces and tabs are
// dropped, the interpreter is the first run of characters other than space,
// tab and NUL, and the argument is what follows the blanks after it, up to a
// NUL. It reports false when head is no script the kernel would run (no
// "#!", no interpreter name, or a first line longer than 256 bytes whose
// interpreter name runs to its end).
func Parse(head []byte) (Line, bool) {
	if len(head) > Size {
		head = head[:Size]
	}
	if !bytes.HasPrefix(head, []byte("#!")) {
		return Line{}, false
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	} else if len(head) == Size {
		// The line goes on past what the kernel reads: it runs the script
		// only when the interpreter name ends inside the buffer.
		name := bytes.TrimLeft(line, " \t")
		if !bytes.ContainsAny(name, " \t\x00") {
			return Line{}, false
		}
	}
	line = bytes.TrimRight(line, " \t")
	line = bytes.TrimLeft(line, " \t")
	end := bytes.IndexAny(line, " \t\x00")
	if end == 0 || len(line) == 0 {
		return Line{}, false
	}
	if end < 0 {
		return Line{Interpreter: string(line)}, true
	}
	sb := Line{Interpreter: string(line[:end])}
	if line[end] == 0 {
		return sb, true
	}
	arg := bytes.TrimLeft(line[end:], " \t")
	if i := bytes.IndexByte(arg, 0); i >= 0 {
		arg = arg[:i]
	}
	sb.Arg = string(arg)
	return sb, true
}

// EnvProgram returns the program that "#!/usr/bin/env ARG" runs: env gets
// ARG as one argument, after which it runs the first word that is not one
// of its options or a NAME=VALUE assignment. With -S (--split-string) env
// splits ARG at blanks first, so "-S python3 -u" runs python3. It reports
// false when the program cannot be told for sure — quotes, backslashes or
// $ in a -S string, an option env would reject or one toolgen does not know,
// or no program at all — and such a line must be treated as denied.
func EnvProgram(arg string) (string, bool) {
	var words []string
	switch {
	case arg == "":
		return "", false
	case strings.HasPrefix(arg, "-S") || strings.HasPrefix(arg, "--split-string"):
		if strings.ContainsAny(arg, "'\"\\$`") {
			return "", false
		}
		rest := strings.TrimPrefix(arg, "-S")
		if strings.HasPrefix(arg, "--split-string") {
			rest = strings.TrimPrefix(strings.TrimPrefix(arg, "--split-string"), "=")
		}
		words = strings.Fields(rest)
	case strings.HasPrefix(arg, "-"):
		return "", false // one argument holding options and more: env's own parse decides
	default:
		words = []string{arg}
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-i" || w == "--ignore-environment" || w == "-0" || w == "--null" || w == "-" || w == "-v" || w == "--debug":
		case w == "-u" || w == "--unset" || w == "-C" || w == "--chdir":
			i++ // the option's value
		case strings.HasPrefix(w, "--unset=") || strings.HasPrefix(w, "--chdir="):
		case w == "--":
			if i+1 < len(words) {
				return words[i+1], true
			}
			return "", false
		case strings.HasPrefix(w, "-"):
			return "", false
		case strings.Contains(w, "="):
			// NAME=VALUE: an assignment
		case strings.IndexFunc(w, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
			return "", false // no program of that name: env fails
		default:
			return w, true
		}
	}
	return "", false
}

// Read reads the #! line of the regular file at path (its first Size
// bytes), as Parse does; false when the file cannot be read or is no
// script the kernel would run.
func Read(path string) (Line, bool) {
	f, err := os.Open(path)
	if err != nil {
		return Line{}, false
	}
	defer f.Close()
	buf := make([]byte, Size)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return Line{}, false
	}
	return Parse(buf[:n])
}
