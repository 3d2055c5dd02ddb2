package validate

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// nastyValues seed the value and path fuzzers: every trick of DESIGN.md §5.1.
var nastyValues = []string{
	"", "a", "-rf", "--", "-", "./-rf", "...", "..test", "te..st", "%2e%2e", "*.go", `\bfoo\(`,
	"a=b", "x@y", "~", "#", "!", "{}", "[a-z]", "日本語", "café", "cafe\u0301",
	"'", "\"", "`", ";", "|", "&", "$", "<", ">", "$(id)", "`id`", "a;b", "a|b", "a&&b", "${IFS}",
	"\x00", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x7f", "\u0085",
	"\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
	"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202a", "\u202e", "\u2066", "\u2069",
	"；", "｜", "＆", "＄", "＜", "＞", "＂", "＇", "\ufe54", "\uff40", "\u037e", "\u00a8",
	"\u2010rf", "\u2011", "\u2212x", "\ufe63x", "\uff0dx", "\u207bx", "\u301cx",
	"\xff", "\xc0\xaf", "\xed\xa0\x80", "a\xc3", "<\u0338", "\uff1c\u0338",
	"1e", "1wout", "s#.*#x#e", "1,2p;e", "1,2", "0x10", "1.", ".5", "+1", "2.5",
	"..", "../x", "a/../../x", "/etc/passwd", "out", "out/x", "in/../out", "sub/up", "in/up/x",
	"dang", "dang/x", "sub/../../x", "sub/f", "new/x",
	// link/.. resolves physically (issue 13): the parent of the link's target.
	"out/..", "out/../root/sub/f", "in/..", "in/../sub/f", "sub/up/..", "dang/..", "dang/../x",
	"in/up/..", "new/../out", "sub/f/..", "./out/.", "in//up", "in/./up/../root",
}

func FuzzValue(f *testing.F) {
	for _, v := range nastyValues {
		f.Add(v, true)
		f.Add(v, false)
	}
	a := &tool.Arg{Name: "v", Type: tool.String}
	f.Fuzz(func(t *testing.T, v string, startsWord bool) {
		err := Value(a, v, startsWord)
		if err != nil {
			if err.Code != tool.CodeValue || err.Slot != "v" || err.Msg == "" {
				t.Fatalf("Value(%q) = %#v, want a 614 on slot v", v, err)
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("Value(%q): message is not valid UTF-8: %q", v, err.Error())
			}
			return
		}
		if !utf8.ValidString(v) {
			t.Fatalf("accepted invalid UTF-8 %q", v)
		}
		if bad := rejectedIn(v); bad >= 0 {
			t.Fatalf("accepted %q holding %U", v, bad)
		}
		if bad := rejectedIn(norm.NFKC.String(v)); bad >= 0 {
			t.Fatalf("accepted %q whose NFKC form holds %U", v, bad)
		}
		if startsWord {
			r, _ := utf8.DecodeRuneInString(v)
			if r == '-' || dashLike(r) {
				t.Fatalf("accepted %q at the start of a word", v)
			}
			if n, _ := utf8.DecodeRuneInString(norm.NFKC.String(v)); n == '-' {
				t.Fatalf("accepted %q at the start of a word: its NFKC form begins with '-'", v)
			}
		}
	})
}

// rejectedIn returns the first character of s that DESIGN.md §5.1 rejects
// outright (controls, white space, format characters, operators), or -1.
func rejectedIn(s string) rune {
	for _, r := range s {
		switch {
		case r < 0x20, r >= 0x7f && r <= 0x9f, strings.ContainsRune(operators, r),
			unicode.Is(unicode.White_Space, r), unicode.Is(unicode.Cf, r), escape.DefaultIgnorable(r):
			return r
		}
	}
	return -1
}

