package validate

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// grepSpec returns a valid Spec to break one field at a time.
func grepSpec() tool.Spec {
	return tool.Spec{
		Name:        "search_text",
		Description: "Search text in workspace files",
		Command:     "grep -rn {pattern} {path}",
		Args: []tool.Arg{
			{Name: "pattern", Type: tool.String, Description: "Text pattern to search", Required: true},
			{Name: "path", Type: tool.Path, Description: "Directory or file to search", Default: ".", HasDefault: true},
		},
	}
}

// specErrors flattens the error of Spec into its *tool.Error values, each
// checked to be a 613.
func specErrors(t *testing.T, err error) []*tool.Error {
	t.Helper()
	var out []*tool.Error
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		out = append(out, asToolError(t, err, tool.CodeSpec))
	}
	walk(err)
	return out
}

// fields returns the sorted Field of each error.
func fields(errs []*tool.Error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Field)
	}
	sort.Strings(out)
	return out
}

func TestSpecValid(t *testing.T) {
	for _, s := range []tool.Spec{
		grepSpec(),
		{Name: "sed_print", Description: "Print lines", Command: "sed -n {range}p {path}", Args: []tool.Arg{
			{Name: "range", Type: tool.String, Description: "N or N,M", Required: true, Pattern: `[0-9]+(,[0-9]+)?`},
			{Name: "path", Type: tool.Path, Description: "File", Required: true},
		}},
		{Name: "find_files", Description: "Find files", Command: "find {path} -name {pattern}", Args: []tool.Arg{
			{Name: "path", Type: tool.Path, Description: "Where", Default: ".", HasDefault: true},
			{Name: "pattern", Type: tool.String, Description: "Glob", Default: "*.go", HasDefault: true},
		}},
		{Name: "head_n", Description: "First lines", Command: "head -n {n} --mode={mode} {file}", Args: []tool.Arg{
			{Name: "n", Type: tool.Integer, Description: "Count", Default: "10", HasDefault: true, Enum: []string{"10", "20"}},
			{Name: "mode", Type: tool.String, Description: "Mode", Enum: []string{"fast", "-slow"}}, // not at a word start: '-' is fine
			{Name: "file", Type: tool.Path, Description: "File", Default: "src/../README.md", HasDefault: true},
		}},
		{Name: "log_n", Description: "Last commits", Command: "git log -{n} --format={fmt} -e{re} -{mode}", Args: []tool.Arg{
			{Name: "n", Type: tool.Integer, Description: "How many", Default: "5", HasDefault: true}, // -5: digits name no option
			{Name: "fmt", Type: tool.String, Description: "Format", Default: "oneline", HasDefault: true},
			{Name: "re", Type: tool.String, Description: "Not after the dash itself", Default: "x", HasDefault: true},
			{Name: "mode", Type: tool.String, Description: "Option chosen by the author", Default: "p", HasDefault: true, Enum: []string{"p", "s"}},
		}},
		// git's own options: a fixed -c, an enum of whole settings, and
		// a slot after the subcommand (log -c is the combined diff).
		{Name: "git_fixed_c", Description: "Log", Command: "git -c color.ui=never -c {cfg} log -c -n {n} -- {path}", Args: []tool.Arg{
			{Name: "cfg", Type: tool.String, Description: "Setting", Default: "core.quotepath=off", HasDefault: true,
				Enum: []string{"core.quotepath=off", "log.decorate=short"}},
			{Name: "n", Type: tool.Integer, Description: "How many", Default: "5", HasDefault: true},
			{Name: "path", Type: tool.Path, Description: "Where", Default: ".", HasDefault: true},
		}},
		{Name: "git_dir_c", Description: "Log", Command: "git -C {dir} log --grep {c}", Args: []tool.Arg{
			{Name: "dir", Type: tool.Path, Description: "Repository", Default: ".", HasDefault: true},
			{Name: "c", Type: tool.String, Description: "Message text", Required: true},
		}},
		{Name: "ls", Description: "List", Command: "ls"},
		{Name: strings.Repeat("a", MaxNameLen), Description: "Long name", Command: "ls"},
		{Name: "scale", Description: "Scale", Command: "tool {x}", Args: []tool.Arg{
			{Name: "x", Type: tool.Number, Description: "Factor", Default: "2.5", HasDefault: true, Pattern: `[0-9.]+`},
		}},
	} {
		tm, err := Spec(&s)
		if err != nil {
			t.Errorf("Spec(%s): %v", s.Name, err)
			continue
		}
		if tm == nil || tm.String() == "" {
			t.Errorf("Spec(%s) returned no template", s.Name)
		}
	}
}

