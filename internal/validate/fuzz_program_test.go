package validate

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// FuzzParseShebang: whatever the file's first bytes, the parse never
// panics, and what it returns is what the kernel would run: an interpreter
// without blanks, NUL or newline, an argument without NUL or newline and
// without blanks in front, both found in the first line; and writing them
// back gives the same parse.
func FuzzParseShebang(f *testing.F) {
	for _, s := range []string{
		"#!/bin/sh\n", "#! /bin/sh -e\n", "#!/usr/bin/env python3\n", "#!/usr/bin/env -S python3 -u\n",
		"#!/usr/bin/env -S 'perl' -w\n", "#!\t/bin/dash\t\n", "#!/bin/sh\x00-c id\n", "#!/usr/bin/perl\r\n",
		"#!\n", "#!", "", "#!/" + strings.Repeat("a", 300), "#!/bin/sh " + strings.Repeat("x", 300),
		"\xef\xbb\xbf#!/bin/sh\n", "#!/usr/bin/python3.11\n", "#!/usr/bin/perl5.36-x86_64-linux-gnu\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		sb, ok := ParseShebang(head)
		if !ok {
			if sb != (Shebang{}) {
				t.Fatalf("ParseShebang(%q) = %#v with false", head, sb)
			}
			return
		}
		if !bytes.HasPrefix(head, []byte("#!")) {
			t.Fatalf("ParseShebang(%q) accepted a file without #!", head)
		}
		if sb.Interpreter == "" || strings.ContainsAny(sb.Interpreter, " \t\x00\n") {
			t.Fatalf("ParseShebang(%q): interpreter %q", head, sb.Interpreter)
		}
		// Trailing blanks survive only before a NUL, as in the kernel.
		if strings.ContainsAny(sb.Arg, "\x00\n") || strings.TrimLeft(sb.Arg, " \t") != sb.Arg {
			t.Fatalf("ParseShebang(%q): argument %q", head, sb.Arg)
		}
		first := head[:min(len(head), shebangSize)]
		if i := bytes.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		if !bytes.Contains(first, []byte(sb.Interpreter)) || !bytes.Contains(first, []byte(sb.Arg)) {
			t.Fatalf("ParseShebang(%q) = %#v: not from the first line", head, sb)
		}
		line := "#!" + sb.Interpreter
		if sb.Arg != "" {
			line += " " + sb.Arg
		}
		if again, ok := ParseShebang([]byte(line + "\x00\n")); !ok || again != sb {
			t.Fatalf("ParseShebang(%q) = %#v, but its line %q parses as %#v", head, sb, line, again)
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

// FuzzProgramName: the program name is made of whole '-' parts of the
// binary's name, and normalising never hides a denied name: a plain entry
// that matches the program name matches the binary.
func FuzzProgramName(f *testing.F) {
	for _, s := range []string{
		"perl5.36-x86_64-linux-gnu", "cpan5.36-x86_64-linux-gnu", "x86_64-linux-gnu-python3.11-config",
		"x86_64", "i386", "x86_64-linux-gnu", "arm-linux-gnueabihf-gdb", "/usr/bin/PERL5.36-X86_64-LINUX-GNU.EXE",
		"ruby-riscv64", "git-upload-pack", "-", "--", "x86_64-", "-x86_64", "x86_64-linux--sh", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, bin string) {
		name := BinaryName(bin)
		prog := ProgramName(bin)
		if prog == "" && name != "" {
			t.Fatalf("ProgramName(%q) is empty", bin)
		}
		if !strings.Contains("-"+name+"-", "-"+prog+"-") {
			t.Fatalf("ProgramName(%q) = %q is not made of whole parts of %q", bin, prog, name)
		}
		if prog == "" || strings.HasSuffix(prog, "*") || normEntry(prog) != prog {
			return // not an entry as written
		}
		if _, denied := NewDenyList(prog).Match(bin); !denied {
			t.Fatalf("NewDenyList(%q).Match(%q) = false", prog, bin)
		}
	})
}

// FuzzCheckBinary: whatever the binary word, CheckBinary never accepts one
// that the kernel would find inside the workspace, nor a relative path.
func FuzzCheckBinary(f *testing.F) {
	for _, s := range []string{"good", "into_ws", "via_ws", "dirlink/tool", "ls", "./evil", "bin/tool", "x/",
		"/usr/bin/ls", "/usr/bin/../bin/ls", "/tmp", "/", "//", "/usr/bin/x86_64", "py", "a\u2215b", ".", "..", "/WS/evil", "/WS/sys/ls", "/WS/../ws/evil"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, bin string) {
		if strings.ContainsRune(bin, 0) {
			return // not a template word: the template parser refuses it first
		}
		e := newBinEnv(t)
		look := lookPathIn(e.pathdir, "/usr/bin")
		if strings.HasPrefix(bin, "/WS/") { // let the fuzzer aim at the workspace
			bin = e.ws + bin[3:]
		}
		err := CheckBinary(bin, e.ws, look)
		if err != nil {
			if tool.CodeOf(err) != tool.CodeSpec {
				t.Fatalf("CheckBinary(%q) = %v, want a 613", bin, err)
			}
			return
		}
		if strings.Contains(bin, "/") && !strings.HasPrefix(bin, "/") {
			t.Fatalf("CheckBinary(%q) accepted a relative path", bin)
		}
		p := bin
		if !strings.HasPrefix(bin, "/") {
			found, lerr := look(bin)
			if lerr != nil {
				return
			}
			p = found
		}
		if real, rerr := filepath.EvalSymlinks(p); rerr == nil && within.Clean(e.ws, real) {
			t.Fatalf("CheckBinary(%q) accepted %s, inside the workspace", bin, real)
		}
		if within.Clean(e.ws, filepath.Clean(p)) {
			t.Fatalf("CheckBinary(%q) accepted %s, inside the workspace", bin, p)
		}
	})
}
