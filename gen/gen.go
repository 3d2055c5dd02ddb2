package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"runtime"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/nanogpt/toolgen/internal/descdir"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Config says what to generate. It is all the generator knows: nothing is
// read from flags, the environment or the file system.
type Config struct {
	// Package is the name of the generated package. Required.
	Package string
	// Source is the module-relative directory of the descriptors, written in
	// the header's "// source:" line. Empty means ".".
	Source string
	// Reserved maps the identifiers the target package already declares (in
	// files other than the generated ones) to the file declaring them. A tool
	// whose generated identifiers hit one is a 613, a package-level one
	// (Tools, Digests, …) an error; an import whose name is taken is
	// aliased toolgen<name>. nil means none.
	Reserved map[string]string
	// Temporal also generates the Temporal workflow stubs (Output.Temporal):
	// per tool a function ExecuteX that a workflow calls with the typed
	// arguments, running the tool as an activity (package
	// github.com/nanogpt/toolgen/adapters/temporaltool). The stubs import
	// the Temporal SDK, so the target package's module must require it.
	Temporal bool
}

// Output is the generated code, gofmt-clean and deterministic.
type Output struct {
	// Code is the tools file (tools_gen.go).
	Code []byte
	// Test is the examples test file (tools_gen_test.go), or nil when no
	// descriptor has examples.
	Test []byte
	// Temporal is the Temporal workflow stubs file (TemporalName of the
	// tools file: tools_temporal_gen.go), or nil unless Config.Temporal.
	Temporal []byte
	// Tools are the generated tools' names, in order.
	Tools []string
}

// Generate compiles descriptors into Go source. Every descriptor is decoded
// and validated exactly as at runtime (validate.Descriptor, with the default
// deny list), then the generated names are checked. Any problem makes Generate return no output and an error
// joining every 613 found (every independent problem of every file), each
// located (FILE:LINE:COL: error 613: …) and sorted by file and position;
// tool.Flatten lists them.
//
// The output depends only on cfg and the descriptors' paths and contents:
// the order they come in does not matter. A failure to format the generated
// source (a bug in toolgen) is an error carrying the numbered source.
func Generate(cfg Config, descs []Descriptor) (*Output, error) {
	return generate(cfg, descs, runtime.GOMAXPROCS(0))
}

// generate is Generate on up to workers goroutines; the output does not
// depend on workers.
func generate(cfg Config, descs []Descriptor, workers int) (*Output, error) {
	if !token.IsIdentifier(cfg.Package) || cfg.Package == "_" {
		return nil, fmt.Errorf("gen: package name %q is not a Go identifier", cfg.Package)
	}
	if err := checkReserved(cfg.Reserved); err != nil {
		return nil, err
	}
	tools, err := load(descs, cfg, workers)
	if err != nil {
		return nil, err
	}
	out := &Output{}
	for _, t := range tools {
		out.Tools = append(out.Tools, t.spec.Name)
	}
	if out.Code, err = renderFile(&cfg, toolsParts(tools), workers); err != nil {
		return nil, err
	}
	if cfg.Temporal {
		stubs := func(f *jen.File) { emitTemporal(f, tools) }
		if out.Temporal, err = renderFile(&cfg, []func(*jen.File){stubs}, 1); err != nil {
			return nil, err
		}
	}
	if hasExamples(tools) {
		test := func(f *jen.File) { emitExamplesTest(f, tools) }
		if out.Test, err = renderFile(&cfg, []func(*jen.File){test}, 1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkReserved refuses a target package that already declares one of the
// package-level identifiers every generated file declares.
func checkReserved(reserved map[string]string) error {
	var clash []string
	for _, id := range []string{toolsFunc, digestsFunc, examplesTest} {
		if file, ok := reserved[id]; ok {
			clash = append(clash, fmt.Sprintf("%s (declared in %s)", id, file))
		}
	}
	if len(clash) > 0 {
		return fmt.Errorf("gen: the package already declares %s, which the generated file declares too; rename it, or generate into another package",
			strings.Join(clash, ", "))
	}
	return nil
}

// FormatError is a failure to format generated source: a bug in toolgen,
// never written anywhere. Its message holds the source with line numbers.
type FormatError struct {
	Err    error
	Source []byte
}

func (e *FormatError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gen: generated code does not format (a toolgen bug; nothing was written): %v\n", e.Err)
	b.WriteString(NumberLines(e.Source))
	return b.String()
}

func (e *FormatError) Unwrap() error { return e.Err }

// NumberLines prefixes each line of src with its 1-based number.
func NumberLines(src []byte) string {
	lines := strings.SplitAfter(string(src), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	width := len(fmt.Sprint(len(lines)))
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%*d\t%s", width, i+1, l)
		if !strings.HasSuffix(l, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// MaxDescriptorSize is the size limit of one descriptor file for ReadDir:
// 1 MiB, the runtime loader's (loader.MaxFileSize). A descriptor is a few
// hundred bytes.
const MaxDescriptorSize = descdir.MaxFileSize

// ReadDir reads the *.tool.json files of dir (not its subdirectories) in
// name order. Each Descriptor's Path is filepath.Join(dir, name), so
// messages name files as the caller named the directory. ReadDir only reads.
//
// It reads under the rule the runtime loader reads by (package
// internal/descdir), so that what toolgen generate compiles is what
// toolgen serve would load: hidden files (.x.tool.json) are not
// descriptors; a symlink is followed only to a file inside dir; a file (or
// what its symlink points to) that is not a regular file (a FIFO,
// /dev/zero, a socket) or is larger than MaxDescriptorSize is a 613 naming
// it, found without blocking on it or reading more than the limit. Every
// such 613 is returned (joined), and then no descriptor.
func ReadDir(dir string) ([]Descriptor, error) {
	d, err := descdir.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Names(tool.DescriptorExt)
	if err != nil {
		return nil, err
	}
	var (
		descs []Descriptor
		errs  []error
	)
	for _, name := range names {
		data, _, err := d.Read(name, MaxDescriptorSize)
		switch {
		case errors.Is(err, descdir.ErrGone):
			continue // removed since the listing
		case err != nil:
			errs = append(errs, err)
			continue
		}
		descs = append(descs, Descriptor{Path: d.File(name), Data: data})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return descs, nil
}

// IsGenerated reports whether src is a file toolgen wrote: its first line is
// Header. toolgen overwrites or removes no other file.
func IsGenerated(src []byte) bool {
	line, _, _ := bytes.Cut(src, []byte("\n"))
	return string(bytes.TrimSuffix(line, []byte("\r"))) == Header
}
