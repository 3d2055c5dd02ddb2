package guarantee

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a helper ended the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Skip(args ...any) {
	r.skip = fmt.Sprint(args...)
	runtime.Goexit()
}

// ending runs f on a recorder as a test body would run and returns it.
func ending(t *testing.T, f func(testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// TestMissingSkipsOrFails: Missing skips, and fails where
// TOOLGEN_REQUIRE_GUARANTEES is set, saying why either way.
func TestMissingSkipsOrFails(t *testing.T) {
	t.Setenv(Env, "")
	r := ending(t, func(tb testing.TB) { Missing(tb, "no %s here", "Landlock") })
	if r.skip != "no Landlock here" || r.fatal != "" {
		t.Errorf("unset: skip %q, fatal %q", r.skip, r.fatal)
	}
	t.Setenv(Env, "1")
	r = ending(t, func(tb testing.TB) { Missing(tb, "no %s here", "Landlock") })
	if r.skip != "" || !strings.Contains(r.fatal, Env+" is set") || !strings.Contains(r.fatal, "no Landlock here") {
		t.Errorf("set: skip %q, fatal %q", r.skip, r.fatal)
	}
}

// TestProgram: an installed program's path is returned; a missing one is
// Missing.
func TestProgram(t *testing.T) {
	t.Setenv(Env, "1")
	var got string
	r := ending(t, func(tb testing.TB) { got = Program(tb, "sh") })
	if r.fatal != "" || r.skip != "" || !strings.HasSuffix(got, "/sh") {
		t.Errorf("sh: %q, fatal %q, skip %q", got, r.fatal, r.skip)
	}
	r = ending(t, func(tb testing.TB) { Program(tb, "toolgen-no-such-program") })
	if !strings.Contains(r.fatal, "toolgen-no-such-program is not installed") {
		t.Errorf("a missing program: fatal %q, skip %q", r.fatal, r.skip)
	}
}

// TestBareSkipsFound: the scan finds every skip that is not under
// testing.Short() alone or in a benchmark, whatever its receiver.
func TestBareSkipsFound(t *testing.T) {
	src := `package p

func TestA(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	if testing.Short() {
		if x {
			t.Skip("nested") // bare: the innermost if is not Short
		}
	} else {
		t.Skipf("else") // bare
	}
	if !testing.Short() || x {
		t.SkipNow() // bare
	}
	guarantee.Missing(t, "fine")
	t.Run("sub", func(t *testing.T) { t.Skip("in a closure") }) // bare
}

func helper(tb testing.TB) { tb.Skip("helper") } // bare

func BenchmarkB(b *testing.B) { b.Skip("benchmarks do not run in the tests") }

func FUZZF(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { t.Skip() }) } // bare
`
	// Spelled FUZZ here so that the README's count of fuzz targets does
	// not count this one.
	src = strings.ReplaceAll(src, "FUZZ", "Fuzz")
	found, err := bareSkips("p/p_test.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range found {
		got = append(got, fmt.Sprintf("%d %s", s.pos.Line, s.key))
	}
	want := []string{
		"9 p/p_test.go:TestA", "12 p/p_test.go:TestA", "15 p/p_test.go:TestA", "18 p/p_test.go:TestA",
		"21 p/p_test.go:helper", "25 p/p_test.go:FuzzF",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBadScriptSkipsFound: a script may skip on the platform, root or
// not, an absent path or [!tool:NAME]; any other condition, or none, is
// reported. Lines of the files after the script are not read.
func TestBadScriptSkipsFound(t *testing.T) {
	script := `[!linux] skip 'Linux only'
[!amd64] [!arm64] skip 'the filter is built for amd64 and arm64'
[!root] skip 'root only'
[!tool:cc] skip 'no C compiler'
[!absent:/run/docker.sock] skip 'a real socket'
[!exec:make] skip 'make is not installed'
[!tool:nm] [!net] skip 'no network'
skip 'not now'
# a comment may say skip
exec toolgen list
-- a.txt --
skip in a file is data
`
	got, err := badScriptSkips("s.txtar", strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"s.txtar:6: [!exec:make] skip 'make is not installed'",
		"s.txtar:7: [!tool:nm] [!net] skip 'no network'",
		"s.txtar:8: skip 'not now'",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
