package validate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/tool"
)

func lit(s string) Part  { return Part{Lit: s} }
func slot(s string) Part { return Part{Slot: s} }

func TestParseTemplate(t *testing.T) {
	for _, tc := range []struct {
		cmd    string
		words  []Word
		canon  string
		binary string
		slots  []string
	}{
		{"grep -rn {pattern} {path}",
			[]Word{{lit("grep")}, {lit("-rn")}, {slot("pattern")}, {slot("path")}},
			"grep -rn {pattern} {path}", "grep", []string{"pattern", "path"}},
		{"sed -n {range}p {path}",
			[]Word{{lit("sed")}, {lit("-n")}, {slot("range"), lit("p")}, {slot("path")}},
			"sed -n {range}p {path}", "sed", []string{"range", "path"}},
		{"tool --x={a}",
			[]Word{{lit("tool")}, {lit("--x="), slot("a")}},
			"tool --x={a}", "tool", []string{"a"}},
		{"tool a{x}b{y}c {x}",
			[]Word{{lit("tool")}, {lit("a"), slot("x"), lit("b"), slot("y"), lit("c")}, {slot("x")}},
			"tool a{x}b{y}c {x}", "tool", []string{"x", "y"}},
		{"  grep   -rn  {p}   ",
			[]Word{{lit("grep")}, {lit("-rn")}, {slot("p")}},
			"grep -rn {p}", "grep", []string{"p"}},
		{"/opt/tools/bin/tool {a}", []Word{{lit("/opt/tools/bin/tool")}, {slot("a")}}, "/opt/tools/bin/tool {a}", "/opt/tools/bin/tool", []string{"a"}},
		{"./bin/tool {a}", []Word{{lit("./bin/tool")}, {slot("a")}}, "./bin/tool {a}", "./bin/tool", []string{"a"}}, // parses; Spec refuses it
		{"/usr/bin/grep -F {p} .", []Word{{lit("/usr/bin/grep")}, {lit("-F")}, {slot("p")}, {lit(".")}}, "/usr/bin/grep -F {p} .", "/usr/bin/grep", []string{"p"}},
		{"ls", []Word{{lit("ls")}}, "ls", "ls", nil},
		// "{}" is literal text (find's placeholder), merged with the text
		// around it.
		{"find {p} -exec grep -l {q} {} +",
			[]Word{{lit("find")}, {slot("p")}, {lit("-exec")}, {lit("grep")}, {lit("-l")}, {slot("q")}, {lit("{}")}, {lit("+")}},
			"find {p} -exec grep -l {q} {} +", "find", []string{"p", "q"}},
		{"tool {}.bak a{}b{x}{}",
			[]Word{{lit("tool")}, {lit("{}.bak")}, {lit("a{}b"), slot("x"), lit("{}")}},
			"tool {}.bak a{}b{x}{}", "tool", []string{"x"}},
		{"git log {from}..{to}", []Word{{lit("git")}, {lit("log")}, {slot("from"), lit(".."), slot("to")}}, "git log {from}..{to}", "git", []string{"from", "to"}},
		{"tool {a}x-y x{a}-y", []Word{{lit("tool")}, {slot("a"), lit("x-y")}, {lit("x"), slot("a"), lit("-y")}}, "tool {a}x-y x{a}-y", "tool", []string{"a"}},
		// Characters no shell would ever see are fine in literal text.
		{`find . -name *.go -o -name [a-z]?.txt ~ # ! \ % + , : = @ ^ ( )`, nil, "", "find", nil},
		{"grep café 日本語 ＋", nil, "", "grep", nil},
		{"python3.11-x g++ clang_format", nil, "", "python3.11-x", nil},
	} {
		tm, err := ParseTemplate(tc.cmd)
		if err != nil {
			t.Errorf("ParseTemplate(%q): %v", tc.cmd, err)
			continue
		}
		if tc.words != nil && !reflect.DeepEqual(tm.Words, tc.words) {
			t.Errorf("ParseTemplate(%q).Words = %#v, want %#v", tc.cmd, tm.Words, tc.words)
		}
		canon := tc.canon
		if canon == "" {
			canon = tc.cmd
		}
		if got := tm.String(); got != canon {
			t.Errorf("ParseTemplate(%q).String() = %q, want %q", tc.cmd, got, canon)
		}
		if got := tm.Binary(); got != tc.binary {
			t.Errorf("ParseTemplate(%q).Binary() = %q, want %q", tc.cmd, got, tc.binary)
		}
		if got := tm.Slots(); !reflect.DeepEqual(got, tc.slots) {
			t.Errorf("ParseTemplate(%q).Slots() = %q, want %q", tc.cmd, got, tc.slots)
		}
	}
}

