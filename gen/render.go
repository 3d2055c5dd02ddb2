package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dave/jennifer/jen"
)

// renderFile renders a generated file from its parts, each a list of
// top-level declarations added to a jen.File of its own. The parts are
// rendered and formatted (format.Source, which also parses them) on up to
// workers goroutines, then joined in order under the header and one import
// block holding every import the parts use. Top-level declarations are
// formatted independently of each other, so the file is what formatting it
// whole would give; the tests hold every output to that.
//
// A part that does not format is a *FormatError carrying its numbered
// source: a toolgen bug, and nothing is returned.
func renderFile(cfg *Config, parts []func(*jen.File), workers int) ([]byte, error) {
	bodies := make([][]byte, len(parts))
	imports := make([][]string, len(parts))
	errs := make([]error, len(parts))
	parallel(len(parts), workers, func(i int) {
		bodies[i], imports[i], errs[i] = renderPart(cfg, parts[i])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n// source: %s\n\npackage %s\n\n", Header, sourceText(cfg.Source), cfg.Package)
	writeImports(&b, slices.Concat(imports...))
	for _, body := range bodies {
		if len(body) > 0 {
			b.WriteByte('\n')
			b.Write(body)
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), nil
}

// renderPart renders one part and formats its declarations. It returns
// them without surrounding blank lines, and the import lines jennifer wrote
// for them (`"path"` or `alias "path"`).
func renderPart(cfg *Config, part func(*jen.File)) (body []byte, imports []string, err error) {
	f := newFile(cfg)
	part(f)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, nil, fmt.Errorf("gen: rendering: %w", err)
	}
	src := buf.String()
	// jennifer writes "package P\n\n", then "import X\n\n" or "import (\n...)\n\n".
	_, rest, _ := strings.Cut(src, "\n\n")
	switch {
	case strings.HasPrefix(rest, "import (\n"):
		block, after, _ := strings.Cut(strings.TrimPrefix(rest, "import (\n"), ")\n\n")
		imports, rest = strings.Split(strings.TrimSuffix(block, "\n"), "\n"), after
	case strings.HasPrefix(rest, "import "):
		line, after, _ := strings.Cut(strings.TrimPrefix(rest, "import "), "\n\n")
		imports, rest = []string{line}, after
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return nil, imports, nil
	}
	out, err := format.Source([]byte(rest))
	if err != nil {
		return nil, nil, &FormatError{Err: err, Source: []byte(rest)}
	}
	return bytes.TrimSpace(out), imports, nil
}

// writeImports writes the import declaration for lines (deduplicated and
// sorted by path): the standard library first, then the others after a
// blank line, as goimports groups them.
func writeImports(b *bytes.Buffer, lines []string) {
	path := func(line string) string { return line[strings.IndexByte(line, '"'):] }
	slices.SortFunc(lines, func(x, y string) int { return strings.Compare(path(x), path(y)) })
	lines = slices.Compact(lines)
	switch len(lines) {
	case 0:
		return
	case 1:
		fmt.Fprintf(b, "import %s\n", lines[0])
		return
	}
	var std, other []string
	for _, l := range lines {
		if first, _, _ := strings.Cut(strings.Trim(path(l), `"`), "/"); strings.Contains(first, ".") {
			other = append(other, l)
		} else {
			std = append(std, l)
		}
	}
	b.WriteString("import (\n")
	for _, l := range std {
		b.WriteString("\t" + l + "\n")
	}
	if len(std) > 0 && len(other) > 0 {
		b.WriteByte('\n')
	}
	for _, l := range other {
		b.WriteString("\t" + l + "\n")
	}
	b.WriteString(")\n")
}

// parallel calls f(i) for every i in [0, n) on up to workers goroutines.
func parallel(n, workers int, f func(i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		})
	}
	wg.Wait()
}