func TestSpecNil(t *testing.T) {
	tm, err := Spec(nil)
	if tm != nil || err == nil {
		t.Fatalf("Spec(nil) = %v, %v", tm, err)
	}
	asToolError(t, err, tool.CodeSpec)
}

// TestSpecRules breaks one rule at a time and checks the field and message of
// every error reported.
func TestSpecRules(t *testing.T) {
	type want struct{ field, msg string }
	for _, tc := range []struct {
		name   string
		modify func(s *tool.Spec)
		want   []want
	}{
		{"name missing", func(s *tool.Spec) { s.Name = "" }, []want{{"name", "tool name is missing"}}},
		{"name upper", func(s *tool.Spec) { s.Name = "Search" }, []want{{"name", `tool name "Search" is not valid`}}},
		{"name digit first", func(s *tool.Spec) { s.Name = "1search" }, []want{{"name", "is not valid"}}},
		{"name dash", func(s *tool.Spec) { s.Name = "search-text" }, []want{{"name", "is not valid"}}},
		{"name space", func(s *tool.Spec) { s.Name = "search text" }, []want{{"name", "is not valid"}}},
		{"name non-ASCII", func(s *tool.Spec) { s.Name = "séarch" }, []want{{"name", "is not valid"}}},
		{"name trailing newline", func(s *tool.Spec) { s.Name = "search\n" }, []want{{"name", "is not valid"}}},
		{"name too long", func(s *tool.Spec) { s.Name = strings.Repeat("a", MaxNameLen+1) }, []want{{"name", "longer than 64 characters"}}},
		{"description missing", func(s *tool.Spec) { s.Description = "" }, []want{{"description", "description is missing"}}},
		{"description blank", func(s *tool.Spec) { s.Description = " \t\n" }, []want{{"description", "description is blank"}}},
		{"command empty", func(s *tool.Spec) { s.Command = "" }, []want{{"command", "template is empty"}}},
		{"command operator", func(s *tool.Spec) { s.Command = "grep -rn {pattern} {path} ; id" }, []want{{"command", "U+003B SEMICOLON"}}},
		{"command quotes a slot", func(s *tool.Spec) { s.Command = `grep -rn "{pattern}" {path}` },
			[]want{{"command", "a slot needs no quotes: its value is always exactly one argument"}}},
		{"command single-quotes a slot", func(s *tool.Spec) { s.Command = `grep -rn '{pattern}' {path}` },
			[]want{{"command", "a slot needs no quotes"}}},
		{"undeclared slot", func(s *tool.Spec) { s.Command = "grep -rn {pattern} {path} {extra}" },
			[]want{{"command", "slot {extra} is used in the template but not declared in arguments"}}},
		{"unused slot", func(s *tool.Spec) { s.Command = "grep -rn {pattern} ." },
			[]want{{"arguments.path", `slot "path" is declared but not used in the template`}}},
		{"duplicate slot", func(s *tool.Spec) { s.Args = append(s.Args, s.Args[0]) },
			[]want{{"arguments.pattern", `slot "pattern" is declared twice`}}},
		{"slot name invalid", func(s *tool.Spec) { s.Command = "grep {Pattern}"; s.Args = s.Args[:1]; s.Args[0].Name = "Pattern" },
			[]want{{"command", "{Pattern} is not a slot name"}, {"arguments.Pattern", `slot name "Pattern" is not valid`}}},
		{"slot name too long", func(s *tool.Spec) {
			n := strings.Repeat("p", MaxNameLen+1)
			s.Command = "grep {" + n + "} {path}"
			s.Args[0].Name = n
		}, []want{{"arguments." + strings.Repeat("p", MaxNameLen+1), "longer than 64"}}},
		{"slot names an option", func(s *tool.Spec) { s.Command = "find {path} -{pattern}" },
			[]want{{"arguments.pattern", `template word "-{pattern}" puts the slot right after its dashes`}}},
		{"slot names a long option", func(s *tool.Spec) { s.Command = "grep --{pattern}=x {path}" },
			[]want{{"arguments.pattern", `template word "--{pattern}=x" puts the slot right after its dashes`}}},
		{"path slot names an option", func(s *tool.Spec) { s.Command = "grep {pattern} -{path}" },
			[]want{{"arguments.path", "the value would name the option"}}},
		// git -c core.fsmonitor=reboot status runs reboot: -c beats the
		// configuration the kernel forces.
		{"slot is git's -c value", func(s *tool.Spec) { s.Command = "git -c {pattern} grep -n x -- {path}" },
			[]want{{"arguments.pattern", "it is the value of git's -c, which sets configuration for the run"}}},
		{"slot inside git's -c value", func(s *tool.Spec) { s.Command = "git -c core.pager={pattern} log -- {path}" },
			[]want{{"arguments.pattern", "it is the value of git's -c"}}},
		{"slot in git's --config-env=", func(s *tool.Spec) { s.Command = "git --config-env={pattern} log -- {path}" },
			[]want{{"arguments.pattern", "git's --config-env"}}},
		{"slot after git's --config-env", func(s *tool.Spec) { s.Command = "git --config-env {pattern} log -- {path}" },
			[]want{{"arguments.pattern", "git's --config-env"}}},
		{"slot in git's --exec-path=", func(s *tool.Spec) { s.Command = "git --exec-path={pattern} log -- {path}" },
			[]want{{"arguments.pattern", "chooses the directory git runs its own programs from"}}},
		{"slot after -C, then -c", func(s *tool.Spec) { s.Command = "git -C {path} -c {pattern} log" },
			[]want{{"arguments.pattern", "git's -c"}}},
		{"git through a path", func(s *tool.Spec) { s.Command = "/usr/bin/git -c {pattern} log -- {path}" },
			[]want{{"arguments.pattern", "git's -c"}}},
		{"type missing", func(s *tool.Spec) { s.Args[0].Type = "" }, []want{{"arguments.pattern.type", "type is missing"}}},
		{"type unknown", func(s *tool.Spec) { s.Args[1].Type = "pth" }, []want{{"arguments.path.type", `unknown type "pth"`}}},
		{"slot description missing", func(s *tool.Spec) { s.Args[0].Description = "" },
			[]want{{"arguments.pattern.description", "description is missing"}}},
		{"pattern lookahead", func(s *tool.Spec) { s.Args[0].Pattern = `(?=x)` },
			[]want{{"arguments.pattern.pattern", "not a valid RE2 expression"}}},
		{"pattern unbalanced", func(s *tool.Spec) { s.Args[0].Pattern = `a(` },
			[]want{{"arguments.pattern.pattern", "not a valid RE2 expression"}}},
		{"pattern backreference", func(s *tool.Spec) { s.Args[0].Pattern = `(a)\1` },
			[]want{{"arguments.pattern.pattern", "not a valid RE2 expression"}}},
		{"enum value with operator", func(s *tool.Spec) { s.Args[0].Enum = []string{"ok", "a;b"} },
			[]want{{"arguments.pattern.enum.1", `enum value "a;b" is not a valid value`}}},
		{"enum value with space", func(s *tool.Spec) { s.Args[0].Enum = []string{"a b", "ok"} },
			[]want{{"arguments.pattern.enum.0", "U+0020 SPACE"}}},
		{"enum value with leading dash at a word start", func(s *tool.Spec) { s.Args[0].Enum = []string{"ok", "--exec"} },
			[]want{{"arguments.pattern.enum.1", "would be read as an option"}}},
		{"enum value failing the pattern", func(s *tool.Spec) { s.Args[0].Enum = []string{"1", "x"}; s.Args[0].Pattern = `[0-9]+` },
			[]want{{"arguments.pattern.enum.1", "does not match the required pattern"}}},
		{"enum value not an integer", func(s *tool.Spec) { s.Args[0].Type = tool.Integer; s.Args[0].Enum = []string{"1", "2.5", "3"} },
			[]want{{"arguments.pattern.enum.1", "not a non-negative integer"}}},
		{"enum path absolute", func(s *tool.Spec) { s.Args[1].Enum = []string{".", "/etc"}; s.Args[1].HasDefault = false },
			[]want{{"arguments.path.enum.1", "is absolute"}}},
		{"default not in enum", func(s *tool.Spec) { s.Args[1].Enum = []string{"src", "docs"} },
			[]want{{"arguments.path.default", `default "." is not a valid value: value "." is not one of the allowed values: "src", "docs"`}}},
		{"default failing the pattern", func(s *tool.Spec) {
			s.Args[0].Required = false
			s.Args[0].Pattern = `[0-9]+`
			s.Args[0].Default, s.Args[0].HasDefault = "abc", true
		}, []want{{"arguments.pattern.default", "does not match the required pattern"}}},
		{"default with operator", func(s *tool.Spec) { s.Args[1].Default = "a|b" }, []want{{"arguments.path.default", "U+007C VERTICAL LINE"}}},
		{"default with leading dash", func(s *tool.Spec) { s.Args[1].Default = "-rf" }, []want{{"arguments.path.default", "would be read as an option"}}},
		{"path default absolute", func(s *tool.Spec) { s.Args[1].Default = "/etc" }, []want{{"arguments.path.default", "is absolute"}}},
		{"path default ..", func(s *tool.Spec) { s.Args[1].Default = ".." }, []want{{"arguments.path.default", "climbs out of the workspace"}}},
		{"path default a/../../x", func(s *tool.Spec) { s.Args[1].Default = "a/../../x" }, []want{{"arguments.path.default", "climbs out of the workspace"}}},
		{"path default empty", func(s *tool.Spec) { s.Args[1].Default = "" }, []want{{"arguments.path.default", "path is empty"}}},
		{"integer default", func(s *tool.Spec) {
			s.Command = "grep -m {n} {pattern} {path}"
			s.Args = append(s.Args, tool.Arg{Name: "n", Type: tool.Integer, Description: "max", Default: "-1", HasDefault: true})
		}, []want{{"arguments.n.default", "would be read as an option"}}},
		{"number default", func(s *tool.Spec) {
			s.Command = "grep --x={x} {pattern} {path}"
			s.Args = append(s.Args, tool.Arg{Name: "x", Type: tool.Number, Description: "x", Default: "1e3", HasDefault: true})
		}, []want{{"arguments.x.default", "not a non-negative number"}}},
		{"required with default", func(s *tool.Spec) { s.Args[0].Default, s.Args[0].HasDefault = "x", true },
			[]want{{"arguments.pattern.default", "a required slot cannot have a default"}}},
		{"denied binary", func(s *tool.Spec) { s.Command = "rm -rf {pattern} {path}" },
			[]want{{"command", `binary "rm" is on the deny list (entry "rm")`}}},
		{"denied binary by path", func(s *tool.Spec) { s.Command = "/usr/bin/../bin/Bash -c {pattern} {path}" },
			[]want{{"command", `(entry "bash")`}}},
		{"denied interpreter", func(s *tool.Spec) { s.Command = "python3.11 -c {pattern} {path}" },
			[]want{{"command", `(entry "python*")`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := grepSpec()
			tc.modify(&s)
			tm, err := Spec(&s)
			if err == nil {
				t.Fatalf("accepted: %v", tm)
			}
			if tm != nil {
				t.Errorf("a template came back with the error")
			}
			errs := specErrors(t, err)
			if len(errs) != len(tc.want) {
				t.Errorf("%d errors, want %d:\n%v", len(errs), len(tc.want), err)
			}
			for _, w := range tc.want {
				found := false
				for _, e := range errs {
					if e.Field == w.field && strings.Contains(e.Msg, w.msg) {
						found = true
					}
				}
				if !found {
					t.Errorf("no error on field %q containing %q; got:\n%v", w.field, w.msg, err)
				}
			}
		})
	}
}

// TestSpecReportsAll checks that every problem is reported at once, not only
// the first.
func TestSpecReportsAll(t *testing.T) {
	s := tool.Spec{
		Name:        "Bad-Name",
		Description: "",
		Command:     "rm {a} {undeclared} {b}",
		Args: []tool.Arg{
			{Name: "a", Type: "pth", Description: ""},                                                                             // unknown type, no description
			{Name: "b", Type: tool.String, Description: "b", Pattern: "(?=x)"},                                                    // bad pattern
			{Name: "c", Type: tool.Path, Description: "c", Default: "/abs", HasDefault: true},                                     // unused, absolute default
			{Name: "d", Type: tool.String, Description: "d", Required: true, Default: "x", HasDefault: true, Enum: []string{"y"}}, // unused, required+default, default not in enum
			{Name: "b", Type: tool.String, Description: "b again"},                                                                // duplicate
		},
	}
	tm, err := Spec(&s)
	if tm != nil || err == nil {
		t.Fatalf("Spec = %v, %v", tm, err)
	}
	got := fields(specErrors(t, err))
	want := []string{
		"arguments.a.description",
		"arguments.a.type",
		"arguments.b",         // declared twice
		"arguments.b.pattern", // (?=x)
		"arguments.c",         // unused
		"arguments.c.default", // absolute
		"arguments.d",         // unused
		"arguments.d.default", // required with a default
		"arguments.d.default", // not in enum
		"command",             // deny list
		"command",             // {undeclared}
		"description",
		"name",
	}
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields:\n got  %q\n want %q\nerror:\n%v", got, want, err)
	}
	// The joined error is still a 613 for errors.As and tool.CodeOf.
	var te *tool.Error
	if !errors.As(err, &te) || te.Code != tool.CodeSpec || tool.CodeOf(err) != tool.CodeSpec {
		t.Errorf("errors.As / CodeOf on the joined error: %v", err)
	}
}

