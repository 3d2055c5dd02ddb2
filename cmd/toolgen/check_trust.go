package main

import (
	"errors"
	"strings"

	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/runtime/trust"
)

// trustNotes returns a note for each descriptor of t that check finds
// valid (it has no problem among problems) but that list, call and serve,
// run with the same workspace and the user's trust store, would refuse: in
// a trusted tools directory, a file added or changed since the user
// trusted it. The note names toolgen trust, so check and list never
// disagree about a file without saying so. A tools directory inside the
// workspace that is not trusted at all gets no note: check judges
// descriptors wherever they lie, and list names the directory, toolgen
// trust and --allow-tools-in-workspace in one line.
func trustNotes(workspace string, t checkTarget, problems []error) []checkNote {
	path, err := trust.DefaultPath()
	if err != nil {
		return nil
	}
	invalid := map[string]bool{}
	for _, perr := range problems {
		for _, e := range tool.Flatten(perr) {
			var te *tool.Error
			if errors.As(e, &te) {
				invalid[te.File] = true
			}
		}
	}
	opts := []loader.Option{loader.WithoutCreate()}
	if t.files != nil {
		opts = append(opts, loader.WithFiles(t.files...))
	}
	p, err := preset.New(preset.WithWorkspace(workspace), preset.WithToolsDir(t.dir, opts...), preset.WithTrustStore(trust.Open(path)))
	if err != nil {
		return nil // check reported what stops the directory from loading
	}
	if _, refused := p.ToolsDirRefused(); refused {
		return nil // not trusted at all (see above)
	}
	var notes []checkNote
	for _, perr := range p.Problems {
		for _, e := range tool.Flatten(perr) {
			var te *tool.Error
			if !errors.As(e, &te) || te.File == "" || invalid[te.File] {
				continue
			}
			notes = append(notes, checkNote{file: te.File, title: "toolgen trust",
				msg: "valid, but list, call and serve do not load it: " + strings.TrimPrefix(te.Msg, "not loaded: ")})
		}
	}
	return notes
}
