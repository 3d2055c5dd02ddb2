package main

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/nanogpt/toolgen/gen"
	"github.com/nanogpt/toolgen/internal/regular"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var generateCmd = &command{
	name:    "generate",
	summary: "Compile the *.tool.json descriptors of a directory into typed Go tools (tools_gen.go).",
	usage:   "[--tools DIR] [-out F] [-pkg P] [-check] [--temporal] [--error-format text|json|github]",
	run:     runGenerate,
}

// generateHelp follows the usage line and flags of "toolgen generate -h".
const generateHelp = `
Every descriptor is validated as at runtime and by everything toolgen check
runs (file trust, examples, names of built-in tools, where binaries
resolve): generate refuses what check refuses. Every problem of every file is printed, as
FILE:LINE:COL: error 613: ... (paths relative to the current directory; under
go generate, to the module root), and nothing is written (exit 3). Files are
written atomically and only when their content changes. F_test.go (the
descriptors' examples as a test) is written when a descriptor has examples,
and removed when none has. toolgen overwrites or removes only files that
start with its header line.

With --temporal it also writes the Temporal workflow stubs beside F
(tools_gen.go gives tools_temporal_gen.go): per tool a function ExecuteX
that a workflow calls with the typed arguments, running the tool as an
activity on a toolgen worker (see docs/scale.md). They import the Temporal
SDK and github.com/nanogpt/toolgen/adapters/temporaltool, which the
package's module must require. Without --temporal that file is left alone.

With -check nothing is written: a stale or missing file is shown as a
unified diff on stdout and the exit code is 3; an up-to-date one is silent.

In a package of an agent repository, add

	//go:generate go run github.com/nanogpt/toolgen/cmd/toolgen generate

(or, with toolgen as a tool in go.mod, //go:generate go tool toolgen generate)
and run go generate ./...
`

// genFlags are generate's flags.
type genFlags struct {
	dir, out, pkg string
	check         bool
	temporal      bool
	format        errorFormat
}

// hiddenFlags are flag names that work but stay out of the help: -dir is
// the older spelling of --tools.
var hiddenFlags = map[string]bool{"dir": true}

func runGenerate(c *command, env *cmdEnv, args []string) int {
	f := genFlags{format: formatText}
	fs := c.newFlagSet(env)
	fs.StringVar(&f.dir, "tools", ".", "directory of the *.tool.json descriptors (under go generate, . is the package's directory)")
	fs.StringVar(&f.dir, "dir", ".", "the older spelling of --tools")
	fs.StringVar(&f.out, "out", "", "generated file, relative to the current directory; its directory is the target package (default DIR/tools_gen.go)")
	fs.StringVar(&f.pkg, "pkg", "", "package name (default: the package already in F's directory, else one derived from the directory's name)")
	fs.BoolVar(&f.check, "check", false, "write nothing; print a unified diff and exit 3 when F is stale or missing")
	fs.BoolVar(&f.temporal, "temporal", false, "also write the Temporal workflow stubs beside F (tools_temporal_gen.go)")
	fs.Var(&f.format, "error-format", errorFormatUsage)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "usage: %s\n\n%s\n\nFlags:\n", c.usageLine(), c.summary)
		printFlags(out, fs)
		fmt.Fprint(out, generateHelp)
	}
	pos, code, done := c.parse(env, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return c.usageErr(env, "unexpected argument %q (the descriptor directory is given with --tools)", pos[0])
	}
	if _, err := dirFlag("tools", f.dir); err != nil {
		return c.usageErr(env, "%v", err)
	}
	if f.out == "" {
		f.out = filepath.Join(f.dir, "tools_gen.go")
	}
	if !strings.HasSuffix(f.out, ".go") || strings.HasSuffix(f.out, "_test.go") {
		return c.usageErr(env, "-out %s: want a .go file name that does not end in _test.go", f.out)
	}
	files, n, err := generateFiles(&f)
	if err != nil {
		return reportGenerate(env, f.format, err)
	}
	if n == 0 { // generateFiles refuses it; kept for the reader
		return reportGenerate(env, f.format, noDescriptors(f.dir))
	}
	if f.check {
		return checkFiles(env, f.format, files)
	}
	for _, o := range files {
		if err := o.apply(); err != nil {
			fmt.Fprintf(env.stderr, "toolgen generate: %v\n", err)
			return exitFailure
		}
	}
	return exitOK
}

