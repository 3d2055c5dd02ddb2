package validate

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// FuzzTextValue: a text value is accepted exactly when the same value with
// each U+0020 made a letter is accepted as a string (spaces are the only
// difference), and an accepted one holds no character DESIGN.md §5.1
// rejects but U+0020, in itself or its NFKC form.
func FuzzTextValue(f *testing.F) {
	for _, v := range nastyValues {
		f.Add(v, true)
		f.Add("a "+v+" b", false)
	}
	for _, v := range []string{"func main", " ", "a\u00a0b", "a \u3000b", "- x", " -x", "\u00a8", "a\u0020\u0338"} {
		f.Add(v, true)
	}
	text := &tool.Arg{Name: "v", Type: tool.Text}
	str := &tool.Arg{Name: "v", Type: tool.String}
	f.Fuzz(func(t *testing.T, v string, startsWord bool) {
		err := Value(text, v, startsWord)
		asString := Value(str, strings.ReplaceAll(v, " ", "x"), startsWord)
		if (err == nil) != (asString == nil) {
			t.Fatalf("text %q: %v; as a string with the spaces made letters: %v", v, err, asString)
		}
		if err != nil {
			if err.Code != tool.CodeValue || err.Slot != "v" || !utf8.ValidString(err.Error()) {
				t.Fatalf("Value(text, %q) = %#v, want a 614 on slot v in valid UTF-8", v, err)
			}
			return
		}
		unspaced := strings.ReplaceAll(v, " ", "")
		if bad := rejectedIn(unspaced); bad >= 0 {
			t.Fatalf("accepted %q holding %U", v, bad)
		}
		if bad := rejectedIn(strings.ReplaceAll(norm.NFKC.String(unspaced), " ", "")); bad >= 0 {
			t.Fatalf("accepted %q whose NFKC form holds %U", v, bad)
		}
		if r, _ := utf8.DecodeRuneInString(v); startsWord && dashLike(r) {
			t.Fatalf("accepted %q at the start of a word", v)
		}
	})
}

// FuzzFlag: a boolean slot's flag is accepted only when it is one option
// word a template could hold: a leading '-', not "-" or "--", no brace, and
// nothing a one-word value may not hold; then a template with it written
// in parses to that same single word.
func FuzzFlag(f *testing.F) {
	for _, v := range nastyValues {
		f.Add(v)
		f.Add("-" + v)
	}
	for _, v := range []string{"-i", "--ignore-case", "--color=never", "-i -v", "-{x}", "-{}", "--=", "-\u00a0", "-\uff1b"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, flag string) {
		s := tool.Spec{Name: "t", Description: "d", Command: "grep {b} -e x .", Args: []tool.Arg{
			{Name: "b", Type: tool.Boolean, Description: "b", Flag: flag},
		}}
		_, err := Spec(&s)
		if err != nil {
			for _, e := range flatten(err) {
				if te, ok := e.(*tool.Error); !ok || te.Code != tool.CodeSpec || !utf8.ValidString(te.Error()) {
					t.Fatalf("flag %q: %#v, want 613s in valid UTF-8", flag, e)
				}
			}
			return
		}
		if !strings.HasPrefix(flag, "-") || flag == "-" || flag == "--" || strings.ContainsAny(flag, "{}") {
			t.Fatalf("accepted flag %q", flag)
		}
		if verr := Value(&tool.Arg{Name: "f", Type: tool.String}, flag, false); verr != nil {
			t.Fatalf("accepted flag %q that a one-word value may not be: %v", flag, verr)
		}
		tmpl, perr := ParseTemplate("grep " + flag)
		if perr != nil || len(tmpl.Words) != 2 || len(tmpl.Words[1]) != 1 || tmpl.Words[1][0].Lit != flag {
			t.Fatalf("flag %q does not stand as one literal word of a template: %v", flag, perr)
		}
	})
}
