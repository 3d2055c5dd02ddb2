package programs_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// codeValues are values that spell code for some program: a sed command
// (e, w, 1eid), tar's compressor letter in a cluster (xIf, I), an
// attached option value (=sh), a program name.
var codeValues = []string{"1eid", "e", "w", "s/x/y/w", "xIf", "I", "=sh", "sh", "p", "x", "exec", "run", "foreach", "-e", "--exec=sh"}

// sedSeeds are sed templates where a slot may or may not be the script.
var sedSeeds = []string{
	"sed -n {a}p {b}", "sed -e p {a}", "sed {a} -e p", "sed -n -- {a}", "sed -s {a} {b}", "sed -E -n {a}",
	"sed -l 5 {a} {b}", "sed --expression=p {a}", "sed -n 1p {a}", "sed -z {a}", "sed --debug {a} {b}",
	"sed -nE {a}", "sed -n -e 1p -- {a} {b}", "sed -n --line-length 9 {a} {b}", "sed -n{a} {b}",
	"sed --e={a} {b}", "sed -s -e p {a}", "sed --posix {a}", "sed -u -e 1p {a}", "sed -n x{a}", "sed -ne {a} p",
}

// readerSeeds are templates where the two readers have disagreed: a slot
// near the command fd or find runs (attached, one word to fd; separate,
// the words up to the end are its arguments; after a "+" that does not
// end it), and a letter after git's subcommand that may or may not take a
// value.
var readerSeeds = []string{
	"fd -X0 -0{a}", "fd -X echo -0{a}", "fd -x=wc -0{a}", "fd -Xecho -H{a} {b}", "fd --exec=echo -{a}",
	"fd --exec echo -0{a} {b}", "fd -X sed -n + -e {a}", "find . -exec sed -n + -e {a} {} +",
	"find . -exec echo + -exec {a} {} +", "find . -exec ls {} + -name {a}",
	"git grep -AO{a}", "git grep -nO{a} x", "git grep -n -O{a}", "git clone -pu {a} x", "git --c={a}", "git --config-e={a} log",
	"fd -0 -- -0{a}", "fd -Q -- -0{a}", "sort --foo -- --compress-program {a}",
}

// templateSeeds returns the templates of every testdata/*.txtar file's
// template sections.
func templateSeeds(t testing.TB) []string {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.txtar: %v", err)
	}
	var out []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(data).Files {
			if f.Name != "template" {
				continue
			}
			for _, line := range strings.Split(string(f.Data), "\n") {
				if line != "" && !strings.HasPrefix(line, "#") && !isResult(line) {
					out = append(out, line)
				}
			}
		}
	}
	return out
}

// FuzzTemplateCode compares the two readings of a program's command line:
// when validate.Spec accepts a template whose slots are all free required
// strings, no value a model could give (codeValues, the fuzzer's) may make
// a command line in which the ExecTool's reading finds code (a code
// option, or a script its check refuses) that the template does not write
// out itself (the same line with every slot "0" holds it too). The seeds are every template of
// testdata/*.txtar, for every program.
func FuzzTemplateCode(f *testing.F) {
	for _, s := range append(append(templateSeeds(f), sedSeeds...), readerSeeds...) {
		f.Add(s, "s/x/y/w")
	}
	f.Fuzz(func(t *testing.T, cmd, val string) {
		checkTemplateCode(t, cmd, append(codeValues, val))
	})
}

// checkTemplateCode is FuzzTemplateCode's property for one template: with
// every slot required, and with each of its first three slots optional in
// turn, where a call that leaves it out drops its words.
func checkTemplateCode(t *testing.T, cmd string, values []string) {
	tpl, err := validate.ParseTemplate(cmd)
	if err != nil {
		return
	}
	p := programs.Lookup(tpl.Binary())
	if p == nil {
		return
	}
	slots := tpl.Slots()
	for opt := -1; opt < min(len(slots), 3); opt++ {
		s := tool.Spec{Name: "t", Description: "d", Command: cmd}
		for k, name := range slots {
			s.Args = append(s.Args, tool.Arg{Name: name, Type: tool.String, Description: "d", Required: k != opt})
		}
		deny := programs.DefaultDenyList()
		if entry, denied := deny.Match(tpl.Binary()); denied {
			deny = deny.Without(entry)
		}
		if _, err := validate.Spec(&s, validate.WithDenyList(deny)); err != nil {
			continue
		}
		drops := []string{""}
		if opt >= 0 {
			drops = append(drops, slots[opt])
		}
		for _, drop := range drops {
			checkFilled(t, p, tpl, &s, drop, values)
		}
	}
}