// noDescriptors is the 613 for a descriptor directory without
// descriptors: there is nothing to generate, and a package without tools is
// more likely a wrong --tools or misnamed files than what was meant.
func noDescriptors(dir string) error {
	e := tool.SpecErrorf("", "no *%s files here: nothing to generate (check --tools; to drop the generated tools, delete the generated files)%s",
		tool.DescriptorExt, misnamed(dir))
	e.File = dir
	return e
}

// outFile is one file generate owns: what is on disk and what should be.
type outFile struct {
	path string
	old  []byte // nil: missing
	new  []byte // nil: should not exist
}

// generateFiles reads the descriptors, resolves the target package and
// generates both files in memory; n is the number of descriptors. Nothing
// is written.
func generateFiles(f *genFlags) (files []*outFile, n int, err error) {
	descs, err := gen.ReadDir(f.dir)
	if err != nil {
		return nil, 0, err
	}
	if len(descs) == 0 {
		return nil, 0, noDescriptors(f.dir)
	}
	outDir, outBase := filepath.Dir(f.out), filepath.Base(f.out)
	testBase := strings.TrimSuffix(outBase, ".go") + "_test.go"
	temporalBase := gen.TemporalName(outBase)
	// Before go list reads the target package: a FIFO planted as one of
	// generate's own files would block it.
	for _, p := range []string{f.out, filepath.Join(outDir, testBase), filepath.Join(outDir, temporalBase)} {
		if err := refuseIrregular(p); err != nil {
			return nil, 0, err
		}
	}
	target, err := gen.Resolve(outDir, f.pkg, outBase, testBase, temporalBase)
	if err != nil {
		// No target package (no Go module, say): the descriptors' own
		// problems are told too, so that one run shows everything to fix.
		if checked, cerr := checkDir(".", checkTarget{dir: f.dir}); cerr == nil && len(checked) > 0 {
			return nil, 0, errors.Join(mergeProblems(checked, nil), fmt.Errorf("toolgen generate: %w", err))
		}
		return nil, 0, err
	}
	// What toolgen check reports (file trust, examples, names of built-ins,
	// where binaries resolve, ...), then what only generation can find
	// (Go identifiers that clash): every problem at once, each once.
	checked, err := checkDir(".", checkTarget{dir: f.dir})
	if err != nil {
		return nil, 0, err
	}
	out, err := gen.Generate(gen.Config{Package: target.Name, Source: target.Source(f.dir), Reserved: target.Reserved, Temporal: f.temporal}, descs)
	if err := mergeProblems(checked, err); err != nil {
		return nil, 0, err
	}
	files = []*outFile{
		{path: f.out, new: out.Code},
		{path: filepath.Join(outDir, testBase), new: out.Test},
	}
	if f.temporal {
		files = append(files, &outFile{path: filepath.Join(outDir, temporalBase), new: out.Temporal})
	}
	for _, o := range files {
		if err := o.readOld(); err != nil {
			return nil, 0, err
		}
	}
	return files, len(descs), nil
}

// readOld reads what is on disk at o.path. A file without toolgen's header
// is not toolgen's to touch: an error when o would replace it, left alone
// (as if missing) when o would not write it at all.
//
// The file may have been planted by the repository: one that is not a
// regular file (a FIFO, a symlink to /dev/zero) is refused without being
// read, so generate neither blocks on it nor reads without end.
func (o *outFile) readOld() error {
	data, err := readRegular(o.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case gen.IsGenerated(data):
		o.old = data
		return nil
	case o.new == nil:
		return nil
	}
	return fmt.Errorf("%s exists and was not generated by toolgen (its first line is not %q); refusing to overwrite it", o.path, gen.Header)
}

// refuseIrregular returns an error when something that is not a regular
// file (symlinks followed) exists at path.
func refuseIrregular(path string) error {
	info, err := os.Stat(path)
	if err != nil || info.Mode().IsRegular() {
		return nil // a missing file is written; another error shows on reading
	}
	return notRegular(path, info)
}

func notRegular(path string, info fs.FileInfo) error {
	return fmt.Errorf("%s exists and is not a regular file (%s); refusing to read or replace it", path, info.Mode().Type())
}

// readRegular reads the file at path when it is a regular file (symlinks
// followed); otherwise it reads nothing and returns an error. The open does
// not block on a FIFO.
func readRegular(path string) ([]byte, error) {
	data, info, err := regular.Read(path, -1)
	if errors.Is(err, regular.ErrNotRegular) {
		return nil, notRegular(path, info)
	}
	return data, err
}

