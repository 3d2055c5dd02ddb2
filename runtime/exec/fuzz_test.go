package exec

import (
	"bytes"
	osexec "os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/internal/validate"
)

// oracleWords is an independent reading of the literal subset of the shell
// language, used to check what Plan accepts: words separated by ASCII
// spaces, made of plain characters, 'single-quoted' text, "double-quoted"
// text where \ quotes $ ` " \, and \x outside quotes. It reports ok=false
// for anything outside that subset a shell would act on: an unquoted
// operator, parenthesis, $, backtick, glob character, a leading ~ or #, an
// unescaped $ or ` in double quotes, or an unterminated quote.
func oracleWords(line string) (words []string, ok bool) {
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			continue
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, false
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				switch d := line[i]; {
				case d == '\\' && i+1 < len(line) && strings.IndexByte("$`\"\\", line[i+1]) >= 0:
					i++
					cur.WriteByte(line[i])
				case d == '$' || d == '`':
					return nil, false
				default:
					cur.WriteByte(d)
				}
			}
			if i >= len(line) {
				return nil, false
			}
		case c == '\\':
			if i+1 >= len(line) {
				return nil, false
			}
			i++
			cur.WriteByte(line[i])
		case strings.IndexByte(";|&<>()$`*?[", c) >= 0:
			return nil, false
		case (c == '~' || c == '#') && !inWord:
			return nil, false
		case c < 0x20 || c == 0x7f:
			return nil, false
		default:
			cur.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}

// singleQuote quotes s for any POSIX shell.
func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// checkAccepted asserts the properties every accepted line has.
func checkAccepted(t *testing.T, tl *Tool, line string, argv []string) {
	t.Helper()
	words, ok := oracleWords(line)
	if !ok {
		t.Fatalf("Plan accepted %q, which holds an operator, expansion, glob or unterminated quote", line)
	}
	if !slices.Equal(words[1:], argv[1:]) {
		t.Fatalf("Plan(%q) argv = %q, the literal reading gives %q", line, argv[1:], words[1:])
	}
	for _, a := range argv {
		if !utf8.ValidString(a) {
			t.Fatalf("Plan(%q): argument %q is not valid UTF-8", line, a)
		}
		for i := 0; i < len(a); i++ {
			if a[i] < 0x20 || a[i] == 0x7f {
				t.Fatalf("Plan(%q): argument %q holds control byte %#x", line, a, a[i])
			}
		}
		if err := validate.CheckLine(Slot, a); err != nil {
			t.Fatalf("Plan(%q): argument %q holds a rejected character: %v", line, a, err)
		}
	}
	// Quoting the argv back gives a line with the same meaning.
	var b strings.Builder
	b.WriteString(words[0])
	for _, a := range argv[1:] {
		b.WriteString(" " + singleQuote(a))
	}
	again, _, err := tl.Plan(b.String())
	if err != nil || !slices.Equal(again, argv) {
		t.Fatalf("Plan(%q) = %q, but its requoted form %q gives %q, %v", line, argv, b.String(), again, err)
	}
}

// fuzzSeeds are seeds beyond the regression suite.
var fuzzSeeds = []string{
	"ls -la", `echo "a\"b" 'c' d\ e`, "grep -rn 'a;b|c&d<e>f' .", `echo "\$x" '\$y'`, "echo a\\;b",
	"git log --format='%h' -- a.txt", "find . -name '*.go' -o -name '[ab]?'", "sed -n 's/a/b/p' a.txt",
	"echo '' '' x", "echo a'b'\"c\"d", "ls --color=auto", "echo \\'", "echo \"'\"", "echo '\"'",
}

func FuzzPlan(f *testing.F) {
	for _, tc := range regression {
		f.Add(tc.line)
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	e := newStubEnv(f)
	tl := e.tool(f)
	f.Fuzz(func(t *testing.T, line string) {
		argv, verdicts, err := tl.Plan(line)
		if err != nil {
			refusedBy(t, err)
			if len(verdicts) == 0 || verdicts[len(verdicts)-1].OK {
				t.Fatalf("Plan(%q) refused without a refusing verdict", line)
			}
			return
		}
		checkAccepted(t, tl, line, argv)
	})
}

// TestPlanAgainstBash checks the accepted lines of the suite against bash
// itself: printf shows the words bash would pass, which must be the argv.
func TestPlanAgainstBash(t *testing.T) {
	bash := guarantee.Program(t, "bash")
	e := newStubEnv(t)
	tl := e.tool(t)
	lines := fuzzSeeds
	for _, tc := range regression {
		lines = append(lines, tc.line)
	}
	checked := 0
	for _, line := range lines {
		argv, _, err := tl.Plan(line)
		if err != nil || len(argv) < 2 {
			continue
		}
		rest := strings.TrimPrefix(strings.TrimLeft(line, " "), strings.Fields(line)[0])
		cmd := osexec.Command(bash, "--norc", "--noprofile", "-c", `printf '%s\0'`+rest)
		cmd.Dir = e.ws
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent"}
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("bash on %q: %v", line, err)
			continue
		}
		got := strings.Split(string(bytes.TrimSuffix(out, []byte{0})), "\x00")
		if !slices.Equal(got, argv[1:]) {
			t.Errorf("Plan(%q) argv = %q, bash gives %q", line, argv[1:], got)
		}
		checked++
	}
	if checked < 50 {
		t.Errorf("only %d lines compared with bash", checked)
	}
}