func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{
		"grep -rn {pattern} {path}", "sed -n {range}p {path}", "tool --x={a}", "tool {a}{b}",
		"tool {a", "tool a}", "tool {}", "tool {Bad}", "grep\t{p}", "grep  -rn  {p}", "grep ; rm",
		"grep ；", "{bin} x", "-x", "./bin/tool", "/usr/bin/grep", "tool {a}-x", "tool x{a}y{b}z",
		"", " ", "{", "}", "{}{}", "a {a} {a}", "tool {a}\u2013", "tool \u00a0", "tool \xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		tm, err := ParseTemplate(cmd)
		if err != nil {
			var te *tool.Error
			if !errors.As(err, &te) || te.Code != tool.CodeSpec || te.Field != "command" {
				t.Fatalf("ParseTemplate(%q) error %v is not a 613 on command", cmd, err)
			}
			if tm != nil {
				t.Fatalf("ParseTemplate(%q) returned a template with its error", cmd)
			}
			return
		}
		if len(tm.Words) == 0 || len(tm.Words[0]) != 1 || tm.Words[0][0].Slot != "" {
			t.Fatalf("ParseTemplate(%q): bad binary word %#v", cmd, tm.Words)
		}
		if strings.HasPrefix(tm.Binary(), "-") {
			t.Fatalf("ParseTemplate(%q): binary begins with '-'", cmd)
		}
		for _, w := range tm.Words {
			if len(w) == 0 {
				t.Fatalf("ParseTemplate(%q): empty word", cmd)
			}
			for i, p := range w {
				if (p.Lit == "") == (p.Slot == "") {
					t.Fatalf("ParseTemplate(%q): part %#v is neither literal nor slot", cmd, p)
				}
				if bad, ok := firstBadRune(p.Lit, false); ok {
					t.Fatalf("ParseTemplate(%q): literal %q holds %s", cmd, p.Lit, bad.message())
				}
				if strings.ContainsAny(strings.ReplaceAll(p.Lit, "{}", ""), "{}") {
					t.Fatalf("ParseTemplate(%q): literal %q holds a brace that is not part of a literal {}", cmd, p.Lit)
				}
				if i > 0 && p.Slot == "" && w[i-1].Slot == "" {
					t.Fatalf("ParseTemplate(%q): adjacent literal parts", cmd)
				}
				if p.Slot != "" && !isIdent(p.Slot) {
					t.Fatalf("ParseTemplate(%q): slot %q", cmd, p.Slot)
				}
				if i > 0 && p.Slot != "" && w[i-1].Slot != "" {
					t.Fatalf("ParseTemplate(%q): adjacent slots", cmd)
				}
			}
		}
		again, err := ParseTemplate(tm.String())
		if err != nil {
			t.Fatalf("ParseTemplate(%q).String() = %q does not reparse: %v", cmd, tm.String(), err)
		}
		if !reflect.DeepEqual(again, tm) {
			t.Fatalf("ParseTemplate(%q) = %#v, reparsed from %q = %#v", cmd, tm.Words, tm.String(), again.Words)
		}
	})
}

// fuzzWorkspace builds the workspace FuzzPath attacks:
//
//	root/sub/f
//	root/sub/up -> ../../outside  (escapes)
//	root/in     -> sub            (inside)
//	root/out    -> outside        (escapes)
//	root/dang   -> outside/missing (dangling, escapes)
func fuzzWorkspace(f *testing.F) (root string) {
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	root = filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "sub", "f"), nil, 0o644); err != nil {
		f.Fatal(err)
	}
	for link, target := range map[string]string{
		"sub/up": "../../outside",
		"in":     "sub",
		"out":    outside,
		"dang":   filepath.Join(outside, "missing"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			f.Skipf("symlinks unavailable: %v", err)
		}
	}
	return root
}

