package descriptors_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/gen"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestGeneratedIsFresh is `toolgen generate -check` as a test: the committed
// tools_gen.go and tools_gen_test.go are exactly what the descriptors give.
func TestGeneratedIsFresh(t *testing.T) {
	descs, err := gen.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	target, err := gen.Resolve(".", "", "tools_gen.go", "tools_gen_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if target.Name != "descriptors" || target.Path != "github.com/nanogpt/toolgen/descriptors" {
		t.Fatalf("Resolve = %+v", target)
	}
	out, err := gen.Generate(gen.Config{Package: target.Name, Source: target.Source("."), Reserved: target.Reserved}, descs)
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string][]byte{"tools_gen.go": out.Code, "tools_gen_test.go": out.Test} {
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if d := diff.Diff("a/descriptors/"+file, got, "b/descriptors/"+file, want); d != nil {
			t.Errorf("descriptors/%s is stale; run go generate ./descriptors:\n%s", file, d)
		}
	}
}

// decoded returns the descriptors of this directory, decoded by the runtime.
func decoded(t *testing.T) map[string]tool.Spec {
	t.Helper()
	files, err := filepath.Glob("*" + tool.DescriptorExt)
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]tool.Spec{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := tool.DecodeSpec(f, data)
		if err != nil {
			t.Fatal(err)
		}
		specs[s.Name] = s
	}
	return specs
}

// TestDigestsMatchDescriptors: the digest the loader computes from each file
// is the one compiled in, so the loader skips these files as already
// compiled.
func TestDigestsMatchDescriptors(t *testing.T) {
	specs := decoded(t)
	digests := descriptors.Digests()
	if len(digests) != len(specs) || len(specs) < 6 {
		t.Fatalf("%d digests for %d descriptors", len(digests), len(specs))
	}
	for name, s := range specs {
		if got := tool.Digest(s); digests[name] != got {
			t.Errorf("%s: compiled digest %s, descriptor's %s", name, digests[name], got)
		}
	}
}

func TestTools(t *testing.T) {
	k, err := kernel.New("..")
	if err != nil {
		t.Fatal(err)
	}
	tools, err := descriptors.Tools(k)
	if err != nil {
		t.Fatal(err)
	}
	specs := decoded(t)
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name())
		st, ok := tl.(tool.SpecTool)
		if !ok {
			t.Fatalf("%s is not a SpecTool", tl.Name())
		}
		if got, want := st.Spec(), specs[tl.Name()]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: compiled Spec\n%+v\ndescriptor's\n%+v", tl.Name(), got, want)
		}
		if d, ok := tl.(interface{ Digest() string }); !ok || d.Digest() != descriptors.Digests()[tl.Name()] {
			t.Errorf("%s: no Digest method or the wrong digest", tl.Name())
		}
	}
	want := "count_lines find_by_name git_log list_dir print_lines search_text"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("Tools = %s, want %s", got, want)
	}
}

// TestTypedRun runs generated tools on this repository through their typed
// Run: the same checks as a JSON call.
func TestTypedRun(t *testing.T) {
	k, err := kernel.New("..")
	require.NoError(t, err)
	ctx := context.Background()
	cl, err := descriptors.NewCountLines(k)
	require.NoError(t, err)
	res, err := cl.Run(ctx, descriptors.CountLinesArgs{Path: "go.mod"})
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode)
	assert.Contains(t, res.Output, " go.mod")
	st, err := descriptors.NewSearchText(k)
	require.NoError(t, err)
	res, err = st.Run(ctx, descriptors.SearchTextArgs{Pattern: "^package.descriptors", Path: new("descriptors/doc.go")})
	require.NoError(t, err)
	assert.Contains(t, res.Output, "package descriptors")
	res, err = st.Run(ctx, descriptors.SearchTextArgs{Pattern: "no_such_line_anywhere", Path: new("descriptors/doc.go")})
	require.NoError(t, err, "a command that finds nothing is a result, not an error")
	assert.Equal(t, 1, res.ExitCode)
	pl, err := descriptors.NewPrintLines(k)
	require.NoError(t, err)
	res, err = pl.Run(ctx, descriptors.PrintLinesArgs{Range: "1", Path: "go.mod"})
	require.NoError(t, err)
	assert.Equal(t, "exit: 0\noutput: module github.com/nanogpt/toolgen\n", res.Text())
	assert.False(t, res.Truncated)
	assert.False(t, res.TimedOut)
	for _, c := range []struct {
		run  func() (kernel.Result, error)
		want string
	}{
		{func() (kernel.Result, error) {
			return pl.Run(ctx, descriptors.PrintLinesArgs{Range: "1;e", Path: "go.mod"})
		}, `slot "range"`},
		{func() (kernel.Result, error) {
			return pl.Run(ctx, descriptors.PrintLinesArgs{Range: "1", Path: "../../etc/passwd"})
		}, `slot "path"`},
		{func() (kernel.Result, error) { return st.Run(ctx, descriptors.SearchTextArgs{Pattern: "--include=x"}) }, "would be read as an option"},
	} {
		res, err := c.run()
		assert.Equal(t, tool.CodeValue, tool.CodeOf(err), "%v", err)
		assert.ErrorContains(t, err, c.want)
		assert.Nil(t, res.Argv, "a rejected call runs nothing")
	}
}

// TestDocListsTools keeps the package doc's table in line with the tools.
func TestDocListsTools(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for name := range descriptors.Digests() {
		if !bytes.Contains(doc, []byte("//\t"+name+" ")) {
			t.Errorf("doc.go does not list %s", name)
		}
	}
}
