package gen

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/nanogpt/toolgen/runtime/tool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the generator's output")

// goldenCase is one test case of testdata/: a single NAME.tool.json, or a
// directory NAME/ of descriptors generated together.
type goldenCase struct {
	name  string
	descs []Descriptor
}

// goldenCases lists the cases of testdata/ in name order.
func goldenCases(t testing.TB) []goldenCase {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	for _, e := range entries {
		p := filepath.Join("testdata", e.Name())
		switch {
		case e.IsDir():
			descs, err := ReadDir(p)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, goldenCase{name: e.Name(), descs: descs})
		case strings.HasSuffix(e.Name(), tool.DescriptorExt):
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, goldenCase{
				name:  strings.TrimSuffix(e.Name(), tool.DescriptorExt),
				descs: []Descriptor{{Path: p, Data: data}},
			})
		}
	}
	return cases
}

// goldenConfig is the Config every golden is generated with: the package
// is named after the case, as for a new package.
func goldenConfig(c goldenCase) Config {
	return Config{Package: PackageName(c.name), Source: "gen/testdata"}
}

// goldenFiles returns the case's golden file names: tools file, test file
// and errors.
func goldenFiles(name string) (code, test, errs string) {
	base := filepath.Join("testdata", name)
	return base + ".golden.go", base + ".test.golden.go", base + ".golden.err"
}

// TestGolden generates every case of testdata/ and compares the output with
// its goldens: NAME.golden.go (the tools file), NAME.test.golden.go (the
// examples test, only when the case has examples) or, for an invalid case,
// NAME.golden.err (the exact 613 lines). Run with -update to rewrite them;
// a mismatch is shown as a unified diff.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			codeFile, testFile, errFile := goldenFiles(c.name)
			out, err := Generate(goldenConfig(c), c.descs)
			var code, test, errs []byte
			if err != nil {
				if tool.CodeOf(err) != tool.CodeSpec {
					t.Fatalf("Generate: %v (want a 613 or success)", err)
				}
				errs = []byte(errorLines(err))
			} else {
				code, test = out.Code, out.Test
			}
			compareGolden(t, codeFile, code)
			compareGolden(t, testFile, test)
			compareGolden(t, errFile, errs)
		})
	}
}

// errorLines renders err as toolgen prints it: one 613 per line.
func errorLines(err error) string {
	var b strings.Builder
	for _, e := range tool.Flatten(err) {
		b.WriteString(e.Error() + "\n")
	}
	return b.String()
}

// compareGolden compares got with the golden file (nil: the file must not
// exist), or rewrites it under -update.
func compareGolden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if got == nil {
			if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	switch {
	case errors.Is(err, os.ErrNotExist) && got == nil:
		return
	case errors.Is(err, os.ErrNotExist):
		t.Errorf("%s is missing (run go test ./gen -update); generated:\n%s", file, got)
		return
	case err != nil:
		t.Fatal(err)
	case got == nil:
		t.Errorf("%s exists, but the case generated no such output (run go test ./gen -update to remove it)", file)
		return
	}
	if d := diff.Diff("a/"+file, want, "b/"+file, got); d != nil {
		t.Errorf("generated output differs from %s (run go test ./gen -update to accept):\n%s", file, d)
	}
}

// goConvention is the regexp of https://go.dev/s/generatedcode.
var goConvention = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// TestHeader checks the two header lines of every generated file: the Go
// convention's line, then the module-relative source, and nothing that
// changes from run to run or machine to machine.
func TestHeader(t *testing.T) {
	if !goConvention.MatchString(Header) {
		t.Fatalf("Header %q does not match %s", Header, goConvention)
	}
	for _, c := range goldenCases(t) {
		out, err := Generate(goldenConfig(c), c.descs)
		if err != nil {
			continue
		}
		for _, src := range [][]byte{out.Code, out.Test} {
			if src == nil {
				continue
			}
			lines := strings.SplitN(string(src), "\n", 4)
			if !goConvention.MatchString(lines[0]) || lines[1] != "// source: gen/testdata" || lines[2] != "" {
				t.Errorf("%s: header is %q, want the Go convention's line, // source: gen/testdata, a blank line", c.name, lines[:3])
			}
			if !IsGenerated(src) {
				t.Errorf("%s: IsGenerated is false for generated code", c.name)
			}
			for _, bad := range []string{"/work/", "/tmp/", "toolgen v", "202"} {
				if strings.Contains(lines[0]+lines[1], bad) {
					t.Errorf("%s: header holds %q", c.name, bad)
				}
			}
		}
	}
}

// TestSourceText checks the header's source line cannot be broken by an odd
// directory name.
func TestSourceText(t *testing.T) {
	for in, want := range map[string]string{
		"":              ".",
		"descriptors":   "descriptors",
		"a b/c":         "a b/c",
		"x\ny":          `"x\ny"`,
		"evil\u202edir": `"evil\u202edir"`,
	} {
		if got := sourceText(in); got != want {
			t.Errorf("sourceText(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestIsGenerated(t *testing.T) {
	for src, want := range map[string]bool{
		Header + "\n// source: x\n\npackage x\n": true,
		Header + "\r\n":                          true,
		Header:                                   true,
		"// Code generated by other. DO NOT EDIT.\n": false,
		"package x\n" + Header + "\n":                false,
		"":                                           false,
	} {
		if got := IsGenerated([]byte(src)); got != want {
			t.Errorf("IsGenerated(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestGoldenErrorsHavePositions requires every 613 of the error goldens to
// carry FILE:LINE:COL, except the few that concern the file as a whole.
func TestGoldenErrorsHavePositions(t *testing.T) {
	located := regexp.MustCompile(`^testdata/[^:]+\.tool\.json:\d+:\d+: error 613: `)
	for _, c := range goldenCases(t) {
		_, err := Generate(goldenConfig(c), c.descs)
		for _, e := range tool.Flatten(err) {
			if !located.MatchString(e.Error()) {
				t.Errorf("%s: %q has no position", c.name, e.Error())
			}
		}
	}
}

// TestGenerateErrorsAreAll613 checks an invalid set yields no output at all.
func TestGenerateNoPartialOutput(t *testing.T) {
	good := Descriptor{Path: "good.tool.json", Data: []byte(`{"name":"good","description":"d","command":"ls"}`)}
	bad := Descriptor{Path: "bad.tool.json", Data: []byte(`{"name":"bad","description":"d","command":"rm"}`)}
	out, err := Generate(Config{Package: "p"}, []Descriptor{good, bad})
	if out != nil || err == nil {
		t.Fatalf("Generate = %v, %v; want no output and a 613", out, err)
	}
	if got := err.Error(); !bytes.Contains([]byte(got), []byte(`bad.tool.json:1:33: error 613: binary "rm" is on the deny list`)) {
		t.Errorf("error = %q", got)
	}
}

// TestExampleAgentIsFresh is `toolgen generate -check` on the example agent
// repository's tools (descriptors/ has its own test): the committed files
// are what their descriptors give.
func TestExampleAgentIsFresh(t *testing.T) {
	dir := filepath.Join("..", "examples", "agent", "tools")
	descs, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	target, err := Resolve(dir, "", "tools_gen.go", "tools_gen_test.go")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Generate(Config{Package: target.Name, Source: target.Source(dir), Reserved: target.Reserved}, descs)
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string][]byte{"tools_gen.go": out.Code, "tools_gen_test.go": out.Test} {
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if d := diff.Diff("a/"+file, got, "b/"+file, want); d != nil {
			t.Errorf("examples/agent/tools/%s is stale; run go generate ./examples/...:\n%s", file, d)
		}
	}
}
