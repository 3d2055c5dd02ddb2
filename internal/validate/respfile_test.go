package validate

import (
	"errors"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestResponseFileValue: for a program that reads response files, a value
// that starts with '@' is a 614 naming the slot and the program (with the
// ./ form for a path); anything else passes, and nothing is refused for a
// program that reads none.
func TestResponseFileValue(t *testing.T) {
	how := ResponseFiles("/usr/bin/nm")
	if how == "" || ResponseFiles("llvm-objdump-14") == "" || ResponseFiles("x86_64-linux-gnu-objdump") == "" {
		t.Fatalf("nm, llvm-objdump-14 and x86_64-linux-gnu-objdump read response files: %q", how)
	}
	if ResponseFiles("grep") != "" || ResponseFiles("cat") != "" {
		t.Error("grep and cat read no response file")
	}
	path := &tool.Arg{Name: "file", Type: tool.Path}
	str := &tool.Arg{Name: "sym", Type: tool.String}
	for _, c := range []struct {
		a    *tool.Arg
		v    string
		want string
	}{
		{path, "@opts.rsp", `value "@opts.rsp" begins with '@', and nm reads`},
		{path, "@", "begins with '@'"},
		{path, "@@x", "begins with '@'"},
		{str, "@x", "may not begin with '@'"},
		{path, "./@opts.rsp", ""},
		{path, "a@b", ""},
		{path, "", ""},
		{path, "＠x", ""}, // the program sees U+FF20, not '@'
	} {
		err := ResponseFileValue(c.a, c.v, "/usr/bin/nm", how)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: refused: %v", c.v, err)
			}
			continue
		}
		var te *tool.Error
		if err == nil || !errors.As(error(err), &te) || te.Code != tool.CodeValue || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: want a 614 with %q, got %v", c.v, c.want, err)
		}
	}
	if err := ResponseFileValue(path, "@x", "grep", ""); err != nil {
		t.Errorf("grep: %v", err)
	}
	if err := ResponseFileValue(path, "@x", "nm", how); err == nil || !strings.Contains(err.Error(), `write "./@x"`) {
		t.Errorf("a path's message does not say ./@x: %v", err)
	}
}

// TestResponseFileSpec: what the template fixes — a literal @FILE word, an
// enum or default value that starts with '@' in a slot that starts a word —
// is a 613; a slot inside a word is not judged.
func TestResponseFileSpec(t *testing.T) {
	spec := func(cmd string, a tool.Arg) *tool.Spec {
		return &tool.Spec{Name: "t", Description: "d", Command: cmd, Args: []tool.Arg{a}}
	}
	for _, c := range []struct {
		s    *tool.Spec
		want string
	}{
		{spec("nm @opts {f}", tool.Arg{Name: "f", Type: tool.Path, Description: "f", Required: true}), `template word "@opts" names a response file`},
		{spec("objdump -d {f}", tool.Arg{Name: "f", Type: tool.String, Description: "f", Enum: []string{"a.o", "@x"}}), `enum value "@x"`},
		{spec("objdump -d {f}", tool.Arg{Name: "f", Type: tool.Path, Description: "f", Default: "@x"}), `default "@x"`},
		{spec("objdump -d x{f}", tool.Arg{Name: "f", Type: tool.String, Description: "f", Enum: []string{"@x"}}), ""},
		{spec("grep -rn x {f}", tool.Arg{Name: "f", Type: tool.String, Description: "f", Enum: []string{"@x"}}), ""},
		// find passes nm the names it makes from {d}: nm's rule holds for {d}.
		{spec("find {d} -type f -exec nm {} +", tool.Arg{Name: "d", Type: tool.Path, Description: "d", Default: "@x"}), `default "@x": value "@x" begins with '@', and nm reads`},
		{spec("find {d} -type f -exec grep -l x {} +", tool.Arg{Name: "d", Type: tool.Path, Description: "d", Default: "@x"}), ""},
	} {
		_, err := Spec(c.s)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.s.Command, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "error 613")):
			t.Errorf("%s: want a 613 with %q, got %v", c.s.Command, c.want, err)
		}
	}
}

// FuzzResponseFileValue: the value is refused exactly when the program
// reads response files and the value begins with the byte '@'.
func FuzzResponseFileValue(f *testing.F) {
	for _, s := range []string{"@x", "x", "", "./@x", "＠", "@", "\x00@"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, v string, reads bool) {
		how := ""
		if reads {
			how = "@FILE"
		}
		err := ResponseFileValue(&tool.Arg{Name: "x", Type: tool.Path}, v, "nm", how)
		if want := reads && strings.HasPrefix(v, "@"); (err != nil) != want {
			t.Fatalf("%q (reads %v): refused %v, want %v", v, reads, err, want)
		}
	})
}
