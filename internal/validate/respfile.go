package validate

import (
	"fmt"
	"strings"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// The response-file rule: a program that reads a word "@FILE" as the words
// of FILE (programs.Program.ResponseFiles: binutils, the GCC and LLVM
// tools, the JDK's) would take options from a file of the workspace that
// no template wrote, so "a value is never an option" fails there. A slot
// value that starts a word of such a template may not begin with '@'
// (614, ResponseFileValue); an enum or default value that does is a 613,
// and so is a literal word of the template that names a response file
// (the file would be the workspace's, which the repository writes). The
// rule holds for the programs the template's program runs as well (find
// {dir} -exec nm {} + passes nm the names find makes from {dir}, so a
// {dir} of "@opts" gives nm "@opts/a.o"): ResponseFilesOf.

// ResponseFiles returns how the program binary (a name or a path, as a
// template's first word) reads response files, or "" when it does not.
func ResponseFiles(binary string) string {
	if p := programs.Lookup(binary); p != nil {
		return p.ResponseFiles
	}
	return ""
}

// ResponseFilesOf returns the program of t (whose slots s declares) that
// reads response files, and how: t's own program when it does, else the
// first program t runs (RunsOf: find's -exec, git bisect run's) that does;
// "", "" when none does.
func ResponseFilesOf(s *tool.Spec, t *Template) (prog, how string) {
	if how := ResponseFiles(t.Binary()); how != "" {
		return t.Binary(), how
	}
	for _, p := range RunsOf(t, s) {
		if how := ResponseFiles(p); how != "" {
			return p, how
		}
	}
	return "", ""
}

// ResponseFileValue returns the 614 for v, the value of slot a, which
// starts a word of a template whose program prog reads response files
// (how, from ResponseFiles), when v begins with '@'; nil otherwise, and
// always nil when how is "".
func ResponseFileValue(a *tool.Arg, v, prog, how string) *tool.Error {
	if how == "" || !strings.HasPrefix(v, "@") {
		return nil
	}
	msg := fmt.Sprintf("value %q begins with '@', and %s reads a word that begins with '@' as a file of more arguments (%s): "+
		"a value that starts an argument may not begin with '@' (the template fixes the options)", v, BinaryName(prog), how)
	if a.Type == tool.Path {
		msg += fmt.Sprintf("; to name a file that begins with '@', write %q", "./"+v)
	}
	return tool.ValueErrorf(a.Name, "%s", msg)
}

// checkResponseFiles applies the rule to what the template fixes: its
// literal words, and the enum and default values of slots that start a
// word.
func checkResponseFiles(s *tool.Spec, t *Template) []error {
	prog, how := ResponseFilesOf(s, t)
	if how == "" {
		return nil
	}
	var errs []error
	for _, w := range t.Words[1:] {
		if w[0].Slot == "" && strings.HasPrefix(w[0].Lit, "@") {
			errs = append(errs, tool.SpecErrorf("command", "template word %q names a response file: %s reads a word that begins "+
				"with '@' as a file of more arguments (%s), and that file would be the workspace's, which the repository writes; "+
				"write its options out in the template", (&Template{Words: []Word{w}}).String(), BinaryName(prog), how))
		}
	}
	for _, a := range s.Args {
		if !t.StartsWord(a.Name) {
			continue
		}
		for _, v := range a.Enum {
			if err := ResponseFileValue(&a, v, prog, how); err != nil {
				errs = append(errs, tool.SpecErrorf("arguments."+a.Name+".enum", "enum value %q: %s", v, err.Msg))
			}
		}
		if err := ResponseFileValue(&a, a.Default, prog, how); err != nil {
			errs = append(errs, tool.SpecErrorf("arguments."+a.Name+".default", "default %q: %s", a.Default, err.Msg))
		}
	}
	return errs
}