func FuzzPath(f *testing.F) {
	root := fuzzWorkspace(f)
	for _, v := range nastyValues {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, err := Path("p", v, root)
		if err != nil {
			if err.Code != tool.CodeValue || err.Slot != "p" {
				t.Fatalf("Path(%q) = %#v, want a 614 on slot p", v, err)
			}
			if strings.Contains(err.Msg, root) && !strings.Contains(v, root) {
				t.Fatalf("Path(%q): message %q reveals the workspace", v, err.Msg)
			}
			return
		}
		if r, _ := utf8.DecodeRuneInString(got); dashLike(r) {
			t.Fatalf("Path(%q) = %q begins with a dash", v, got)
		}
		if filepath.IsAbs(got) || got == ".." || strings.HasPrefix(got, "../") || got == "" {
			t.Fatalf("Path(%q) = %q is not a relative path inside the workspace", v, got)
		}
		if got != v && got != "./"+v {
			t.Fatalf("Path(%q) = %q: the value that runs must be the value checked", v, got)
		}
		// Oracle 1, structural: the only ways out are through out, dang
		// and sub/up (also reached as in/up); a lexical view cannot be
		// fooled into accepting them.
		elems := strings.Split(filepath.Clean(got), "/")
		if elems[0] == "in" {
			elems[0] = "sub"
		}
		if elems[0] == "out" || elems[0] == "dang" || (len(elems) > 1 && elems[0] == "sub" && elems[1] == "up") {
			t.Fatalf("Path(%q) = %q escapes the workspace", v, got)
		}
		// Oracle 2, the kernel itself: open the path as the command will
		// (the raw string, never filepath.Join, which would clean "link/.."
		// away) and ask where it landed.
		landed, opened, err2 := kernelOpens(root + "/" + got) // fuzz_linux_test.go
		if err2 != nil {
			t.Skipf("no /proc: %v", err2)
		}
		if !opened {
			return // nothing there (yet), or no way to ask: the structural oracle and the walk decide
		}
		if !within.Clean(root, landed) {
			t.Fatalf("Path(%q) = %q: the kernel opens %s, outside %s", v, got, landed, root)
		}
		if walked, err2 := resolve(root, got); err2 != nil || walked != landed {
			t.Fatalf("resolve(%q) = %q, %v; the kernel opens %s", got, walked, err2, landed)
		}
	})
}

func FuzzSpec(f *testing.F) {
	f.Add("search_text", "Search", "grep -rn {pattern} {path}", "pattern", "string", "d", true, "", false, "", "", "path", "path", ".", true)
	f.Add("sed_print", "Print", "sed -n {range}p {path}", "range", "string", "d", true, "", false, "", `[0-9]+(,[0-9]+)?`, "path", "path", "", false)
	f.Add("Bad", "", "rm {a}{b}", "a", "pth", "", true, "x", true, "a;b,-x", "(?=x)", "a", "integer", "-1", true)
	f.Add("x", "d", "tool {a}", "a", "integer", "d", false, "3", true, "1,2", "[0-9]", "b", "number", "1e3", true)
	f.Add("x", "d", "tool {a} {b}", "a", "path", "d", false, "/etc", true, "..,a/../../x,.", `\Qa`, "b", "", "", false)
	f.Add("x", "d", "python3 {a}", "a", "string", "d", false, "\u3000", true, "；,\x00", "a(", "a", "string", "x", true)
	f.Fuzz(func(t *testing.T, name, desc, cmd, a1, t1, d1 string, req1 bool, def1 string, has1 bool, enum1, pat1, a2, t2, def2 string, has2 bool) {
		var enum []string
		if enum1 != "" {
			enum = strings.Split(enum1, ",")
		}
		s := tool.Spec{Name: name, Description: desc, Command: cmd, Args: []tool.Arg{
			{Name: a1, Type: tool.ArgType(t1), Description: d1, Required: req1, Default: def1, HasDefault: has1, Enum: enum, Pattern: pat1},
			{Name: a2, Type: tool.ArgType(t2), Description: "second", Default: def2, HasDefault: has2},
		}}
		tm, err := Spec(&s)
		if err != nil {
			if tm != nil {
				t.Fatal("a template came back with the error")
			}
			for _, e := range flatten(err) {
				var te *tool.Error
				if !errors.As(e, &te) || te.Code != tool.CodeSpec {
					t.Fatalf("error %v is not a 613", e)
				}
			}
			return
		}
		// An accepted Spec's defaults and enum values pass the value rules
		// wherever their slot stands.
		for _, a := range s.Args {
			sw := tm.StartsWord(a.Name)
			if a.HasDefault {
				if e := Value(&a, a.Default, sw); e != nil {
					t.Fatalf("accepted default %q of %q: %v", a.Default, a.Name, e)
				}
			}
			for _, v := range a.Enum {
				if e := Value(&a, v, sw); e != nil {
					t.Fatalf("accepted enum value %q of %q: %v", v, a.Name, e)
				}
			}
		}
		if _, denied := programs.DefaultDenyList().Match(tm.Binary()); denied {
			t.Fatalf("accepted denied binary %q", tm.Binary())
		}
	})
}

// flatten returns the leaves of a tree of joined errors.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}
