package validate

import (
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/tool"
)

func TestCheckLineAccepts(t *testing.T) {
	for _, s := range []string{
		"",
		"ls -la",
		`git log --oneline -5`,
		`cat "file with spaces.txt"`,
		`grep -rn 'a|b' .`,
		`echo ; | & $ < > ' " ` + "`",
		`find . -name '*.go'`,
		"grep -rn 日本語 .",
		"grep -rn café .",
		`sed -n '1,2p' a.txt`,
		"echo ⑴ ½ ﬁ",
	} {
		if err := CheckLine("command", s); err != nil {
			t.Errorf("CheckLine(%q) = %v, want nil", s, err)
		}
	}
}

func TestCheckLineRejects(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // a part of the message
	}{
		{"ls\n", "U+000A LINE FEED at byte offset 2"},
		{"ls\r", "U+000D CARRIAGE RETURN"},
		{"ls\t-la", "U+0009 CHARACTER TABULATION at byte offset 2"},
		{"ls\x00", "U+0000 NULL"},
		{"ls\x1b[31m", "U+001B ESCAPE"},
		{"ls\x7f", "U+007F DELETE"},
		{"ls\u0085", "U+0085 NEXT LINE"},
		{"ls\u00a0-la", "U+00A0 NO-BREAK SPACE at byte offset 2"},
		{"ls\u3000-la", "U+3000 IDEOGRAPHIC SPACE"},
		{"ls\u2028", "U+2028 LINE SEPARATOR"},
		{"ls\u200b", "U+200B ZERO WIDTH SPACE"},
		{"ls\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{"ls\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
		{"ls ；rm", `'；' (U+FF1B FULLWIDTH SEMICOLON) at byte offset 3`},
		{"ls ｜ cat", "FULLWIDTH VERTICAL LINE"},
		{"ls ＆", "FULLWIDTH AMPERSAND"},
		{"echo ＄HOME", "FULLWIDTH DOLLAR SIGN"},
		{"cat ＜ a", "FULLWIDTH LESS-THAN SIGN"},
		{"ls ＞ a", "FULLWIDTH GREATER-THAN SIGN"},
		{"echo ＂a＂", "FULLWIDTH QUOTATION MARK"},
		{"echo ＇a＇", "FULLWIDTH APOSTROPHE"},
		{"echo '；'", "FULLWIDTH SEMICOLON"}, // quoted or not
		{"ls ﹔", "SMALL SEMICOLON"},
		{"ls \xff", "invalid UTF-8 (byte 0xFF) at byte offset 3"},
		{`echo "a" ; ls` + "\v", "U+000B LINE TABULATION at byte offset 13"},
	} {
		err := CheckLine("command", tc.line)
		if err == nil {
			t.Errorf("CheckLine(%q) = nil, want a rejection", tc.line)
			continue
		}
		if err.Code != tool.CodeValue || err.Slot != "command" {
			t.Errorf("CheckLine(%q) = code %d slot %q, want 614 on slot command", tc.line, err.Code, err.Slot)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckLine(%q) = %q, want it to contain %q", tc.line, err.Error(), tc.want)
		}
	}
}

// TestCheckLineAgreesWithValue: on a string without ASCII spaces and
// operators, CheckLine rejects exactly what Value rejects for characters.
func TestCheckLineAgreesWithValue(t *testing.T) {
	a := &tool.Arg{Name: "command", Type: tool.String}
	for r := rune(0); r < 0x3100; r++ {
		if r < 0x80 && (r == ' ' || strings.ContainsRune(operators, r)) {
			continue
		}
		s := "x" + string(r)
		got, want := CheckLine("command", s) != nil, Value(a, s, false) != nil
		if got != want {
			t.Errorf("U+%04X: CheckLine rejects = %v, Value rejects = %v", r, got, want)
		}
	}
}

func BenchmarkCheckLine(b *testing.B) {
	const line = `grep -rn "func main" --include='*.go' ./cmd`
	for b.Loop() {
		if err := CheckLine("command", line); err != nil {
			b.Fatal(err)
		}
	}
}
