package explain

import (
	"fmt"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// textRules says, for each text slot of spec, which rule its values meet
// where it stands (validate.Places): in a place the program reads as data,
// any printable text; elsewhere, plain spaces and nothing else a string
// refuses.
func textRules(spec tool.Spec) []string {
	t, err := validate.ParseTemplate(spec.Command)
	if err != nil {
		return nil
	}
	places := validate.Places(&spec, t)
	var out []string
	for _, a := range spec.Args {
		if a.Type != tool.Text {
			continue
		}
		p := places[a.Name]
		switch {
		case p.Data && p.OptionValue:
			out = append(out, fmt.Sprintf("{%s} text, an option's whole value, which %s reads as data: any printable text "+
				"(quotes and operators too), and it may begin with '-'; no control or invisible character, no leading '@'", a.Name, validate.BinaryName(t.Binary())))
		case p.Data:
			out = append(out, fmt.Sprintf("{%s} text, which %s reads as data: any printable text (quotes and operators too); "+
				"no control or invisible character, no leading '-' or '@'", a.Name, validate.BinaryName(t.Binary())))
		default:
			out = append(out, fmt.Sprintf("{%s} text: plain spaces allowed, and nothing else a string refuses "+
				"(no quote, operator or leading '-')", a.Name))
		}
	}
	return out
}