// mergeProblems joins check's problems and generate's error: each problem
// once (check and the generator share the decoder and validator, so most
// are found by both, word for word), sorted by file, line and column. A
// generator error that is no 613 (a toolgen bug, a package that declares
// Tools) is kept as it is. nil when there is nothing.
func mergeProblems(checked []error, genErr error) error {
	var all []error
	seen := map[string]bool{}
	for _, e := range append(tool.Flatten(errors.Join(checked...)), tool.Flatten(genErr)...) {
		if !seen[e.Error()] {
			seen[e.Error()] = true
			all = append(all, e)
		}
	}
	slices.SortStableFunc(all, func(a, b error) int {
		fa, la, ca := place(a)
		fb, lb, cb := place(b)
		return cmp.Or(strings.Compare(fa, fb), cmp.Compare(la, lb), cmp.Compare(ca, cb))
	})
	return errors.Join(all...)
}

// place is the file, line and column of a 613 (zero for other errors).
func place(err error) (string, int, int) {
	var te *tool.Error
	if errors.As(err, &te) {
		return te.File, te.Line, te.Col
	}
	return "", 0, 0
}

// printFlags prints fs's flags as PrintDefaults does, but those in
// hiddenFlags.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		if !hiddenFlags[f.Name] {
			shown.Var(f.Value, f.Name, f.Usage)
			shown.Lookup(f.Name).DefValue = f.DefValue
		}
	})
	shown.SetOutput(w)
	shown.PrintDefaults()
}

// reportGenerate prints err and returns the exit code: 3 for 613s (each on
// its own line, in format), 1 otherwise.
func reportGenerate(env *cmdEnv, format errorFormat, err error) int {
	if tool.CodeOf(err) == tool.CodeSpec {
		newProblemPrinter(format).print(env.stderr, []error{err})
		if format == formatText {
			fmt.Fprintf(env.stderr, "toolgen generate: invalid descriptors; nothing was written\n")
		}
		return exitSpec
	}
	fmt.Fprintf(env.stderr, "toolgen generate: %v\n", err)
	return exitFailure
}

// checkFiles prints a diff for each stale file and returns 3 if any was.
// The closing message goes to stderr in format: with json or github, one
// problem naming the stale file, so CI annotates it.
func checkFiles(env *cmdEnv, format errorFormat, files []*outFile) int {
	stale := ""
	for _, o := range files {
		oldName, newName := diffNames(o.path)
		if o.old == nil {
			oldName = "/dev/null"
		}
		if o.new == nil {
			newName = "/dev/null"
		}
		if d := diff.Diff(oldName, o.old, newName, o.new); d != nil {
			env.stdout.Write(d)
			if stale == "" {
				stale = o.path
			}
		}
	}
	if stale != "" {
		msg := fmt.Sprintf("%s is not up to date with its descriptors; run go generate (or toolgen generate)", stale)
		if format == formatText {
			fmt.Fprintf(env.stderr, "toolgen generate -check: %s\n", msg)
		} else {
			newProblemPrinter(format).print(env.stderr, []error{&staleError{file: stale, msg: msg}})
		}
		return exitSpec
	}
	return exitOK
}

// diffNames returns the diff headers' names of path: a/path and b/path as
// git writes them, or the path itself when it is absolute.
func diffNames(path string) (oldName, newName string) {
	p := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		return p, p
	}
	return "a/" + p, "b/" + p
}

// apply brings the file on disk to o.new: written atomically when it
// changed, removed when it should not exist (it carries toolgen's header,
// readOwned made sure), left alone when equal.
func (o *outFile) apply() error {
	switch {
	case o.new == nil && o.old == nil, bytes.Equal(o.new, o.old) && o.new != nil:
		return nil
	case o.new == nil:
		return os.Remove(o.path)
	}
	// renameio: a temporary file beside o.path, synced, renamed over it;
	// an existing file keeps its mode, a new one gets 0644 less the umask.
	return writeAtomic(o.path, o.new) // atomic_unix.go, atomic_windows.go
}

// staleError is generate -check's finding that the generated file is not
// what the descriptors give: no 613 of a descriptor, but exit 3 all the same.
type staleError struct{ file, msg string }

func (e *staleError) Error() string { return e.msg }
