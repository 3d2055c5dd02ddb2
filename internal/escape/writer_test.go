package escape

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTerminal: what tool output (a file in the repository) could do to a
// terminal is written as escapes; text, newlines and tabs stay.
func TestTerminal(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "exit: 0\noutput: a\tb\n", "exit: 0\noutput: a\tb\n"},
		{"clear screen", "\x1b[2J\x1b[H", `\u001b[2J\u001b[H`},
		{"fake colour", "\x1b[32mall tests passed\x1b[0m", `\u001b[32mall tests passed\u001b[0m`},
		{"OSC 52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07", `\u001b]52;c;cm0gLXJmIH4=\u0007`},
		{"OSC title ST", "\x1b]0;pwned\x1b\\", `\u001b]0;pwned\u001b\`},
		{"C1 CSI", "\u009b31m", `\u009b31m`},
		{"C1 OSC", "\u009d52;c;x\u009c", `\u009d52;c;x\u009c`},
		{"BEL", "ding\a", `ding\u0007`},
		{"backspace", "rm -rf /\b\b\b\b\b\b\b\bls     ", `rm -rf /\u0008\u0008\u0008\u0008\u0008\u0008\u0008\u0008ls     `},
		{"CR overwrite", "FAIL: x\rok     \n", `FAIL: x\u000dok     ` + "\n"},
		{"DEL", "a\x7fb", `a\u007fb`},
		{"bidi", "a\u202eb", `a\u202eb`},
		{"zero width", "a\u200bb", `a\u200bb`},
		{"filler", "a\u3164b", `a\u3164b`},
		{"tag beyond BMP", "a\U000E0041", `a\udb40\udc41`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"invalid byte", "a\xffb", `a\xffb`},
		{"unicode text", "日本語 café ü 😀 \u3000", "日本語 café ü 😀 \u3000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Terminal(c.in))
			var out bytes.Buffer
			w := NewWriter(&out)
			// Byte by byte: runes split between writes are escaped the same.
			for i := 0; i < len(c.in); i++ {
				_, err := w.Write([]byte{c.in[i]})
				require.NoError(t, err)
			}
			require.NoError(t, w.Flush())
			assert.Equal(t, c.want, out.String())
		})
	}
}

// TestWriterKeepsJSON: JSON with every kind of rune in its strings, written
// through a Writer, decodes to the same value.
func TestWriterKeepsJSON(t *testing.T) {
	v := map[string]any{"s": "a\x1b[31m\u009b\u202e\u3164\U000E0041\x7f\u2028\t\n\r\"\\日本", "n": 1.5}
	data, err := json.MarshalIndent(v, "", "\t")
	require.NoError(t, err)
	var out bytes.Buffer
	w := NewWriter(&out)
	_, err = w.Write(data)
	require.NoError(t, err)
	var back map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &back), "%s", out.String())
	assert.Equal(t, v, back)
	assert.NotContains(t, out.String(), "\u009b")
}

// FuzzTerminal: whatever a tool prints, what reaches the terminal is valid
// UTF-8 of graphic, visible runes, newlines and tabs; what needed nothing
// is unchanged; and writing it in two pieces changes nothing.
func FuzzTerminal(f *testing.F) {
	for _, s := range []string{"", "ok\n", "\x1b[2J", "\u009b", "\xe6\x97", "日本", "\U000E0041", "a\rb", "\xff\xfe"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, split int) {
		got := Terminal(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Terminal(%q) = %q: not UTF-8", s, got)
		}
		for _, r := range got {
			if r != '\n' && r != '\t' && (!unicode.IsGraphic(r) || DefaultIgnorable(r)) {
				t.Fatalf("Terminal(%q) = %q holds %U", s, got, r)
			}
		}
		if clean(s) && got != s {
			t.Fatalf("Terminal(%q) changed clean text to %q", s, got)
		}
		if split < 0 {
			split = -split
		}
		if len(s) > 0 {
			split %= len(s) + 1
		} else {
			split = 0
		}
		var out bytes.Buffer
		w := NewWriter(&out)
		w.Write([]byte(s[:split]))
		w.Write([]byte(s[split:]))
		w.Flush()
		if out.String() != got {
			t.Fatalf("split at %d: %q, want %q", split, out.String(), got)
		}
	})
}
