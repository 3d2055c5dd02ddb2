package shebang

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParse: whatever the file's first bytes, the parse never
// panics, and what it returns is what the kernel would run: an interpreter
// without blanks, NUL or newline, an argument without NUL or newline and
// without blanks in front, both found in the first line; and writing them
// back gives the same parse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"#!/bin/sh\n", "#! /bin/sh -e\n", "#!/usr/bin/env python3\n", "#!/usr/bin/env -S python3 -u\n",
		"#!/usr/bin/env -S 'perl' -w\n", "#!\t/bin/dash\t\n", "#!/bin/sh\x00-c id\n", "#!/usr/bin/perl\r\n",
		"#!\n", "#!", "", "#!/" + strings.Repeat("a", 300), "#!/bin/sh " + strings.Repeat("x", 300),
		"\xef\xbb\xbf#!/bin/sh\n", "#!/usr/bin/python3.11\n", "#!/usr/bin/perl5.36-x86_64-linux-gnu\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		sb, ok := Parse(head)
		if !ok {
			if sb != (Line{}) {
				t.Fatalf("Parse(%q) = %#v with false", head, sb)
			}
			return
		}
		if !bytes.HasPrefix(head, []byte("#!")) {
			t.Fatalf("Parse(%q) accepted a file without #!", head)
		}
		if sb.Interpreter == "" || strings.ContainsAny(sb.Interpreter, " \t\x00\n") {
			t.Fatalf("Parse(%q): interpreter %q", head, sb.Interpreter)
		}
		// Trailing blanks survive only before a NUL, as in the kernel.
		if strings.ContainsAny(sb.Arg, "\x00\n") || strings.TrimLeft(sb.Arg, " \t") != sb.Arg {
			t.Fatalf("Parse(%q): argument %q", head, sb.Arg)
		}
		first := head[:min(len(head), Size)]
		if i := bytes.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		if !bytes.Contains(first, []byte(sb.Interpreter)) || !bytes.Contains(first, []byte(sb.Arg)) {
			t.Fatalf("Parse(%q) = %#v: not from the first line", head, sb)
		}
		line := "#!" + sb.Interpreter
		if sb.Arg != "" {
			line += " " + sb.Arg
		}
		if again, ok := Parse([]byte(line + "\x00\n")); !ok || again != sb {
			t.Fatalf("Parse(%q) = %#v, but its line %q parses as %#v", head, sb, line, again)
		}
	})
}

// FuzzEnvProgram: the program env would run is a word of the line, never
// an env option or an assignment unless after "--", and a line with shell
// quoting in a -S string is never followed.
func FuzzEnvProgram(f *testing.F) {
	for _, s := range []string{
		"python3", "-S python3 -u", "-Spython3", "--split-string=perl -w", "-S -i A=1 -u NAME node",
		"-S -- -weird", "-S 'python3'", "-S $X", "-i python3", "python3 -u", "", "A=1", "-S --", "-S -u",
		"-S -C", "-S\tpython3", "-S python3\v", "--split-string", "-S \\x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		prog, ok := EnvProgram(arg)
		if !ok {
			if prog != "" {
				t.Fatalf("EnvProgram(%q) = %q with false", arg, prog)
			}
			return
		}
		if prog == "" || strings.ContainsAny(prog, " \t\n\r\v\f") || !strings.Contains(arg, prog) {
			t.Fatalf("EnvProgram(%q) = %q", arg, prog)
		}
		if strings.HasPrefix(arg, "-S") && strings.ContainsAny(arg, "'\"\\$`") {
			t.Fatalf("EnvProgram(%q) = %q: followed a quoted -S string", arg, prog)
		}
		if strings.HasPrefix(prog, "-") && !strings.Contains(arg, "--") {
			t.Fatalf("EnvProgram(%q) = %q: an option taken for the program", arg, prog)
		}
	})
}
