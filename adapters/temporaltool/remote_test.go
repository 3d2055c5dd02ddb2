package temporaltool_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/adapters/temporaltool"
	"github.com/nanogpt/toolgen/runtime/tool"
)

func TestRemoteError(t *testing.T) {
	for _, c := range []struct {
		text string
		code tool.Code
	}{
		{`error 614: slot "path": climbs out of the workspace`, tool.CodeValue},
		{`tools/x.tool.json:3:5: error 613: unknown field`, tool.CodeSpec},
		{`x.tool.json: error 613: denied`, tool.CodeSpec},
		{`count_lines: could not start: no such file`, 0},
		{`mention of error 614: in the middle`, 0},
		{"line one\nerror 614: on a later line", 0},
		{`error 615: not a code of toolgen`, 0},
		{``, 0},
	} {
		err := temporaltool.RemoteError(c.text)
		if err.Error() != c.text {
			t.Errorf("RemoteError(%q).Error() = %q: the text must be kept", c.text, err.Error())
		}
		if got := tool.CodeOf(err); got != c.code {
			t.Errorf("RemoteError(%q): code %d, want %d", c.text, got, c.code)
		}
	}
}

// FuzzRemoteError: any text is kept as the error's text, and the code is
// 613 or 614 only for a text that says so before its first line break.
func FuzzRemoteError(f *testing.F) {
	for _, s := range []string{`error 614: slot "x": bad`, `a.tool.json:1:2: error 613: x`, "x\nerror 614: y", "error 613:", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		err := temporaltool.RemoteError(text)
		if err.Error() != text {
			t.Fatalf("text changed: %q → %q", text, err.Error())
		}
		code := tool.CodeOf(err)
		first, _, _ := strings.Cut(text, "\n")
		switch code {
		case 0:
			if strings.HasPrefix(first, "error 613: ") || strings.HasPrefix(first, "error 614: ") {
				t.Fatalf("%q starts with a code, but none was read", text)
			}
		case tool.CodeSpec, tool.CodeValue:
			if !strings.Contains(first, "error "+strconv.Itoa(int(code))+": ") {
				t.Fatalf("%q: code %d not on its first line", text, code)
			}
		default:
			t.Fatalf("%q: code %d", text, code)
		}
	})
}
