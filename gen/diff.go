package gen

import (
	"bytes"
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// maxEditDistance bounds the Myers search (its memory grows with the
// square of the number of changed lines); past it the changed middle of the
// files is shown as removed and added whole, which is still a correct diff.
const maxEditDistance = 2000

// Diff returns a unified diff turning old into new, with headers
// "--- oldName" and "+++ newName" (such as a/tools_gen.go and
// b/tools_gen.go, or /dev/null for a missing file) and hunks of three lines
// of context, or nil when the two are equal. A last line without a newline
// is marked "\ No newline at end of file", as diff and git do.
func Diff(oldName string, old []byte, newName string, new []byte) []byte {
	if bytes.Equal(old, new) {
		return nil
	}
	a, b := splitLines(old), splitLines(new)
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	ops := diffLines(a, b)
	for _, h := range hunks(ops) {
		writeHunk(&out, h, a, b)
	}
	return out.Bytes()
}

// splitLines splits s after each newline; a last line without one is kept.
func splitLines(s []byte) []string {
	if len(s) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(s), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// opKind is what an edit does with one line.
type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

// op is one line of an edit script: a line of a (equal, delete), of b
// (insert), or of both (equal: ai and bi).
type op struct {
	kind   opKind
	ai, bi int
}

// diffLines returns an edit script from a to b: the common prefix and
// suffix as they are, the middle by Myers' O(ND) algorithm.
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{opEqual, i, i})
	}
	for _, o := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		o.ai, o.bi = o.ai+pre, o.bi+pre
		ops = append(ops, o)
	}
	for i := suf; i > 0; i-- {
		ops = append(ops, op{opEqual, len(a) - i, len(b) - i})
	}
	return ops
}

// myers finds a shortest edit script from a to b. trace[d] keeps the
// furthest x reached on each diagonal k in [-d, d] after d edits, which is
// all the backtracking needs: memory is O(D²), D the number of edits.
func myers(a, b []string) []op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(n, m)
	}
	off := n + m
	v := make([]int, 2*(n+m)+2)
	var trace [][]int
	for d := 0; d <= n+m; d++ {
		if d > maxEditDistance {
			return replaceAll(n, m)
		}
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
				return backtrack(trace, n, m)
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	return replaceAll(n, m) // unreachable: d = n+m always reaches the end
}

// backtrack walks trace from (n, m) back to (0, 0): at each d, the
// diagonal the path came from, the edit that left it, then the snake of
// equal lines that followed the edit.
func backtrack(trace [][]int, n, m int) []op {
	var rev []op
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1] // diagonals -(d-1)..d-1, at index k+d-1
		k := x - y
		down := k == -d || (k != d && prev[k-1+d-1] < prev[k+1+d-1])
		pk := k - 1
		if down {
			pk = k + 1
		}
		px := prev[pk+d-1]
		py := px - pk
		sx := px + 1 // where the edit ended
		if down {
			sx = px
		}
		for x > sx {
			x, y = x-1, y-1
			rev = append(rev, op{opEqual, x, y})
		}
		if down {
			rev = append(rev, op{opInsert, px, py})
		} else {
			rev = append(rev, op{opDelete, px, py})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{opEqual, x, y})
	}
	ops := make([]op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}

// replaceAll is the script deleting all n lines of a, then inserting all m
// of b.
func replaceAll(n, m int) []op {
	ops := make([]op, 0, n+m)
	for i := 0; i < n; i++ {
		ops = append(ops, op{opDelete, i, 0})
	}
	for j := 0; j < m; j++ {
		ops = append(ops, op{opInsert, n, j})
	}
	return ops
}

// hunks groups an edit script into hunks: the changes with diffContext
// lines around them, changes closer than twice that sharing a hunk.
func hunks(ops []op) [][]op {
	var out [][]op
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == opEqual {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(0, i-diffContext)
		end := i
		for end < len(ops) {
			if ops[end].kind != opEqual {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == opEqual {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(run, end+diffContext)
				break
			}
			end = run
		}
		out = append(out, ops[start:end])
		i = end
	}
	return out
}

func writeHunk(w *bytes.Buffer, h []op, a, b []string) {
	aStart, bStart := h[0].ai, h[0].bi
	var aLen, bLen int
	for _, o := range h {
		switch o.kind {
		case opEqual:
			aLen, bLen = aLen+1, bLen+1
		case opDelete:
			aLen++
		case opInsert:
			bLen++
		}
	}
	fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, o := range h {
		line := ""
		switch o.kind {
		case opEqual, opDelete:
			line = a[o.ai]
		case opInsert:
			line = b[o.bi]
		}
		w.WriteByte(byte(o.kind))
		w.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			w.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange formats a hunk's line range: "start,count", where start is
// 1-based (the line before, for an empty range) and ",1" is left out.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
