package validate

import (
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestTextValue attacks a text slot's value rule: plain spaces pass, and
// everything else a string refuses is still refused, with its code point.
func TestTextValue(t *testing.T) {
	a := &tool.Arg{Name: "phrase", Type: tool.Text}
	for _, v := range []string{"func main", "a  b", " lead", "trail ", " ", "日本 語", "*.go x", `\bfoo\( bar`, "a-b c", "x -rf"} {
		if err := Value(a, v, true); err != nil {
			t.Errorf("Value(text, %q) = %v, want accepted", v, err)
		}
	}
	for _, c := range []struct{ v, want string }{
		{"func\tmain", `character U+0009 CHARACTER TABULATION at byte offset 4 is not allowed: control characters are rejected`},
		{"a\nb", `character U+000A LINE FEED at byte offset 1 is not allowed: control characters are rejected`},
		{"a\rb", `U+000D CARRIAGE RETURN`},
		{"a\u0085b", `U+0085 NEXT LINE at byte offset 1 is not allowed: control characters are rejected`},
		{"a\u00a0b", `character U+00A0 NO-BREAK SPACE at byte offset 1 is not allowed: the only white space a text value may hold is the plain space U+0020`},
		{"a\u3000b", `U+3000 IDEOGRAPHIC SPACE at byte offset 1 is not allowed: the only white space a text value may hold is the plain space U+0020`},
		{"a\u2028b", `U+2028 LINE SEPARATOR`},
		{"a\u2009b", `U+2009 THIN SPACE`},
		{"a\u200bb", `U+200B ZERO WIDTH SPACE at byte offset 1 is not allowed: invisible format characters`},
		{"a\u202eb", `U+202E RIGHT-TO-LEFT OVERRIDE`},
		{"\ufeffa b", `U+FEFF ZERO WIDTH NO-BREAK SPACE`},
		{"a ; id", `';' (U+003B SEMICOLON) at byte offset 2 is not allowed: shell operator and quote characters`},
		{"a | b", `'|' (U+007C VERTICAL LINE)`},
		{"it's", `'\'' (U+0027 APOSTROPHE)`},
		{"a $(id)", `'$' (U+0024 DOLLAR SIGN)`},
		{"a \uff1b id", `'；' (U+FF1B FULLWIDTH SEMICOLON) at byte offset 2 is not allowed: it is a lookalike of ";" (NFKC)`},
		{"a \uff1e b", `U+FF1E FULLWIDTH GREATER-THAN SIGN`},
		{"-rf x", `value "-rf x" begins with '-' and would be read as an option`},
		{"\u2010rf x", `value "‐rf x" begins with '‐' (U+2010 HYPHEN), a lookalike of '-',`},
		{"\uff0drf x", `U+FF0D FULLWIDTH HYPHEN-MINUS`},
		{"a\xffb", `invalid UTF-8 (byte 0xFF) at byte offset 1`},
	} {
		err := Value(a, c.v, true)
		if err == nil || err.Code != tool.CodeValue || err.Slot != "phrase" || !strings.Contains(err.Msg, c.want) {
			t.Errorf("Value(text, %q) = %v, want a 614 on slot phrase containing %q", c.v, err, c.want)
		}
	}
	// A string keeps the one-word rule.
	if err := Value(&tool.Arg{Name: "w", Type: tool.String}, "func main", false); err == nil ||
		!strings.Contains(err.Msg, "a value is one word and may not contain white space") {
		t.Errorf("string value with a space: %v, want refused", err)
	}
	// Not starting a word, a text value may begin with a dash, as a string may.
	if err := Value(a, "-x y", false); err != nil {
		t.Errorf("Value(text, \"-x y\") inside a word: %v", err)
	}
}

// TestBooleanValue: a boolean's text is true or false, nothing else.
func TestBooleanValue(t *testing.T) {
	a := &tool.Arg{Name: "ic", Type: tool.Boolean, Flag: "-i"}
	for _, v := range []string{"true", "false"} {
		if err := Value(a, v, true); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
	for _, v := range []string{"", "1", "yes", "True", "-i", "true ", "\u200btrue"} {
		if err := Value(a, v, true); err == nil || err.Code != tool.CodeValue {
			t.Errorf("Value(boolean, %q) = %v, want a 614", v, err)
		}
	}
}

// boolSpec is a valid Spec with a boolean slot, to break one thing at a time.
func boolSpec() tool.Spec {
	return tool.Spec{
		Name: "search", Description: "Search", Command: "grep -rn {ignore_case} -e {phrase} .",
		Args: []tool.Arg{
			{Name: "ignore_case", Type: tool.Boolean, Description: "Ignore case", Flag: "-i"},
			{Name: "phrase", Type: tool.Text, Description: "Phrase", Required: true},
		},
	}
}

// TestSlotTypeSpecs pins the exact 613 of each way to get a boolean or
// text slot, a glued optional slot or the output limit wrong.
func TestSlotTypeSpecs(t *testing.T) {
	for _, c := range []struct {
		name  string
		edit  func(s *tool.Spec)
		field string
		want  string
	}{
		{"no flag", func(s *tool.Spec) { s.Args[0].Flag = "" }, "arguments.ignore_case.flag",
			`slot "ignore_case": a boolean slot needs a "flag": the option its word becomes when the value is true, such as "-i"`},
		{"flag --", func(s *tool.Spec) { s.Args[0].Flag = "--" }, "arguments.ignore_case.flag",
			`slot "ignore_case": flag "--" is not an option: want one option literal that begins with '-', such as "-i" or "--ignore-case"`},
		{"flag -", func(s *tool.Spec) { s.Args[0].Flag = "-" }, "arguments.ignore_case.flag", `flag "-" is not an option`},
		{"flag without dash", func(s *tool.Spec) { s.Args[0].Flag = "i" }, "arguments.ignore_case.flag", `flag "i" is not an option`},
		{"fullwidth dash", func(s *tool.Spec) { s.Args[0].Flag = "\uff0di" }, "arguments.ignore_case.flag", `flag "－i" is not an option`},
		{"unicode dash", func(s *tool.Spec) { s.Args[0].Flag = "\u2010i" }, "arguments.ignore_case.flag", `flag "‐i" is not an option`},
		{"two options", func(s *tool.Spec) { s.Args[0].Flag = "-i -v" }, "arguments.ignore_case.flag",
			`slot "ignore_case": flag "-i -v" holds a space: a flag is one option, one word of the command; for two options, declare two boolean slots`},
		{"NBSP", func(s *tool.Spec) { s.Args[0].Flag = "-i\u00a0-v" }, "arguments.ignore_case.flag", `U+00A0 NO-BREAK SPACE`},
		{"operator", func(s *tool.Spec) { s.Args[0].Flag = "-i;id" }, "arguments.ignore_case.flag", `flag "-i;id": character ';' (U+003B SEMICOLON)`},
		{"fullwidth operator", func(s *tool.Spec) { s.Args[0].Flag = "-i\uff5cx" }, "arguments.ignore_case.flag", `U+FF5C FULLWIDTH VERTICAL LINE`},
		{"tab", func(s *tool.Spec) { s.Args[0].Flag = "-i\t" }, "arguments.ignore_case.flag", `U+0009 CHARACTER TABULATION`},
		{"brace", func(s *tool.Spec) { s.Args[0].Flag = "-{phrase}" }, "arguments.ignore_case.flag",
			`slot "ignore_case": flag "-{phrase}" holds a brace: a flag is fixed option text, with no {slot}`},
		{"enum", func(s *tool.Spec) { s.Args[0].Enum = []string{"true"} }, "arguments.ignore_case.enum",
			`slot "ignore_case": a boolean slot has no enum: its values are true and false`},
		{"pattern", func(s *tool.Spec) { s.Args[0].Pattern = "true" }, "arguments.ignore_case.pattern",
			`slot "ignore_case": a boolean slot has no pattern: its values are true and false`},
		{"default", func(s *tool.Spec) { s.Args[0].Default, s.Args[0].HasDefault = "yes", true }, "arguments.ignore_case.default",
			`slot "ignore_case": default "yes" is not a valid value: value "yes" is not a boolean: want true or false`},
		{"glued boolean", func(s *tool.Spec) { s.Command = "grep -rn{ignore_case} -e {phrase} ." }, "arguments.ignore_case",
			`slot "ignore_case": template word "-rn{ignore_case}": a boolean slot is a whole word, {ignore_case} alone, which becomes its flag ("-i") when true and is dropped otherwise; write the other text as its own word`},
		{"boolean after text", func(s *tool.Spec) { s.Command = "grep -rn x{ignore_case} -e {phrase} ." }, "arguments.ignore_case", `template word "x{ignore_case}": a boolean slot is a whole word`},
		{"flag on text", func(s *tool.Spec) { s.Args[1].Flag = "-e" }, "arguments.phrase.flag",
			`slot "phrase": only a boolean slot has a flag (this one is of type text)`},
		{"text default tab", func(s *tool.Spec) { s.Args[1].Required, s.Args[1].Default, s.Args[1].HasDefault = false, "a\tb", true }, "arguments.phrase.default",
			`slot "phrase": default "a\tb" is not a valid value: character U+0009 CHARACTER TABULATION`},
		{"text naming an option", func(s *tool.Spec) { s.Command = "grep -rn {ignore_case} --{phrase}=x ." }, "arguments.phrase",
			`slot "phrase": template word "--{phrase}=x" puts the slot right after its dashes`},
		{"glued optional", func(s *tool.Spec) {
			s.Command = "grep -rn{x} -e {phrase} ."
			s.Args[0] = tool.Arg{Name: "x", Type: tool.String, Description: "i", Enum: []string{"i"}}
		}, "arguments.x",
			`slot "x": template word "-rn{x}": the slot is optional without a default, so when it is left out the whole word is dropped, and with it "-rn", which is an option of its own; write "-rn" as a word of its own, make the slot a boolean (its word becomes a fixed "flag" when true), give it a default, or make it required`},
		{"glued long option", func(s *tool.Spec) {
			s.Command = "grep --color{x} -e {phrase} ."
			s.Args[0] = tool.Arg{Name: "x", Type: tool.String, Description: "c", Enum: []string{"=always"}}
		}, "arguments.x", `and with it "--color", which is an option of its own`},
		{"glued to a set value", func(s *tool.Spec) {
			s.Command = "grep -e {phrase},{x} ."
			s.Args[0] = tool.Arg{Name: "x", Type: tool.String, Description: "x"}
		}, "arguments.x",
			`slot "x": template word "{phrase},{x}": the slot is optional without a default, so when it is left out the whole word is dropped, and with it the value of {phrase}; put {phrase} in a word of its own, or give {x} a default`},
		{"output limit over", func(s *tool.Spec) { s.OutputLimit = tool.MaxOutputLimit + 1 }, "output_limit",
			`output_limit 1048577 is out of range: want a number of bytes from 1 to 1048576 (1 MiB); leave it out for the default (2048, or the run's --output-limit)`},
		{"output limit negative", func(s *tool.Spec) { s.OutputLimit = -1 }, "output_limit", `output_limit -1 is out of range`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := boolSpec()
			c.edit(&s)
			_, err := Spec(&s)
			errs := specErrors(t, err)
			if len(errs) != 1 || errs[0].Field != c.field || !strings.Contains(errs[0].Msg, c.want) {
				t.Fatalf("got %d errors %v (fields %v), want one on %s containing:\n%s", len(errs), err, fields(errs), c.field, c.want)
			}
		})
	}
}

// TestSlotTypeSpecsValid: what the rules must keep accepting.
func TestSlotTypeSpecsValid(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(s *tool.Spec)
	}{
		{"as is", func(*tool.Spec) {}},
		{"long flag", func(s *tool.Spec) { s.Args[0].Flag = "--ignore-case" }},
		{"flag with value", func(s *tool.Spec) { s.Args[0].Flag = "--color=never" }},
		{"required boolean", func(s *tool.Spec) { s.Args[0].Required = true }},
		{"default true", func(s *tool.Spec) { s.Args[0].Default, s.Args[0].HasDefault = "true", true }},
		{"text enum with spaces", func(s *tool.Spec) { s.Args[1].Enum = []string{"func main", "type T"} }},
		{"text default", func(s *tool.Spec) {
			s.Args[1].Required, s.Args[1].Default, s.Args[1].HasDefault = false, "func main", true
		}},
		{"text as an option's value", func(s *tool.Spec) { s.Command = "grep -rn {ignore_case} --regexp={phrase} ." }},
		{"text in git commit -m", func(s *tool.Spec) { s.Command = "git commit {ignore_case} -m {phrase}"; s.Args[0].Flag = "--amend" }},
		{"output limit", func(s *tool.Spec) { s.OutputLimit = 1 }},
		{"output limit max", func(s *tool.Spec) { s.OutputLimit = tool.MaxOutputLimit }},
		{"optional long option value", func(s *tool.Spec) {
			s.Command = "grep --max-count={n} -e {phrase} ."
			s.Args[0] = tool.Arg{Name: "n", Type: tool.Integer, Description: "n"}
		}},
		{"optional short option value", func(s *tool.Spec) {
			s.Command = "grep -m{n} -e {phrase} ."
			s.Args[0] = tool.Arg{Name: "n", Type: tool.Integer, Description: "n"}
		}},
		{"optional operand text", func(s *tool.Spec) {
			s.Command = "grep -e {phrase} {name}.txt"
			s.Args[0] = tool.Arg{Name: "name", Type: tool.String, Description: "n"}
		}},
		{"optional after dashes with enum", func(s *tool.Spec) {
			s.Command = "grep -{x} -e {phrase} ."
			s.Args[0] = tool.Arg{Name: "x", Type: tool.String, Description: "x", Enum: []string{"i"}}
		}},
		{"glued with a default", func(s *tool.Spec) {
			s.Command = "grep -rn{x} -e {phrase} ."
			s.Args[0] = tool.Arg{Name: "x", Type: tool.String, Description: "x", Enum: []string{"i", "w"}, Default: "w", HasDefault: true}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := boolSpec()
			c.edit(&s)
			if _, err := Spec(&s); err != nil {
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

// TestTextCodePositions: a text slot is refused wherever the program runs
// its word or splits it into words, enum or not; the same place takes a
// string slot with an enum.
func TestTextCodePositions(t *testing.T) {
	for _, c := range []struct{ cmd, where string }{
		{"sed -n -e {x} f", "sed's script (the value of -e)"},
		{"sed -n {x} f", "sed's script (its first operand"},
		{"find . -exec {x} {} +", "the program find's -exec runs"},
		{"git -c {x} status", "git's -c"},
		{"ssh host {x}", "ssh"},
		{"git submodule foreach {x}", "foreach"},
		{"sort --compress-program={x} f", "--compress-program"},
		{"sort --compress-prog={x} f", "--compress-prog (--compress-program)"},
		{"git {x} HEAD", "git's subcommand"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			for _, enum := range [][]string{nil, {"uptime -p"}} {
				s := tool.Spec{Name: "t", Description: "d", Command: c.cmd, Args: []tool.Arg{
					{Name: "x", Type: tool.Text, Description: "x", Required: true, Enum: enum},
				}}
				_, err := Spec(&s)
				errs := specErrors(t, err)
				if len(errs) == 0 {
					t.Fatalf("enum %v: a text slot accepted in %q", enum, c.cmd)
				}
				msg := errs[0].Msg
				if errs[0].Field != "arguments.x" || !strings.HasPrefix(msg, `slot "x": it is a text slot, whose value may hold spaces, `+
					`so it may not stand where the program runs its value or splits it into words; make it a string slot (one word). The place: `) ||
					!strings.Contains(msg, c.where) {
					t.Errorf("enum %v: %v\nwant the text-slot 613 naming %q", enum, err, c.where)
				}
			}
		})
	}
}

// TestBooleanReadings: the code-position rule reads the template with every
// set of boolean slots true, their flags written in, and says which set a
// 613 comes from.
func TestBooleanReadings(t *testing.T) {
	s := tool.Spec{Name: "t", Description: "d", Command: "sort {compress} {prog} f", Args: []tool.Arg{
		{Name: "compress", Type: tool.Boolean, Description: "c", Flag: "--compress-program"},
		{Name: "prog", Type: tool.String, Description: "p", Required: true},
	}}
	_, err := Spec(&s)
	errs := specErrors(t, err)
	if len(errs) != 1 || errs[0].Field != "arguments.prog" ||
		!strings.Contains(errs[0].Msg, "it is the value of sort's --compress-program") ||
		!strings.HasSuffix(errs[0].Msg, "(in the command with {compress} true (--compress-program))") {
		t.Fatalf("got %v, want one 613 on prog from the reading with {compress} true", err)
	}
	// A flag that is itself a code option of find: the literal program it
	// makes find run obeys the deny list.
	s = tool.Spec{Name: "t", Description: "d", Command: "find . {run} sh {} +", Args: []tool.Arg{
		{Name: "run", Type: tool.Boolean, Description: "r", Flag: "-exec"},
	}}
	_, err = Spec(&s)
	if errs := specErrors(t, err); len(errs) == 0 || !strings.Contains(errs[0].Msg, `runs "sh", which is on the deny list`) {
		t.Fatalf("find . {run} sh {} + with flag -exec: %v, want the deny list's 613", err)
	}
	// Many booleans: each alone, all and none are read.
	s = tool.Spec{Name: "t", Description: "d", Command: "sort", Args: nil}
	for i := range 8 {
		name := string(rune('a' + i))
		s.Command += " {" + name + "}"
		s.Args = append(s.Args, tool.Arg{Name: name, Type: tool.Boolean, Description: "b", Flag: "-" + name})
	}
	s.Command += " --compress-program {p} f"
	s.Args = append(s.Args, tool.Arg{Name: "p", Type: tool.String, Description: "p", Enum: []string{"gzip"}, Required: true})
	if _, err := Spec(&s); err != nil {
		t.Fatalf("eight booleans and an enum program: %v", err)
	}
}

// TestRunsOfBooleanReadings: a program that only a set flag makes the
// template's program run (find's -exec as a boolean's flag) is among the
// programs the template runs, so that a confined call may execute it.
func TestRunsOfBooleanReadings(t *testing.T) {
	s := tool.Spec{Name: "t", Description: "d", Command: "find src -name {name} {grep} grep -l x {} +", Args: []tool.Arg{
		{Name: "name", Type: tool.String, Description: "n", Required: true},
		{Name: "grep", Type: tool.Boolean, Description: "g", Flag: "-exec"},
	}}
	tmpl, err := Spec(&s)
	if err != nil {
		t.Fatal(err)
	}
	if got := tmpl.Runs(); len(got) != 0 {
		t.Fatalf("the template as written runs %v", got)
	}
	if got := RunsOf(tmpl, &s); len(got) != 1 || got[0] != "grep" {
		t.Fatalf("RunsOf = %v, want [grep]", got)
	}
	s.Command = "find src -name {name} {grep} sh -c x {} +"
	if _, err := Spec(&s); err == nil || !strings.Contains(err.Error(), `find's -exec runs "sh", which is on the deny list`) {
		t.Fatalf("a denied program behind a flag: %v", err)
	}
}
