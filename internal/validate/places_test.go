package validate

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// placeSpec declares every slot of cmd: names in bools are boolean slots
// with the flag given, names in opt optional without a default, the rest
// required text slots.
func placeSpec(cmd string, bools map[string]string, opt ...string) (*tool.Spec, *Template) {
	t, err := ParseTemplate(cmd)
	if err != nil {
		panic(err)
	}
	s := &tool.Spec{Name: "t", Description: "d", Command: cmd}
	for _, name := range t.Slots() {
		a := tool.Arg{Name: name, Type: tool.Text, Description: "d", Required: true}
		if f, ok := bools[name]; ok {
			a = tool.Arg{Name: name, Type: tool.Boolean, Description: "d", Flag: f}
		}
		for _, o := range opt {
			if o == name {
				a.Required = false
			}
		}
		s.Args = append(s.Args, a)
	}
	return s, t
}

// TestPlaces pins where a slot is data (D), the whole value of an option
// (O), and starts a word (S), as the program's grammar reads the template
// in every reading.
func TestPlaces(t *testing.T) {
	for _, tc := range []struct {
		cmd   string
		bools map[string]string
		opt   []string
		want  map[string]string // slot → letters of its place
	}{
		{"grep -rnF {i} -e {phrase} {path}", map[string]string{"i": "-i"}, nil, map[string]string{"phrase": "DOS", "path": "S"}},
		{"grep -rn {pattern} {path}", nil, nil, map[string]string{"pattern": "DS", "path": "S"}},
		{"grep -rn -e x {p}", nil, nil, map[string]string{"p": "S"}},
		{"grep {p} -e x", nil, nil, map[string]string{"p": "S"}},   // options after operands still count
		{"grep {p} -f x .", nil, nil, map[string]string{"p": "S"}}, // -f gives the patterns
		{"grep --regexp={p} .", nil, nil, map[string]string{"p": "D"}},
		{"grep --regexp {p} .", nil, nil, map[string]string{"p": "DOS"}},
		{"grep --reg {p} .", nil, nil, map[string]string{"p": "S"}}, // an abbreviation: not certain
		{"grep -Q {p} .", nil, nil, map[string]string{"p": "S"}},    // a letter the grammar does not list
		{"grep -e{p} .", nil, nil, map[string]string{"p": "D"}},
		{"grep -ie{p} .", nil, nil, map[string]string{"p": "D"}},
		{"grep -m {n} -e {p} .", nil, nil, map[string]string{"n": "DOS", "p": "DOS"}},
		{"grep -- {p} .", nil, nil, map[string]string{"p": "DS"}},
		// A slot among the letters may spell one that takes the next word
		// (-nA {x}="A" takes "-e"): nothing after it is certain.
		{"grep -n{x} -e {p} .", nil, nil, map[string]string{"x": "", "p": "S"}},
		{"grep --count{x} -e {p} .", nil, nil, map[string]string{"x": "", "p": "S"}},
		{"grep -n -- -e {p}", nil, nil, map[string]string{"p": "DS"}}, // after --, -e is an operand
		{"grep {b} {p} .", map[string]string{"b": "-e"}, nil, map[string]string{"p": "DS"}},
		{"grep -e x {b} {p}", map[string]string{"b": "-f"}, nil, map[string]string{"p": "S"}},
		{"grep -e {a} {b} .", nil, []string{"a"}, map[string]string{"a": "DOS", "b": "S"}},
		{"grep -x{p} .", nil, nil, map[string]string{"p": ""}}, // x takes no value: the slot adds letters
		{"rg -e {p} .", nil, nil, map[string]string{"p": "DOS"}},
		{"rg -n {p} src", nil, nil, map[string]string{"p": "DS"}},
		{"find . -name {p}", nil, nil, map[string]string{"p": "S"}},
		{"git grep -e {p}", nil, nil, map[string]string{"p": "DOS"}}, // git grep's SubArgs list -e
		{"git log -e {p}", nil, nil, map[string]string{"p": "S"}},
		{"nosuchprogram -e {p}", nil, nil, map[string]string{"p": "S"}},
		{"tar tf {p}", nil, nil, map[string]string{"p": "S"}},
		{"cat {p}", nil, nil, map[string]string{"p": "S"}},
	} {
		s, tm := placeSpec(tc.cmd, tc.bools, tc.opt...)
		got := Places(s, tm)
		for name, want := range tc.want {
			p := got[name]
			var b strings.Builder
			for _, f := range []struct {
				on bool
				c  string
			}{{p.Data, "D"}, {p.OptionValue, "O"}, {p.StartsWord, "S"}} {
				if f.on {
					b.WriteString(f.c)
				}
			}
			if b.String() != want {
				t.Errorf("%s: slot %q is %q, want %q", tc.cmd, name, b.String(), want)
			}
		}
	}
}