func TestSpecDenyListOption(t *testing.T) {
	s := grepSpec()
	s.Command = "rm -f {pattern} {path}"
	if _, err := Spec(&s); err == nil {
		t.Fatal("rm allowed by the default deny list")
	}
	if _, err := Spec(&s, WithDenyList(programs.DefaultDenyList().Without("rm"))); err != nil {
		t.Errorf("rm still denied after Without: %v", err)
	}
	if _, err := Spec(&s, WithDenyList(programs.DenyList{})); err != nil {
		t.Errorf("the zero DenyList denies %v", err)
	}
	g := grepSpec()
	if _, err := Spec(&g, WithDenyList(programs.DefaultDenyList().With("grep"))); err == nil {
		t.Error("grep allowed after With(grep)")
	}
	// The last option wins.
	if _, err := Spec(&s, WithDenyList(programs.DenyList{}), WithDenyList(programs.DefaultDenyList())); err == nil {
		t.Error("the last WithDenyList did not win")
	}
}

// Spec does not modify the Spec it checks.
func TestSpecDoesNotModify(t *testing.T) {
	s := grepSpec()
	s.Args[0].Enum = []string{"a", "b"}
	s.Args[0].Required = false
	s.Args[0].Default, s.Args[0].HasDefault = "c", true
	before := grepSpec()
	before.Args[0].Enum = []string{"a", "b"}
	before.Args[0].Required = false
	before.Args[0].Default, before.Args[0].HasDefault = "c", true
	Spec(&s)
	if !reflect.DeepEqual(s, before) {
		t.Errorf("Spec modified its argument:\n%+v\n%+v", s, before)
	}
}

