package gen

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// temporalCases are the golden cases whose Temporal stubs are kept as
// NAME.temporal.golden.go: several tools (multi), one that writes
// (hints), every slot type (all_types).
var temporalCases = []string{"all_types", "hints", "multi"}

// TestGoldenTemporal generates the Temporal workflow stubs of
// temporalCases and compares them with their goldens (-update rewrites
// them). The stubs compile and run against a real Temporal server in the
// adapter module's tests (adapters/temporaltool), which requires the SDK.
func TestGoldenTemporal(t *testing.T) {
	cases := goldenCases(t)
	for _, name := range temporalCases {
		t.Run(name, func(t *testing.T) {
			i := slices.IndexFunc(cases, func(c goldenCase) bool { return c.name == name })
			if i < 0 {
				t.Fatalf("no golden case %s in testdata/", name)
			}
			cfg := goldenConfig(cases[i])
			plain, err := Generate(cfg, cases[i].descs)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Temporal = true
			out, err := Generate(cfg, cases[i].descs)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Code, plain.Code) || !bytes.Equal(out.Test, plain.Test) {
				t.Errorf("Temporal changed the tools file or its test; it must only add the stubs file")
			}
			compareGolden(t, filepath.Join("testdata", name+".temporal.golden.go"), out.Temporal)
		})
	}
}

// TestTemporalStubs checks what every stub file holds: the header, the
// imports, one ExecuteX per tool over its Spec and Args, the retry line
// its descriptor implies, and nothing without Config.Temporal.
func TestTemporalStubs(t *testing.T) {
	descs := []Descriptor{
		{Path: "w.tool.json", Data: []byte(`{"name":"write_it","description":"d","command":"touch {path}","writes":true,"arguments":{"path":{"type":"path","description":"p","required":true}}}`)},
		{Path: "r.tool.json", Data: []byte(`{"name":"read_it","description":"d","command":"cat {path}","arguments":{"path":{"type":"path","description":"p","required":true}}}`)},
	}
	plain, err := Generate(Config{Package: "p"}, descs)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Temporal != nil {
		t.Fatalf("stubs generated without Config.Temporal")
	}
	out, err := Generate(Config{Package: "p", Temporal: true}, descs)
	if err != nil {
		t.Fatal(err)
	}
	src := string(out.Temporal)
	for _, want := range []string{
		Header + "\n// source: .\n\npackage p\n",
		`"github.com/nanogpt/toolgen/adapters/temporaltool"`,
		`"go.temporal.io/sdk/workflow"`,
		"func ExecuteReadIt(ctx workflow.Context, args ReadItArgs) (temporaltool.Result, error) {\n\treturn temporaltool.Execute(ctx, ReadItSpec(), args)\n}",
		"func ExecuteWriteIt(ctx workflow.Context, args WriteItArgs) (temporaltool.Result, error) {",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("stubs lack %q:\n%s", want, src)
		}
	}
	read, write := strings.Index(src, "// ExecuteReadIt "), strings.Index(src, "// ExecuteWriteIt ")
	if read < 0 || write < read {
		t.Fatalf("stubs not in name order:\n%s", src)
	}
	if !strings.Contains(src[read:write], "It is retried") || !strings.Contains(src[write:], "It is never retried: the tool writes") {
		t.Errorf("the stubs' docs do not say which is retried:\n%s", src)
	}
	slices.Reverse(descs)
	again, err := Generate(Config{Package: "p", Temporal: true}, descs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Temporal, out.Temporal) {
		t.Errorf("the stubs depend on the order of the descriptors")
	}
}

// TestTemporalNameClash: a package that already declares ExecuteX gets a
// 613 on the tool only when the stubs are generated.
func TestTemporalNameClash(t *testing.T) {
	descs := []Descriptor{{Path: "r.tool.json", Data: []byte(`{"name":"read_it","description":"d","command":"cat {path}","arguments":{"path":{"type":"path","description":"p","required":true}}}`)}}
	reserved := map[string]string{"ExecuteReadIt": "mine.go"}
	if _, err := Generate(Config{Package: "p", Reserved: reserved}, descs); err != nil {
		t.Fatalf("without Temporal, ExecuteReadIt is free: %v", err)
	}
	_, err := Generate(Config{Package: "p", Reserved: reserved, Temporal: true}, descs)
	if tool.CodeOf(err) != tool.CodeSpec || !strings.Contains(err.Error(), "ExecuteReadIt (its Temporal workflow stub), which the package already declares in mine.go") {
		t.Fatalf("err = %v, want a 613 naming ExecuteReadIt and mine.go", err)
	}
}

func TestTemporalName(t *testing.T) {
	for in, want := range map[string]string{
		"tools_gen.go": "tools_temporal_gen.go",
		"x_gen.go":     "x_temporal_gen.go",
		"x.go":         "x_temporal_gen.go",
	} {
		if got := TemporalName(in); got != want {
			t.Errorf("TemporalName(%q) = %q, want %q", in, got, want)
		}
	}
}
