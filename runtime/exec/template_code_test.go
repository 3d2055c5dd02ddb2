package exec

import (
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// templateCodeSeeds are sed templates, accepted and refused, for
// FuzzTemplateCode.
var templateCodeSeeds = []string{
	"sed -n {a}p {b}", "sed -e p {a}", "sed {a} -e p", "sed -n -- {a}", "sed -s {a} {b}", "sed -E -n {a}",
	"sed -l 5 {a} {b}", "sed --expression=p {a}", "sed -n 1p {a}", "sed -z {a}", "sed --debug {a} {b}",
	"sed -nE {a}", "sed -n -e 1p -- {a} {b}", "sed -n --line-length 9 {a} {b}", "sed -n{a} {b}",
	"sed --e={a} {b}", "sed -s -e p {a}", "sed --posix {a}", "sed -u -e 1p {a}", "sed -n x{a}", "sed -ne {a} p",
}

// FuzzTemplateCode checks the validator's code-position rule against the
// ExecTool, two readings of sed's command line written apart: when
// validate.Spec accepts a sed template whose slots are all free strings,
// no value a model could give ("1eid", "e", the fuzzer's) may put a sed
// script the ExecTool refuses into the command.
func FuzzTemplateCode(f *testing.F) {
	for _, s := range templateCodeSeeds {
		f.Add(s, "s/x/y/w")
	}
	e := newStubEnv(f)
	tl := e.tool(f)
	f.Fuzz(func(t *testing.T, cmd, val string) {
		tpl, err := validate.ParseTemplate(cmd)
		if err != nil || validate.BinaryName(tpl.Binary()) != "sed" {
			return
		}
		s := tool.Spec{Name: "t", Description: "d", Command: cmd}
		for _, name := range tpl.Slots() {
			s.Args = append(s.Args, tool.Arg{Name: name, Type: tool.String, Description: "d", Required: true})
		}
		if _, err := validate.Spec(&s); err != nil {
			return
		}
		for _, v := range []string{"1eid", "e", "w", val} {
			var line strings.Builder
			line.WriteString(tpl.Binary())
			ok := true
			for _, w := range tpl.Words[1:] {
				var word strings.Builder
				for _, p := range w {
					if p.Slot == "" {
						word.WriteString(p.Lit)
						continue
					}
					a, _ := s.Arg(p.Slot)
					if validate.Value(&a, v, tpl.StartsWord(p.Slot)) != nil {
						ok = false
					}
					word.WriteString(v)
				}
				line.WriteString(" " + singleQuote(word.String()))
			}
			if !ok {
				continue
			}
			if _, _, err := tl.Plan(line.String()); err != nil && strings.Contains(err.Error(), "sed: the script") {
				t.Fatalf("validate.Spec accepts %q, but with every slot %q the ExecTool finds code: %v", cmd, v, err)
			}
		}
	})
}
