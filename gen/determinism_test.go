package gen

import (
	"bytes"
	"go/format"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
)

// allDescriptors returns the descriptors of every valid golden case and of
// the project's descriptors/, as one set (their names do not clash).
func allDescriptors(t *testing.T) []Descriptor {
	t.Helper()
	var descs []Descriptor
	for _, c := range goldenCases(t) {
		if _, err := Generate(goldenConfig(c), c.descs); err == nil && c.name != "search_text" {
			descs = append(descs, c.descs...)
		}
	}
	own, err := ReadDir("../descriptors")
	if err != nil {
		t.Fatal(err)
	}
	return append(descs, own...)
}

// TestDeterministic generates the same set twice, then in many shuffled
// orders and from several goroutines at once: the bytes never change.
func TestDeterministic(t *testing.T) {
	descs := allDescriptors(t)
	cfg := Config{Package: "all", Source: "x", Reserved: map[string]string{
		"json": "a.go", "fmt": "b.go", "context": "c.go", "kernel": "d.go", "Helper": "e.go", "toolgenjson": "f.go",
	}}
	first, err := Generate(cfg, descs)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Tools) < 10 || first.Test == nil {
		t.Fatalf("the set is too small to prove much: %v", first.Tools)
	}
	if !slices.IsSorted(first.Tools) {
		t.Errorf("tools are not in name order: %v", first.Tools)
	}
	same := func(label string, out *Output) {
		t.Helper()
		if !bytes.Equal(out.Code, first.Code) || !bytes.Equal(out.Test, first.Test) {
			t.Errorf("%s: output differs:\n%s", label, diff.Diff("first", first.Code, label, out.Code))
		}
	}
	again, err := Generate(cfg, descs)
	if err != nil {
		t.Fatal(err)
	}
	same("second run", again)

	r := rand.New(rand.NewPCG(1, 2))
	for i := range 8 {
		shuffled := slices.Clone(descs)
		r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		out, err := Generate(cfg, shuffled)
		if err != nil {
			t.Fatal(err)
		}
		same("shuffle "+string(rune('a'+i)), out)
	}

	var wg sync.WaitGroup
	outs := make([]*Output, 4)
	for i := range outs {
		wg.Go(func() {
			out, err := Generate(cfg, descs)
			if err != nil {
				t.Error(err)
			}
			outs[i] = out
		})
	}
	wg.Wait()
	for _, out := range outs {
		if out != nil {
			same("concurrent", out)
		}
	}
}

// TestDeterministicErrors: the 613s of an invalid set come in one order,
// whatever the order of the files.
func TestDeterministicErrors(t *testing.T) {
	var descs []Descriptor
	for _, c := range goldenCases(t) {
		descs = append(descs, c.descs...)
	}
	_, err := Generate(Config{Package: "p"}, descs)
	if err == nil {
		t.Fatal("no error for the invalid cases")
	}
	want := errorLines(err)
	r := rand.New(rand.NewPCG(3, 4))
	for range 10 {
		r.Shuffle(len(descs), func(a, b int) { descs[a], descs[b] = descs[b], descs[a] })
		_, err := Generate(Config{Package: "p"}, descs)
		if got := errorLines(err); got != want {
			t.Fatalf("errors differ with the order of files:\n%s", diff.Diff("want", []byte(want), "got", []byte(got)))
		}
	}
}

// TestWorkersDoNotMatter: the file is cut into parts rendered concurrently;
// how many goroutines do it never shows in the output.
func TestWorkersDoNotMatter(t *testing.T) {
	descs := synthetic(2*toolsPerPart + 7)
	want, err := generate(Config{Package: "p"}, descs, 1)
	if err != nil {
		t.Fatal(err)
	}
	workers := []int{2, 5}
	if testing.Short() {
		workers = []int{3} // under -race, each run takes a second
	}
	for _, w := range workers {
		got, err := generate(Config{Package: "p"}, descs, w)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Code, want.Code) || !bytes.Equal(got.Test, want.Test) {
			t.Errorf("%d workers: output differs:\n%s", w, diff.Diff("1", want.Code, strconv.Itoa(w), got.Code))
		}
	}
}

// TestGofmtClean: every output is exactly what gofmt makes of it, the
// golden cases and a large synthetic set cut into many parts alike.
func TestGofmtClean(t *testing.T) {
	outs := map[string]*Output{}
	for _, c := range goldenCases(t) {
		if out, err := Generate(goldenConfig(c), c.descs); err == nil {
			outs[c.name] = out
		}
	}
	big, err := Generate(Config{Package: "p", Reserved: map[string]string{"json": "x.go"}}, synthetic(2*toolsPerPart+1))
	if err != nil {
		t.Fatal(err)
	}
	outs["synthetic"] = big
	for name, out := range outs {
		for _, src := range [][]byte{out.Code, out.Test} {
			if src == nil {
				continue
			}
			formatted, err := format.Source(src)
			if err != nil {
				t.Errorf("%s: does not parse: %v", name, err)
				continue
			}
			if d := diff.Diff("generated", src, "gofmt", formatted); d != nil {
				t.Errorf("%s: not gofmt-clean:\n%s", name, d)
			}
		}
	}
}