// TestSpecMessages pins the exact wording of a few 613s.
func TestSpecMessages(t *testing.T) {
	for _, tc := range []struct {
		modify func(s *tool.Spec)
		want   string
	}{
		{func(s *tool.Spec) { s.Name = "Search" }, `error 613: tool name "Search" is not valid: want lower-case letters, digits and _, starting with a letter (^[a-z][a-z0-9_]*$)`},
		{func(s *tool.Spec) { s.Args[1].Type = "pth" }, `error 613: slot "path": unknown type "pth" (want string, text, integer, number, path or boolean)`},
		{func(s *tool.Spec) { s.Command = "rm {pattern} {path}" }, `error 613: binary "rm" is on the deny list (entry "rm")`},
		{func(s *tool.Spec) { s.Args[1].Default = "../x" }, `error 613: slot "path": default "../x" is not a valid value: path "../x" climbs out of the workspace with ..; give a path inside it`},
		{func(s *tool.Spec) { s.Args[0].Enum = []string{"ok", "a;b"} }, `error 613: slot "pattern": enum value "a;b" is not a valid value: character ';' (U+003B SEMICOLON) at byte offset 1 is not allowed: shell operator and quote characters (' " ` + "`" + ` ; | & $ < >) are rejected`},
	} {
		s := grepSpec()
		tc.modify(&s)
		_, err := Spec(&s)
		if err == nil {
			t.Errorf("accepted, want %s", tc.want)
			continue
		}
		if got := err.Error(); got != tc.want {
			t.Errorf("\n got  %s\n want %s", got, tc.want)
		}
	}
}
