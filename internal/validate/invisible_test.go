package validate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// invisibles are default-ignorable code points that are not format
// characters (Cf), which §5.1's earlier rules already refused: a reviewer of
// a descriptor or of a call cannot see them.
var invisibles = []rune{0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164,
	0xFE00, 0xFE0F, 0xFFA0, 0xE0000, 0xE0080, 0xE0100, 0xE01EF, 0xE0FFF}

// TestInvisibleInDescriptor: an invisible code point in any descriptor
// string that reaches generated code, schemas or the terminal is a 613
// naming the code point, in the field it stands in.
func TestInvisibleInDescriptor(t *testing.T) {
	cfs := []rune{0x00AD, 0x200B, 0x200D, 0x202E, 0x2066, 0xFEFF, 0x1D173, 0x1D17A, 0xE0001, 0xE0020, 0xE007F, 0x180E}
	for _, r := range append(append([]rune{}, invisibles...), cfs...) {
		inv := string(r)
		cases := []struct {
			field string
			edit  func(s *tool.Spec)
		}{
			{"description", func(s *tool.Spec) { s.Description = "Search " + inv + "text" }},
			{"arguments.word.description", func(s *tool.Spec) { s.Args[0].Description = "a word" + inv }},
			{"arguments.word.pattern", func(s *tool.Spec) { s.Args[0].Pattern = "[a-z]+" + inv }},
			{"arguments.word.enum.1", func(s *tool.Spec) { s.Args[0].Enum = []string{"main", "ma" + inv + "in"} }},
			{"arguments.word.default", func(s *tool.Spec) { s.Args[0].Default, s.Args[0].HasDefault = inv+"main", true }},
			{"command", func(s *tool.Spec) { s.Command = "grep -e" + inv + " {word} ." }},
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%U/%s", r, c.field), func(t *testing.T) {
				s := tool.Spec{Name: "t", Description: "d", Command: "grep -e {word} .",
					Args: []tool.Arg{{Name: "word", Type: tool.String, Description: "w"}}}
				c.edit(&s)
				_, err := Spec(&s)
				require.Error(t, err)
				var te *tool.Error
				require.True(t, errors.As(err, &te), "%v", err)
				assert.Equal(t, tool.CodeSpec, te.Code)
				assert.Equal(t, c.field, te.Field, "%v", err)
				assert.Contains(t, err.Error(), fmt.Sprintf("U+%04X", r))
			})
		}
	}
}

// TestInvisibleInValue: a slot value holding one is a 614 naming it (a
// reviewer of the call, in the audit log or explain, cannot see it either).
func TestInvisibleInValue(t *testing.T) {
	a := &tool.Arg{Name: "v", Type: tool.String}
	for _, r := range invisibles {
		err := Value(a, "ad"+string(r)+"min", false)
		require.NotNil(t, err, "%U accepted", r)
		assert.Equal(t, tool.CodeValue, err.Code)
		assert.Contains(t, err.Msg, fmt.Sprintf("U+%04X", r))
		assert.NotContains(t, err.Msg, string(r), "the message shows the code point, not the invisible character")
		assert.NotNil(t, CheckLine("command", "grep ad"+string(r)+"min ."), "%U in a command line", r)
	}
	// Visible neighbours stay allowed: a combining acute, a Hangul letter,
	// the Arabic number sign (a visible format character is already refused
	// in values, but not as invisible), a visible emoji without selector.
	for _, v := range []string{"cafe\u0301", "\u1100\u1161", "\u3131", "\uFFA1", "\U0001F600", "\u17B6"} {
		assert.Nil(t, Value(a, v, false), "%q", v)
	}
}

// FuzzInvisible: whatever text a description, pattern, enum value or
// default holds, Spec refuses it with a 613 naming the first invisible code
// point exactly when it holds one, and Value refuses such a value.
func FuzzInvisible(f *testing.F) {
	for _, s := range []string{"plain", "a\u034fb", "\u3164", "x\ufe0f", "\U000E0041", "\u200b", "\u180e", "\u0600",
		"\ufff9", "\U00013430", "\u00ad", "café", "\xff", "日本語", "\u115f\u1160", "\U000E0FFF", "\U000E1000"} {
		f.Add(s)
	}
	a := &tool.Arg{Name: "v", Type: tool.String}
	f.Fuzz(func(t *testing.T, s string) {
		i, r := FirstInvisible(s)
		for _, field := range []string{"description", "arguments.word.description", "arguments.word.pattern"} {
			spec := tool.Spec{Name: "t", Description: "d", Command: "grep -e {word} .",
				Args: []tool.Arg{{Name: "word", Type: tool.String, Description: "w"}}}
			switch field {
			case "description":
				spec.Description = "d" + s
			case "arguments.word.description":
				spec.Args[0].Description = "w" + s
			default:
				spec.Args[0].Pattern = "a" + s
			}
			_, err := Spec(&spec)
			found := false
			for _, e := range tool.Flatten(err) {
				var te *tool.Error
				if errors.As(e, &te) && te.Field == field && strings.Contains(te.Msg, "invisible character") {
					found = true
					if te.Code != tool.CodeSpec || !strings.Contains(te.Msg, fmt.Sprintf("U+%04X", r)) {
						t.Fatalf("%s %q: %v, want a 613 naming U+%04X", field, s, te, r)
					}
				}
			}
			if found != (i >= 0) {
				t.Fatalf("%s %q: invisible at %d, refused %v: %v", field, s, i, found, err)
			}
		}
		if i >= 0 && Value(a, s, false) == nil {
			t.Fatalf("Value accepted %q holding U+%04X", s, r)
		}
	})
}
