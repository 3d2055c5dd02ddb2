package kernel

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// replacement stands for each run of invalid UTF-8, as strings.ToValidUTF8
// is used with it.
const replacement = "\uFFFD"

// drainBufSize is the read size used to drain a child's output pipe.
const drainBufSize = 32 << 10

var drainBufs = sync.Pool{New: func() any { b := make([]byte, drainBufSize); return &b }}

// marker is the line that replaces the dropped middle of a truncated output.
func marker(omitted int64) string {
	return fmt.Sprintf("\n[... %d bytes omitted from the middle ...]\n", omitted)
}

// boundedBuffer is an io.Writer that keeps the first headCap bytes written
// (head) and the last tailCap bytes written (tail, a ring), and only counts the
// bytes in between. Its memory never exceeds headCap+tailCap bytes, and a write
// costs at most two copies of tailCap bytes however long it is. Not safe for
// concurrent use.
type boundedBuffer struct {
	headCap, tailCap int
	head             []byte
	tail             []byte // a ring once len(tail) == tailCap; the oldest byte is tail[start]
	start            int
	total            int64 // bytes written in all
}

// newBoundedBuffer splits limit into a head of limit/2 bytes and a tail of
// the rest.
func newBoundedBuffer(limit int) *boundedBuffer {
	h := limit / 2
	return &boundedBuffer{headCap: h, tailCap: limit - h}
}

// Write keeps what it must of p and never fails.
func (b *boundedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
	if room := b.headCap - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 && b.tailCap > 0 {
		b.writeTail(p)
	}
	return n, nil
}

func (b *boundedBuffer) writeTail(p []byte) {
	if len(p) >= b.tailCap { // p alone fills the ring: everything older is dropped
		b.tail = append(b.tail[:0], p[len(p)-b.tailCap:]...)
		b.start = 0
		return
	}
	if room := b.tailCap - len(b.tail); room > 0 { // still filling: start is 0
		k := min(room, len(p))
		b.tail = append(b.tail, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // full: overwrite the oldest bytes, at most twice around
		k := copy(b.tail[b.start:], p)
		p = p[k:]
		b.start = (b.start + k) % b.tailCap
	}
}

// tailBytes returns the tail in write order.
func (b *boundedBuffer) tailBytes() []byte {
	out := make([]byte, 0, len(b.tail))
	out = append(out, b.tail[b.start:]...)
	return append(out, b.tail[:b.start]...)
}

// lateReadLimit bounds what drain still takes from the pipe once its read
// deadline has passed: what was written before the deadline (a pipe holds at
// most 1 MiB), not a stream from a process that keeps writing.
const lateReadLimit = 1 << 20

// drain copies r into b until r fails (EOF, a close, a deadline). When the
// deadline ends it, what is already buffered in the pipe is still taken
// without waiting: a deadline means "nothing more is coming", and a reader
// that was merely slow to be scheduled must not lose output.
func drain(r *os.File, b io.Writer) {
	bp := drainBufs.Get().(*[]byte)
	defer drainBufs.Put(bp)
	buf := *bp
	for {
		n, err := r.Read(buf)
		b.Write(buf[:n])
		if err == nil {
			continue
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			drainBuffered(r, b, buf)
		}
		return
	}
}

// clip is the bounded, valid UTF-8 view of everything written: head, then
// (when omitted > 0) the marker, then tail.
type clip struct {
	head, tail       string
	headRaw, tailRaw int   // input bytes head and tail stand for
	omitted          int64 // input bytes between them, left out
}

// String is the model-visible output.
func (c clip) String() string {
	if c.omitted == 0 {
		return c.head
	}
	return c.head + marker(c.omitted) + c.tail
}

// clip returns what b holds as valid UTF-8 of at most headCap+tailCap bytes
// (plus the marker). Cuts fall between runes, each run of invalid bytes becomes
// one U+FFFD, and omitted counts every input byte that is not in head or tail.
func (b *boundedBuffer) clip() clip {
	tail := b.tailBytes()
	if int64(len(b.head)+len(tail)) == b.total { // nothing dropped yet
		data := append(b.head[:len(b.head):len(b.head)], tail...)
		if s := strings.ToValidUTF8(string(data), replacement); len(s) <= b.headCap+b.tailCap {
			return clip{head: s, headRaw: len(data)}
		}
		// Replacements made it longer than the limit: cut it like any other.
		h, hn := validPrefix(data, b.headCap, false)
		t, tn := validSuffix(data[hn:], b.tailCap)
		return clip{head: h, tail: t, headRaw: hn, tailRaw: tn, omitted: int64(len(data) - hn - tn)}
	}
	h, hn := validPrefix(b.head, b.headCap, true)
	// The ring may start inside a rune begun in the dropped middle.
	for i := 0; i < utf8.UTFMax-1 && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	t, tn := validSuffix(tail, b.tailCap)
	return clip{head: h, tail: t, headRaw: hn, tailRaw: tn, omitted: b.total - int64(hn) - int64(tn)}
}

// token measures the token at the start of p, as strings.ToValidUTF8 sees
// it: a valid rune, or a maximal run of bytes that do not start one (valid
// false; it becomes one replacement). When more input follows p (partial), an
// incomplete rune at the end of p is not a token: n is 0.
func token(p []byte, partial bool) (n int, valid bool) {
	if p[0] < utf8.RuneSelf {
		return 1, true
	}
	if partial && !utf8.FullRune(p) {
		return 0, false
	}
	if _, w := utf8.DecodeRune(p); w > 1 {
		return w, true
	}
	n = 1
	for n < len(p) && p[n] >= utf8.RuneSelf && (!partial || utf8.FullRune(p[n:])) {
		if _, w := utf8.DecodeRune(p[n:]); w > 1 {
			break
		}
		n++
	}
	return n, false
}

// tokenOut is the number of output bytes a token becomes.
func tokenOut(n int, valid bool) int {
	if valid {
		return n
	}
	return len(replacement)
}

// validPrefix returns the longest run of whole tokens at the start of p whose
// output fits in limit bytes, as valid UTF-8, and how many bytes of p it used.
func validPrefix(p []byte, limit int, partial bool) (string, int) {
	var sb strings.Builder
	i := 0
	for i < len(p) {
		n, valid := token(p[i:], partial)
		if n == 0 || sb.Len()+tokenOut(n, valid) > limit {
			break
		}
		if valid {
			sb.Write(p[i : i+n])
		} else {
			sb.WriteString(replacement)
		}
		i += n
	}
	return sb.String(), i
}

// validSuffix returns the longest run of whole tokens at the end of p (p
// starting on a token boundary) whose output fits in limit bytes, as valid
// UTF-8, and how many bytes of p it used.
func validSuffix(p []byte, limit int) (string, int) {
	total := 0
	for i := 0; i < len(p); {
		n, valid := token(p[i:], false)
		total += tokenOut(n, valid)
		i += n
	}
	from := 0
	for total > limit {
		n, valid := token(p[from:], false)
		total -= tokenOut(n, valid)
		from += n
	}
	return strings.ToValidUTF8(string(p[from:]), replacement), len(p) - from
}
