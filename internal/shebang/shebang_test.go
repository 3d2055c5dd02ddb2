package shebang

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParse(t *testing.T) {
	long := "#!/" + strings.Repeat("a", 300)
	for _, tc := range []struct {
		in     string
		interp string
		arg    string
		ok     bool
	}{
		{"#!/bin/sh\n", "/bin/sh", "", true},
		{"#!/bin/sh", "/bin/sh", "", true},
		{"#! /bin/sh\n", "/bin/sh", "", true},
		{"#!\t /usr/bin/env  python3 -u \t\nrest", "/usr/bin/env", "python3 -u", true},
		{"#!/usr/bin/perl -w\n", "/usr/bin/perl", "-w", true},
		{"#!/bin/sh\x00 -c x\n", "/bin/sh", "", true},
		{"#!/bin/sh -c\x00x\n", "/bin/sh", "-c", true},
		{"#!/usr/bin/perl\r\n", "/usr/bin/perl\r", "", true},
		{"#!\n", "", "", false},
		{"#!   \n", "", "", false},
		{"#!\x00/bin/sh\n", "", "", false},
		{"#/bin/sh\n", "", "", false},
		{" #!/bin/sh\n", "", "", false},
		{"\xef\xbb\xbf#!/bin/sh\n", "", "", false},
		{"", "", "", false},
		{long, "", "", false}, // the interpreter name runs past 256 bytes
		{"#!/bin/sh " + strings.Repeat("x", 300), "/bin/sh", strings.Repeat("x", 256-len("#!/bin/sh ")), true},
	} {
		sb, ok := Parse([]byte(tc.in))
		assert.Equal(t, tc.ok, ok, "%q", tc.in)
		assert.Equal(t, tc.interp, sb.Interpreter, "%q", tc.in)
		assert.Equal(t, tc.arg, sb.Arg, "%q", tc.in)
	}
}

func TestEnvProgram(t *testing.T) {
	for _, tc := range []struct {
		arg, prog string
		ok        bool
	}{
		{"python3", "python3", true},
		{"-S python3 -u", "python3", true},
		{"-Spython3", "python3", true},
		{"--split-string=perl -w", "perl", true},
		{"-S -i A=1 -u NAME -C /tmp node", "node", true},
		{"-S --unset=X --chdir=/ -- -weird", "-weird", true},
		{"-S A=1 B=2", "", false},
		{"-S 'python3'", "", false},
		{"-S python3 \"-c\"", "", false},
		{"-S $X", "", false},
		{"-S \\python3", "", false},
		{"-S --whatever python3", "", false},
		{"-i python3", "", false},
		{"python3 -u", "", false}, // one argument: env looks for a program named "python3 -u"
		{"", "", false},
		{"A=1", "", false},
		{"-S --", "", false},
	} {
		prog, ok := EnvProgram(tc.arg)
		assert.Equal(t, tc.ok, ok, "%q", tc.arg)
		assert.Equal(t, tc.prog, prog, "%q", tc.arg)
	}
}

// TestProgramConcurrent: ExecTool judges programs from many calls at once.