func TestParseTemplateRejects(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"", "template is empty"},
		{"    ", "template is empty"},
		// Braces.
		{"tool {a", "'{' without a matching '}'"},
		{"tool a}", "'}' without a matching '{'"},
		{"tool {a}}", "'}' without a matching '{'"},
		{"tool }{", "'}' without a matching '{'"},
		{"tool {{a}}", "{{a} is not a slot name"},
		{"tool {Bad}", "{Bad} is not a slot name"},
		{"tool {1a}", "{1a} is not a slot name"},
		{"tool {a-b}", "{a-b} is not a slot name"},
		{"tool {_a}", "{_a} is not a slot name"},
		{"tool {a b}", "'{' without a matching '}'"},
		{"tool x{é}", "{é} is not a slot name"},
		// Adjacent slots, and a dash right after a word-starting slot: an
		// empty value would let what follows begin the argument.
		{"tool {a}{b}", "slots {a} and {b} are adjacent"},
		{"tool x{a}{b}y", "slots {a} and {b} are adjacent"},
		{"tool {a}-x", "the text after {a} begins with a dash"},
		{"tool {a}\u2013x", "the text after {a} begins with a dash"},
		// White space other than ASCII spaces between words.
		{"grep\t{p}", "U+0009 CHARACTER TABULATION"},
		{"grep {p}\n", "U+000A LINE FEED"},
		{"grep\r\n{p}", "U+000D CARRIAGE RETURN"},
		{"grep\u00a0{p}", "U+00A0 NO-BREAK SPACE"},
		{"grep\u3000{p}", "U+3000 IDEOGRAPHIC SPACE"},
		{"grep {p}\u200b", "U+200B ZERO WIDTH SPACE"},
		{"grep \u202e{p}", "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{"grep \x00", "U+0000 NULL"},
		{"grep \xff", "invalid UTF-8"},
		// Operators in the literal text, ASCII or lookalike.
		{"grep {p} ; rm -rf .", "U+003B SEMICOLON"},
		{"grep {p} | sh", "U+007C VERTICAL LINE"},
		{"grep {p} && ls", "U+0026 AMPERSAND"},
		{"echo $HOME", "U+0024 DOLLAR SIGN"},
		{"grep 'x' .", "U+0027 APOSTROPHE"},
		{`grep "x" .`, "U+0022 QUOTATION MARK"},
		{"grep `id` .", "U+0060 GRAVE ACCENT"},
		{"grep x > out", "U+003E GREATER-THAN SIGN"},
		{"grep x <in", "U+003C LESS-THAN SIGN"},
		{"grep {p} ；", "U+FF1B FULLWIDTH SEMICOLON"},
		{"grep {p}｜sh", "U+FF5C FULLWIDTH VERTICAL LINE"},
		{"grep ﹔", "U+FE54 SMALL SEMICOLON"},
		{"grep ｀id｀", "U+FF40 FULLWIDTH GRAVE ACCENT"},
		// The first word: a plain binary name or path.
		{"{bin} x", "may not hold a slot"},
		{"x{bin} y", "may not hold a slot"},
		{"{bin}x y", "may not hold a slot"},
		{"-x {p}", "may not begin with '-'"},
		{"--help", "may not begin with '-'"},
		{". {p}", "is not a program name"},
		{".. {p}", "is not a program name"},
		{"./ {p}", "is not a program name"},
		{"/ {p}", "is not a program name"},
		{"gr*p {p}", "U+002A ASTERISK"},
		{"grep\\x {p}", "U+005C REVERSE SOLIDUS"},
		{"grép {p}", "U+00E9 LATIN SMALL LETTER E WITH ACUTE"},
		{"ｇｒｅｐ {p}", "U+FF47 FULLWIDTH LATIN SMALL LETTER G"},
		{"~/bin/x {p}", "U+007E TILDE"},
		{"a=b {p}", "U+003D EQUALS SIGN"},
		// Lookalikes of '/' are no separators, and no binary characters.
		{"bin∕x", "U+2215 DIVISION SLASH"},
		{"bin⁄x", "U+2044 FRACTION SLASH"},
		{"bin／x", "U+FF0F FULLWIDTH SOLIDUS"},
		{"∕usr∕bin∕git", "U+2215 DIVISION SLASH"},
		{"bin⧸x", "U+29F8 BIG SOLIDUS"},
		{"bin̸x", "U+0338 COMBINING LONG SOLIDUS OVERLAY"},
	} {
		tm, err := ParseTemplate(tc.cmd)
		if err == nil {
			t.Errorf("ParseTemplate(%q) = %v, want an error containing %q", tc.cmd, tm.Words, tc.want)
			continue
		}
		if tm != nil {
			t.Errorf("ParseTemplate(%q) returned a template with its error", tc.cmd)
		}
		te := asToolError(t, err, tool.CodeSpec)
		if te.Field != "command" {
			t.Errorf("ParseTemplate(%q): field %q, want command", tc.cmd, te.Field)
		}
		if !strings.Contains(te.Msg, tc.want) {
			t.Errorf("ParseTemplate(%q): message %q does not contain %q", tc.cmd, te.Msg, tc.want)
		}
	}
}

// TestParseTemplateMessages pins the exact wording of a few 613s.
func TestParseTemplateMessages(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"grep {p} ; rm", `error 613: template: character ';' (U+003B SEMICOLON) at byte offset 9 is not allowed: shell operator and quote characters (' " ` + "`" + ` ; | & $ < >) are rejected`},
		{"grep\t{p}", `error 613: template: character U+0009 CHARACTER TABULATION at byte offset 4 is not allowed: control characters are rejected`},
		{"tool {Bad}", `error 613: template word "{Bad}": {Bad} is not a slot name (want {name} with name matching ^[a-z][a-z0-9_]*$)`},
		{"tool x{a", `error 613: template word "x{a": '{' without a matching '}'`},
		{"{bin} x", `error 613: the first word of the template is the binary and may not hold a slot`},
		{"-x", `error 613: binary "-x" may not begin with '-'`},
		{"", `error 613: template is empty`},
	} {
		_, err := ParseTemplate(tc.cmd)
		if err == nil {
			t.Errorf("ParseTemplate(%q) accepted", tc.cmd)
			continue
		}
		if got := err.Error(); got != tc.want {
			t.Errorf("ParseTemplate(%q):\n got  %s\n want %s", tc.cmd, got, tc.want)
		}
	}
}
