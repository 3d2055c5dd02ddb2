package validate

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// FuzzTitle: a title the validator accepts is one line of at most
// MaxTitleLen printable characters with some text, valid UTF-8; anything
// else is a 613 on the field "title", never a panic.
func FuzzTitle(f *testing.F) {
	for _, s := range []string{"", "Search text", " ", "a\tb", "a\nb", "x\u200by", "\u202eevil", "日本語の検索",
		strings.Repeat("a", 80), strings.Repeat("é", 81), "\xff", "a\u0085b", "\u3000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		err := checkTitle(title)
		if err != nil {
			if te, ok := err.(*tool.Error); !ok || te.Code != tool.CodeSpec || te.Field != "title" {
				t.Fatalf("error is not a 613 on title: %#v", err)
			}
			return
		}
		if title == "" {
			return
		}
		if !utf8.ValidString(title) || utf8.RuneCountInString(title) > MaxTitleLen || strings.TrimSpace(title) == "" {
			t.Fatalf("accepted %q", title)
		}
		for _, r := range title {
			if !unicode.IsPrint(r) && r != ' ' {
				t.Fatalf("accepted %q holding U+%04X", title, r)
			}
		}
	})
}
