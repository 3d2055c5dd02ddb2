package validate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// MaxTitleLen is the longest title a Spec may give, in characters.
const MaxTitleLen = 80

// checkHints checks the fields that only describe a tool to clients (MCP
// annotations): the title is one short line of printable text, and
// destructive is declared only for a tool that writes (a tool that only
// reads destroys nothing, and a hint saying otherwise would mislead).
func checkHints(s *tool.Spec) []error {
	var errs []error
	if err := checkTitle(s.Title); err != nil {
		errs = append(errs, err)
	}
	if s.Destructive != nil && !s.Writes {
		errs = append(errs, tool.SpecErrorf("destructive", "\"destructive\" applies only to a tool that writes: "+
			"set \"writes\": true, or remove \"destructive\" (a tool that only reads is read-only to clients)"))
	}
	return errs
}

// checkTitle accepts "" or one line of at most MaxTitleLen printable
// characters that is not blank.
func checkTitle(title string) error {
	if title == "" {
		return nil
	}
	if strings.TrimSpace(title) == "" {
		return tool.SpecErrorf("title", "title is blank: give a short name for people, or remove it")
	}
	if n := utf8.RuneCountInString(title); n > MaxTitleLen {
		return tool.SpecErrorf("title", "title is %d characters long; the limit is %d", n, MaxTitleLen)
	}
	for _, r := range title {
		if r == utf8.RuneError || (!unicode.IsPrint(r) && r != ' ') {
			return tool.SpecErrorf("title", "title holds %s: a title is one line of printable text", describeRune(r))
		}
	}
	return nil
}