// checkFilled checks the command lines of one reading of tpl (the words of
// slot drop left out, when set): no value may make the ExecTool read code
// that the line with every slot "0" does not hold.
func checkFilled(t *testing.T, p *programs.Program, tpl *validate.Template, s *tool.Spec, drop string, values []string) {
	neutral, ok := fill(tpl, s, "0", drop)
	if !ok {
		return
	}
	fixed := p.CodeRefusals(neutral) // code the template writes out itself
	for _, v := range values {
		argv, ok := fill(tpl, s, v, drop)
		if !ok {
			continue
		}
		for _, r := range p.CodeRefusals(argv) {
			if !slices.Contains(fixed, r) {
				t.Fatalf("validate.Spec accepts %q (optional: %q), but with every slot %q the ExecTool reads code in %q: %s",
					tpl.String(), drop, v, argv, r.Reason)
			}
		}
	}
}

// fill returns the argv of tpl with every slot v and the words of slot
// drop left out, or false when Value refuses v for a slot.
func fill(tpl *validate.Template, s *tool.Spec, v, drop string) ([]string, bool) {
	argv := []string{tpl.Binary()}
	for _, w := range tpl.Words[1:] {
		var word strings.Builder
		dropped := false
		for _, p := range w {
			if p.Slot == "" {
				word.WriteString(p.Lit)
				continue
			}
			dropped = dropped || p.Slot == drop
			a, _ := s.Arg(p.Slot)
			if validate.Value(&a, v, tpl.StartsWord(p.Slot)) != nil {
				return nil, false
			}
			word.WriteString(v)
		}
		if !dropped {
			argv = append(argv, word.String())
		}
	}
	return argv, true
}

// FuzzTextPlaces compares where validate.Places says a text slot's value
// may begin with a dash (the whole separate value of an option) with the
// ExecTool's reading of the same command line: filled with "-v", every
// such word must be read as an option's value, never as an option, in
// every reading the boolean slots make.
func FuzzTextPlaces(f *testing.F) {
	for _, s := range append(templateSeeds(f), "grep -rnF {i} -e {phrase} {path}", "grep -m {n} -e {p} .", "rg -e {p} -g {g} .",
		"grep --regexp {p} .", "grep -ie {p} .", "grep -e {p} -e {q} .", "grep {b} {p} .") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		tpl, err := validate.ParseTemplate(cmd)
		if err != nil {
			return
		}
		p := programs.Lookup(tpl.Binary())
		if p == nil {
			return
		}
		s := tool.Spec{Name: "t", Description: "d", Command: cmd}
		for _, name := range tpl.Slots() {
			s.Args = append(s.Args, tool.Arg{Name: name, Type: tool.Text, Description: "d", Required: true})
		}
		places := validate.Places(&s, tpl)
		argv := []string{tpl.Binary()}
		var dash []int
		for _, w := range tpl.Words[1:] {
			var word strings.Builder
			for k, part := range w {
				switch {
				case part.Slot == "":
					word.WriteString(part.Lit)
				case k == 0 && places[part.Slot].OptionValue:
					word.WriteString("-v")
					dash = append(dash, len(argv))
				default:
					word.WriteString("x")
				}
			}
			argv = append(argv, word.String())
		}
		c := p.ReadCommand(argv, p.Name(), "/bin/"+p.Name(), "/ws", nil)
		if c == nil || len(dash) == 0 {
			return
		}
		for _, i := range dash {
			asValue := false
			for _, r := range c.Readings() {
				asValue = asValue || r.Word == i && r.What == "option value"
			}
			if !asValue {
				t.Fatalf("Places says word %d of %q is an option's value, but the ExecTool reads %q: %v", i, cmd, argv, c.Readings())
			}
		}
	})
}
