package gen

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Descriptor is one *.tool.json file: its name and its contents.
type Descriptor struct {
	// Path names the file in messages (FILE:LINE:COL: error 613: …) and, by
	// its base name, in the generated comments. Descriptors are processed in
	// Path order, whatever the order they are given in.
	Path string
	// Data is the file's contents.
	Data []byte
}

// genTool is one valid descriptor with everything emission needs.
type genTool struct {
	path   string // Descriptor.Path, for messages
	file   string // its base name, for generated comments (quoted when odd, see sourceText)
	spec   tool.Spec
	tmpl   *validate.Template
	pos    *tool.Positions
	id     idents
	fields []string // the Go field name of each slot, in declared order
	digest string
}

// load decodes and validates every descriptor with the runtime's decoder and
// validator, then checks the names the generated code would use. It returns
// the tools sorted by name, or every 613 found (sorted by file, line and
// column), never a partial result. reserved maps identifiers the target
// package already declares to the file declaring them.
func load(descs []Descriptor, cfg Config, workers int) ([]*genTool, error) {
	descs = slices.Clone(descs)
	slices.SortStableFunc(descs, func(a, b Descriptor) int { return cmp.Compare(a.Path, b.Path) })
	var (
		tools []*genTool
		errs  []error
	)
	loaded := make([]*genTool, len(descs))
	loadErrs := make([]error, len(descs))
	parallel(len(descs), workers, func(i int) { loaded[i], loadErrs[i] = loadOne(descs[i]) })
	byName := map[string]*genTool{}
	for i := range descs {
		t, err := loaded[i], loadErrs[i]
		if err != nil {
			errs = append(errs, tool.Flatten(err)...)
			continue
		}
		if prev, ok := byName[t.spec.Name]; ok {
			errs = append(errs, t.errorf("name", "tool name %q is already defined by %s", t.spec.Name, prev.path))
			continue
		}
		byName[t.spec.Name] = t
		tools = append(tools, t)
	}
	slices.SortFunc(tools, func(a, b *genTool) int { return cmp.Compare(a.spec.Name, b.spec.Name) })
	errs = append(errs, claimIdents(tools, cfg.Reserved, cfg.Temporal)...)
	if len(errs) > 0 {
		sortErrors(errs)
		return nil, errors.Join(errs...)
	}
	return tools, nil
}

// loadOne decodes, validates and names one descriptor.
func loadOne(d Descriptor) (*genTool, error) {
	spec, tmpl, pos, err := validate.Descriptor(d.Path, d.Data)
	if err != nil {
		return nil, err // every problem of the file, decoder's and validator's
	}
	t := &genTool{
		path:   d.Path,
		file:   sourceText(filepath.Base(d.Path)),
		spec:   spec,
		tmpl:   tmpl,
		pos:    pos,
		id:     toolIdents(spec.Name),
		digest: tool.Digest(spec),
	}
	var errs []error
	seen := map[string]string{} // fold key → slot name
	for _, a := range spec.Args {
		f := GoName(a.Name)
		if prev, ok := seen[foldKey(f)]; ok {
			errs = append(errs, t.errorf("arguments."+a.Name,
				"slot %q gives the Go field %s, which differs only in case from %s, the field of slot %q: rename one of the slots",
				a.Name, f, GoName(prev), prev))
		}
		seen[foldKey(f)] = a.Name
		t.fields = append(t.fields, f)
	}
	return t, errors.Join(errs...)
}

// claimIdents gives each tool its package-level identifiers, in name order:
// an identifier that another tool (or the package-level declarations of the
// generated file) already has, even differing only in case, or that the
// target package declares elsewhere, is a 613 on the later tool's name.
func claimIdents(tools []*genTool, reserved map[string]string, temporal bool) []error {
	type claim struct{ ident, owner string }
	owner := map[string]claim{}
	for _, pkg := range []string{toolsFunc, digestsFunc, examplesTest} {
		owner[foldKey(pkg)] = claim{pkg, "the package-level " + pkg + " every generated file declares"}
	}
	var errs []error
	for _, t := range tools {
		for _, id := range t.id.list(temporal) {
			ident, what := id[0], id[1]
			if file, ok := reserved[ident]; ok {
				errs = append(errs, t.errorf("name",
					"tool name %q gives the Go identifier %s (%s), which the package already declares in %s; rename the tool or that declaration",
					t.spec.Name, ident, what, file))
				break
			}
			prev, ok := owner[foldKey(ident)]
			if !ok {
				continue
			}
			clash := "is already " + prev.owner
			if prev.ident != ident {
				clash = fmt.Sprintf("differs only in case from %s, %s", prev.ident, prev.owner)
			}
			errs = append(errs, t.errorf("name", "tool name %q gives the Go identifier %s (%s), which %s: rename one of the tools",
				t.spec.Name, ident, what, clash))
			break
		}
		for _, id := range t.id.list(temporal) {
			if _, taken := owner[foldKey(id[0])]; !taken {
				owner[foldKey(id[0])] = claim{id[0], fmt.Sprintf("the %s of tool %q (%s)", strings.TrimPrefix(id[1], "its "), t.spec.Name, t.path)}
			}
		}
	}
	return errs
}

// errorf returns a 613 about field of t's descriptor, located in its file.
func (t *genTool) errorf(field, format string, args ...any) error {
	e := tool.SpecErrorf(field, format, args...)
	return t.pos.Locate(e)
}

// sortErrors orders 613s by file, line and column; errors without a
// position come first in their file, and equal positions keep their order.
func sortErrors(errs []error) {
	key := func(err error) (string, int, int) {
		var te *tool.Error
		if errors.As(err, &te) {
			return te.File, te.Line, te.Col
		}
		return "", 0, 0
	}
	slices.SortStableFunc(errs, func(a, b error) int {
		fa, la, ca := key(a)
		fb, lb, cb := key(b)
		return cmp.Or(strings.Compare(fa, fb), cmp.Compare(la, lb), cmp.Compare(ca, cb))
	})
}
