package gen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestDiffExact(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"change in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n", `--- a/f
+++ b/f
@@ -2,7 +2,7 @@
 2
 3
 4
-5
+five
 6
 7
 8
`},
		{"missing file", "", "x\ny\n", `--- a/f
+++ b/f
@@ -0,0 +1,2 @@
+x
+y
`},
		{"removed file", "x\n", "", `--- a/f
+++ b/f
@@ -1 +0,0 @@
-x
`},
		{"two hunks", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n", "A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\n", `--- a/f
+++ b/f
@@ -1,4 +1,4 @@
-a
+A
 b
 c
 d
@@ -9,4 +9,4 @@
 i
 j
 k
-l
+L
`},
		{"close changes share a hunk", "a\nb\nc\nd\ne\nf\n", "A\nb\nc\nd\ne\nF\n", `--- a/f
+++ b/f
@@ -1,6 +1,6 @@
-a
+A
 b
 c
 d
 e
-f
+F
`},
		{"no newline at end", "a\nb", "a\nc", `--- a/f
+++ b/f
@@ -1,2 +1,2 @@
 a
-b
\ No newline at end of file
+c
\ No newline at end of file
`},
		{"newline added at end", "a", "a\n", `--- a/f
+++ b/f
@@ -1 +1 @@
-a
\ No newline at end of file
+a
`},
		{"insertion", "a\nb\nc\n", "a\nb\nnew\nc\n", `--- a/f
+++ b/f
@@ -1,3 +1,4 @@
 a
 b
+new
 c
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := string(Diff("a/f", []byte(c.old), "b/f", []byte(c.new)))
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// TestDiffApplies checks, on random edits, that every diff applied to the
// old text gives the new one, and that Myers finds a shortest script (no
// longer than the edits made).
func TestDiffApplies(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 500 {
		n := r.IntN(40)
		var old []string
		for range n {
			old = append(old, strconv.Itoa(r.IntN(8))+"\n")
		}
		cur := append([]string(nil), old...)
		edits := r.IntN(6)
		for range edits {
			switch k := r.IntN(3); {
			case k == 0 && len(cur) > 0:
				j := r.IntN(len(cur))
				cur = append(cur[:j], cur[j+1:]...)
			case k == 1:
				j := r.IntN(len(cur) + 1)
				cur = append(cur[:j], append([]string{"x" + strconv.Itoa(r.IntN(3)) + "\n"}, cur[j:]...)...)
			default:
				if len(cur) > 0 {
					cur[r.IntN(len(cur))] = "y\n"
				}
			}
		}
		a, b := strings.Join(old, ""), strings.Join(cur, "")
		if r.IntN(4) == 0 && len(b) > 0 {
			b = strings.TrimSuffix(b, "\n")
		}
		d := Diff("a", []byte(a), "b", []byte(b))
		if (d == nil) != (a == b) {
			t.Fatalf("case %d: nil diff = %v for equal = %v", i, d == nil, a == b)
		}
		if d == nil {
			continue
		}
		got, err := applyDiff(a, string(d))
		if err != nil || got != b {
			t.Fatalf("case %d: applying\n%s\nto %q gives %q (%v), want %q", i, d, a, got, err, b)
		}
		changes := 0
		for _, o := range diffLines(splitLines([]byte(a)), splitLines([]byte(b))) {
			if o.kind != opEqual {
				changes++
			}
		}
		if changes > 2*edits+2 {
			t.Fatalf("case %d: %d changed lines for %d edits", i, changes, edits)
		}
	}
}

// TestDiffLarge: past maxEditDistance the middle is replaced whole, and the
// diff still applies.
func TestDiffLarge(t *testing.T) {
	var a, b strings.Builder
	for i := range 3*maxEditDistance + 10 {
		fmt.Fprintf(&a, "line %d\n", i)
		fmt.Fprintf(&b, "line %d changed\n", i)
	}
	d := Diff("a", []byte(a.String()), "b", []byte(b.String()))
	got, err := applyDiff(a.String(), string(d))
	if err != nil || got != b.String() {
		t.Fatalf("large diff does not apply: %v", err)
	}
}

// applyDiff applies a unified diff made by Diff to old.
func applyDiff(old, diff string) (string, error) {
	src := splitLines([]byte(old))
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	next := 0 // next line of src to copy
	for i := 2; i < len(lines) && lines[i] != ""; i++ {
		l := lines[i]
		if strings.HasPrefix(l, "@@") {
			var as, al, bs, bl int
			if _, err := fmt.Sscanf(strings.ReplaceAll(hunkHeader(l), ",", " "), "-%d %d +%d %d", &as, &al, &bs, &bl); err != nil {
				return "", fmt.Errorf("bad hunk header %q: %v", l, err)
			}
			start := as - 1
			if al == 0 {
				start = as
			}
			out = append(out, src[next:start]...)
			next = start
			continue
		}
		if strings.HasPrefix(l, `\`) {
			last := len(out) - 1
			if last >= 0 && (lines[i-1][0] == '+' || lines[i-1][0] == ' ') {
				out[last] = strings.TrimSuffix(out[last], "\n")
			}
			continue
		}
		switch l[0] {
		case ' ':
			out = append(out, src[next])
			next++
		case '-':
			next++
		case '+':
			out = append(out, l[1:])
		default:
			return "", fmt.Errorf("bad line %q", l)
		}
	}
	out = append(out, src[next:]...)
	return strings.Join(out, ""), nil
}

// hunkHeader turns "@@ -a,b +c,d @@" into "-a,b +c,d", adding the ",1"
// that Diff leaves out.
func hunkHeader(l string) string {
	f := strings.Fields(l)
	for i := 1; i <= 2; i++ {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return f[1] + " " + f[2]
}

func BenchmarkDiff(b *testing.B) {
	var a, c strings.Builder
	for i := range 60000 {
		fmt.Fprintf(&a, "line %d\n", i)
		if i%100 == 0 {
			fmt.Fprintf(&c, "changed %d\n", i)
		} else {
			fmt.Fprintf(&c, "line %d\n", i)
		}
	}
	old, new := []byte(a.String()), []byte(c.String())
	for b.Loop() {
		Diff("a", old, "b", new)
	}
}
