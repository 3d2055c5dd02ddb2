package validate

import (
	"regexp/syntax"
	"strings"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// A tool that declares "runs_code" (tool.Spec.RunsCode) may run a build or
// test runner of the deny list's build-tools group when a toolchain
// profile of package programs covers its binary: the profile's deny-list
// entries are lifted for it (and only for it), and its Form judges the
// template. Without the declaration such a binary stays a 613 whose
// message says how to declare it; with it, a binary no profile covers is a
// 613 too (runs_code changes what a call may execute, so it is declared
// only where it means something).

// denyFor returns the deny list s's binary is checked against: deny, or
// deny without the entries its toolchain profile lifts when s runs code.
func denyFor(runsCode bool, bin string, deny programs.DenyList) programs.DenyList {
	if !runsCode {
		return deny
	}
	if tc := programs.ToolchainOf(bin); tc != nil {
		return tc.RunsCodeDenyList(deny)
	}
	return deny
}

// deniedError is the 613 for bin denied by entry; when a runs_code tool of
// a toolchain could run it, it says how.
func deniedError(bin, entry string, runsCode bool) *tool.Error {
	tc := programs.ToolchainOf(bin)
	switch {
	case !runsCode && tc != nil && tc.LiftsEntry(entry):
		return tool.SpecErrorf("command", "binary %q is on the deny list (entry %q): it runs the repository's own code "+
			"(build files, tests, scripts, what it compiles); a tool meant to do that declares \"runs_code\": true, which allows "+
			"the %s toolchain's programs under its profile, confined (see docs/descriptors.md, \"Build and test tools\")", bin, entry, tc.Name)
	case runsCode:
		return tool.SpecErrorf("command", "binary %q is on the deny list (entry %q), and \"runs_code\" does not lift that entry: "+
			"it lifts only the build and test runners toolgen has a toolchain profile for (%s)", bin, entry, programs.ToolchainNames())
	}
	return tool.SpecErrorf("command", "binary %q is on the deny list (entry %q)", bin, entry)
}

// checkRunsCode applies the runs_code rules to s's template t: a profile
// must cover its binary, and the profile's Form must accept it.
func checkRunsCode(s *tool.Spec, t *Template) error {
	if !s.RunsCode {
		return nil
	}
	bin := t.Binary()
	tc := programs.ToolchainOf(bin)
	if tc == nil {
		return tool.SpecErrorf("runs_code", "runs_code is declared, but %q is no build or test runner toolgen has a toolchain "+
			"profile for (%s); a tool that runs no code of the repository leaves runs_code out", bin, programs.ToolchainNames())
	}
	if tc.Form == nil {
		return nil
	}
	if why := tc.Form(programs.BinaryName(bin), templateWords(s, t)); why != "" {
		return tool.SpecErrorf("command", "runs_code (%s toolchain): %s", tc.Name, why)
	}
	return nil
}

// templateWords is t after its binary, as a toolchain's Form reads it.
func templateWords(s *tool.Spec, t *Template) []programs.TemplateWord {
	out := make([]programs.TemplateWord, 0, len(t.Words)-1)
	for _, w := range t.Words[1:] {
		tw := programs.TemplateWord{Text: (&Template{Words: []Word{w}}).String()}
		for _, name := range slotsOf(w) {
			a, _ := s.Arg(name)
			tw.Slots = append(tw.Slots, programs.TemplateSlot{
				Name: name, Path: a.Type == tool.Path, Flag: a.Flag, Enum: a.Enum,
				Admits: func(r rune) bool { return admits(a, r) },
			})
		}
		out = append(out, tw)
	}
	return out
}

// admits reports whether a value of slot a may hold r: an enum value or
// the flag holds it, or its type and pattern allow it (a pattern is read
// generously: a literal, class or any-character that could match r).
func admits(a tool.Arg, r rune) bool {
	switch {
	case a.Type == tool.Boolean:
		return strings.ContainsRune(a.Flag, r)
	case len(a.Enum) > 0:
		for _, v := range a.Enum {
			if strings.ContainsRune(v, r) {
				return true
			}
		}
		return false
	case a.Type.Numeric():
		return '0' <= r && r <= '9' || r == '.'
	case a.Pattern != "":
		re, err := syntax.Parse(a.Pattern, syntax.Perl)
		return err != nil || patternAdmits(re, r)
	}
	return true
}

// patternAdmits reports whether re has a literal, class or any-character
// that matches r (case folding included).
func patternAdmits(re *syntax.Regexp, r rune) bool {
	fold := re.Flags&syntax.FoldCase != 0
	same := func(x rune) bool {
		return x == r || fold && strings.EqualFold(string(x), string(r))
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, x := range re.Rune {
			if same(x) {
				return true
			}
		}
		return false
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= r && r <= re.Rune[i+1] {
				return true
			}
		}
		return false
	case syntax.OpAnyChar:
		return true
	case syntax.OpAnyCharNotNL:
		return r != '\n'
	}
	for _, sub := range re.Sub {
		if patternAdmits(sub, r) {
			return true
		}
	}
	return false
}

// RunsCode makes CheckBinary judge the binary as a runs_code tool's: its
// toolchain profile's deny-list entries lifted (see Spec). Default false.
func RunsCode(on bool) Option { return func(o *options) { o.runsCode = on } }