// TestValueAtData attacks the rule of a text slot in a data place: what a
// code search needs passes, and every control, invisible or non-space
// white-space character, a leading '@' and (outside an option's value) a
// leading dash is still a 614; a string slot keeps the strict rule there.
func TestValueAtData(t *testing.T) {
	text := &tool.Arg{Name: "phrase", Type: tool.Text}
	value := Place{StartsWord: true, Data: true, OptionValue: true}
	operand := Place{StartsWord: true, Data: true}
	for _, v := range []string{
		"if err != nil; return", "it's", `"foo"`, "a && b", "x := <-ch", "-v x", "--help", "$HOME", "`id`",
		"a | b > c < d", "；｜＆＄＜＞＂＇", "日本語", "x@y", "{}", "e", "",
	} {
		if err := ValueAt(text, v, value); err != nil {
			t.Errorf("ValueAt(%q) as an option's value: %v", v, err)
		}
	}
	for _, v := range []string{
		"a\x00b", "a\tb", "a\nb", "a\rb", "\x1b[31m", "a\x7fb", "a\u0085b", "a\u009bb", "a\u200bb", "a\u200db",
		"\u202eevil", "a\u2066b", "\ufeffa", "a\u00adb", "a\u034fb", "a\u3000b", "a\u00a0b", "a\u2028b",
		"a\xffb", "\xc0\x80", "@args.txt", "@",
	} {
		if err := ValueAt(text, v, value); err == nil || err.Code != tool.CodeValue {
			t.Errorf("ValueAt(%q) as an option's value = %v, want a 614", v, err)
		}
	}
	for _, v := range []string{"-v x", "\u2212v", "--", "-"} {
		if err := ValueAt(text, v, operand); err == nil || !strings.Contains(err.Msg, "dash") {
			t.Errorf("ValueAt(%q) as an operand = %v, want the leading-dash 614", v, err)
		}
	}
	if err := ValueAt(text, "@x", Place{Data: true}); err != nil {
		t.Errorf("'@' inside a word (--regexp={x}): %v", err)
	}
	str := &tool.Arg{Name: "s", Type: tool.String}
	for _, v := range []string{"a && b", "it's", "a b", "-v"} {
		if err := ValueAt(str, v, value); err == nil {
			t.Errorf("a string slot in a data place takes %q", v)
		}
	}
	if err := ValueAt(text, "a && b", Place{StartsWord: true}); err == nil {
		t.Error("a text slot outside a data place takes \"a && b\"")
	}
}

// FuzzValueAtData: whatever a text value in a data place holds, an
// accepted one is valid UTF-8 with no control, invisible or non-space
// white-space character, begins with neither '@' nor (outside an option's
// value) a dash, and the same value in no data place is judged by the
// strict rule.
func FuzzValueAtData(f *testing.F) {
	for _, s := range []string{"if err != nil; return", "it's", "-v x", "@x", "a\u200bb", "a\tb", "\xff", "x := <-ch", "\u2212x"} {
		f.Add(s, true)
	}
	text := &tool.Arg{Name: "t", Type: tool.Text}
	f.Fuzz(func(t *testing.T, v string, optionValue bool) {
		err := ValueAt(text, v, Place{StartsWord: true, Data: true, OptionValue: optionValue})
		if strict := ValueAt(text, v, Place{StartsWord: true}); (strict == nil) != (Value(text, v, true) == nil) {
			t.Fatalf("ValueAt without a data place disagrees with Value on %q", v)
		}
		if err != nil {
			return
		}
		if !utf8.ValidString(v) {
			t.Fatalf("accepted invalid UTF-8 %q", v)
		}
		for _, r := range v {
			if r < 0x20 || r >= 0x7f && r <= 0x9f || r != ' ' && unicode.Is(unicode.White_Space, r) ||
				unicode.Is(unicode.Cf, r) || escape.DefaultIgnorable(r) {
				t.Fatalf("accepted %q holding U+%04X", v, r)
			}
		}
		first, _ := utf8.DecodeRuneInString(v)
		if v != "" && (first == '@' || !optionValue && dashLike(first)) {
			t.Fatalf("accepted %q at the start of a word", v)
		}
	})
}
