package validate

import "github.com/nanogpt/toolgen/runtime/tool"

// CheckLine checks a free-text command line, ExecTool's input, against the
// character rules of DESIGN.md §5.1 that apply before any shell parser sees
// it. It rejects what Value rejects, except two ASCII classes that a command
// line needs and whose meaning only a shell parser can decide:
//
//   - the ASCII space (U+0020), which separates words;
//   - the ASCII operator and quote characters ' " ` ; | & $ < >, which are
//     literal inside quotes and operators outside them.
//
// Everything else stays rejected: invalid UTF-8, control characters (tab,
// newline and CR included: a line is one command), Unicode white space other
// than the ASCII space (U+00A0, U+3000 …), format characters (zero-width,
// bidi controls) and every character whose NFKC form holds a rejected
// character, so the fullwidth lookalikes ；｜＆＄＜＞＂＇ are rejected
// wherever they stand, quoted or not.
//
// The error is a 614 *tool.Error naming slot, with the character's code
// point, name and byte offset, like Value's.
func CheckLine(slot, s string) *tool.Error {
	for off := 0; off < len(s); {
		bad, found := firstBadRune(s[off:], true)
		if !found {
			return nil
		}
		if bad.reason == reasonOperator {
			// An ASCII operator or quote: the parser's business.
			off += bad.offset + 1
			continue
		}
		bad.offset += off
		return tool.ValueErrorf(slot, "%s", bad.message())
	}
	return nil
}
