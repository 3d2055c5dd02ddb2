package programs

import (
	"path/filepath"
	"slices"
	"strings"
)

// make, cmake, ctest and ninja with a C compiler: the makefile's recipes
// run through /bin/sh, and the compiler (cc, gcc, as, ld, cc1 under
// /usr/lib/gcc) writes its temporary files to TMPDIR, the call's scratch
// directory. ccache, when a build uses it, caches in the workspace's
// build cache.
var _ = registerToolchain(&Toolchain{
	Name:     "c",
	Programs: []string{"make", "gmake", "bmake", "cmake", "ctest", "ninja"},
	Lifts:    []string{"make", "gmake", "bmake", "cmake", "ctest", "ninja"},
	Form:     cForm,
	Caches:   []string{"ccache"},
	Env: func(b Build) []string {
		return []string{"CCACHE_DIR=" + filepath.Join(b.Cache, "ccache"), "MAKEFLAGS=", "MFLAGS=", "GNUMAKEFLAGS="}
	},
})

// cForm accepts a make template that the ExecTool's make rows accept (no
// --eval, no variable assignment), whose makefile and directory options
// take path slots and whose slots cannot spell an assignment; cmake and
// ctest templates whose script options take path slots and that give no
// slot to cmake -E (a command line cmake runs) or -D (a cache entry that
// names a compiler); ninja templates whose -f and -C take path slots and
// whose -t (a ninja tool) is written out.
func cForm(prog string, words []TemplateWord) string {
	switch prog {
	case "cmake":
		return firstOf(
			pathOptions(words, "-P", "-C", "-S", "-B", "--preset"),
			afterWord(words, "-E", "cmake -E runs the command line that follows"),
			codeOptions(words, "-D", "-G", "-T", "-A"),
		)
	case "ctest":
		return firstOf(
			pathOptions(words, "-S", "-SP", "-SR", "--script", "--test-dir", "--build-and-test"),
			afterWord(words, "--test-command", "ctest --test-command runs the command line that follows"),
			codeOptions(words, "--build-generator", "--build-makeprogram", "--build-options"),
		)
	case "ninja":
		return firstOf(pathOptions(words, "-f", "-C"), codeOptions(words, "-t"))
	}
	return firstOf(
		execRowsForm("make", words),
		pathOptions(words, "-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir"),
		noSlotAdmits(makeOperands(words), 0, '=', "make reads an operand holding = as a variable assignment that overrides the makefile (SHELL=, CC=)"),
	)
}

// makeValued are make's options whose value is the next word when not
// attached.
var makeValued = []string{"-C", "-f", "-I", "-o", "-W", "-j", "-l", "--directory", "--file", "--makefile", "--include-dir",
	"--old-file", "--assume-old", "--new-file", "--assume-new", "--what-if"}

// makeOperands returns make's operands among words: targets and
// assignments, not options nor their values.
func makeOperands(words []TemplateWord) []TemplateWord {
	var out []TemplateWord
	for i, w := range words {
		switch {
		case strings.HasPrefix(w.Text, "-"), len(w.Slots) == 1 && w.Slots[0].Flag != "":
		case i > 0 && slices.Contains(makeValued, words[i-1].Text):
		default:
			out = append(out, w)
		}
	}
	return out
}

// afterWord is a Form rule: no slot in the words after the literal word
// marker, which start a command line the program runs.
func afterWord(words []TemplateWord, marker, why string) string {
	for i, w := range words {
		if w.Text != marker {
			continue
		}
		for _, after := range words[i+1:] {
			for _, s := range after.Slots {
				if s.Enum == nil {
					return "slot {" + s.Name + "} follows " + marker + ": " + why + ", which the model must not choose; write it out or give the slot an enum"
				}
			}
		}
	}
	return ""
}
