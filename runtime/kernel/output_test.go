//go:build unix

package kernel

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// clipOf writes data to a bounded buffer of the given limit in chunks of
// chunk bytes and returns its clip.
func clipOf(data []byte, limit, chunk int) clip {
	b := newBoundedBuffer(limit)
	for len(data) > 0 {
		n := min(chunk, len(data))
		b.Write(data[:n])
		data = data[n:]
	}
	return b.clip()
}

func TestBoundedBuffer(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		limit   int
		want    string
		omitted int64
	}{
		{"empty", "", 10, "", 0},
		{"fits", "hello", 10, "hello", 0},
		{"exactly the limit", "0123456789", 10, "0123456789", 0},
		{"one over", "0123456789X", 10, "01234" + marker(1) + "6789X", 1},
		{"odd limit", "abcdefghij", 5, "ab" + marker(5) + "hij", 5},
		{"limit 1", "abc", 1, "" + marker(2) + "c", 2},
		{"2-byte runes, head cut", "éééééé", 7, "é" + marker(6) + "éé", 6},
		{"4-byte runes", "😀😀😀😀", 9, "😀" + marker(8) + "😀", 8},
		{"rune straddles both cuts", "ab€€€", 8, "ab" + marker(6) + "€", 6},
		{"invalid replaced", "a\xffb", 10, "a\uFFFDb", 0},
		{"invalid run is one replacement", "a\xff\xfe\xfdb", 10, "a\uFFFDb", 0},
		{"truncated rune at the end", "ab\xe2\x82", 10, "ab\uFFFD", 0},
		{"replacements outgrow the limit", "a\xffb\xffc\xffd", 8, "a\uFFFD" + marker(3) + "\xef\xbf\xbdd", 3},
		{"invalid in the dropped middle", "ab\xff\xff\xffcd", 4, "ab" + marker(3) + "cd", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, chunk := range []int{1, 2, 3, 7, 1 << 20} {
				c := clipOf([]byte(tt.data), tt.limit, chunk)
				if got := c.String(); got != tt.want || c.omitted != tt.omitted {
					t.Errorf("chunk %d: got %q omitted %d; want %q omitted %d", chunk, got, c.omitted, tt.want, tt.omitted)
				}
			}
		})
	}
}

func TestBoundedBufferNeverSplitsRunes(t *testing.T) {
	runes := []string{"a", "é", "€", "😀"}
	for _, r := range runes {
		data := strings.Repeat(r+"x", 100)
		for limit := 1; limit < 40; limit++ {
			c := clipOf([]byte(data), limit, 5)
			s := c.String()
			if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
				t.Fatalf("rune %q limit %d: split a rune: %q", r, limit, s)
			}
			if len(c.head)+len(c.tail) > limit || len(c.head) < limit/2-3 || len(c.tail) < limit-limit/2-3 {
				t.Errorf("rune %q limit %d: head %d bytes, tail %d bytes", r, limit, len(c.head), len(c.tail))
			}
			if int64(c.headRaw)+c.omitted+int64(c.tailRaw) != int64(len(data)) {
				t.Errorf("rune %q limit %d: %d+%d+%d != %d", r, limit, c.headRaw, c.omitted, c.tailRaw, len(data))
			}
		}
	}
}

func TestBoundedBufferMemoryIsBounded(t *testing.T) {
	b := newBoundedBuffer(64)
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 2048)
	for range 1000 {
		b.Write(chunk)
	}
	if cap(b.head) > 64 || cap(b.tail) > 64 {
		t.Errorf("buffers grew to %d and %d bytes", cap(b.head), cap(b.tail))
	}
	if c := b.clip(); c.omitted != int64(1000*len(chunk)-64) {
		t.Errorf("omitted = %d", c.omitted)
	}
}

func TestResultText(t *testing.T) {
	tests := []struct {
		name string
		res  Result
		want string
	}{
		{"plain", Result{Output: "hi\n"}, "exit: 0\noutput: hi\n"},
		{"no trailing newline", Result{ExitCode: 1, Output: "oops"}, "exit: 1\noutput: oops"},
		{"empty", Result{ExitCode: 2}, "exit: 2\noutput: "},
		{"timeout, empty", Result{ExitCode: 124, TimedOut: true, Timeout: 30 * time.Second},
			"exit: 124\noutput: \n[timed out after 30s; process group killed]"},
		{"timeout, open line", Result{ExitCode: 124, TimedOut: true, Timeout: 1500 * time.Millisecond, Output: "partial"},
			"exit: 124\noutput: partial\n[timed out after 1.5s; process group killed]"},
		{"timeout, closed line", Result{ExitCode: 124, TimedOut: true, Timeout: time.Minute, Output: "line\n"},
			"exit: 124\noutput: line\n[timed out after 1m0s; process group killed]"},
		{"timeout unknown", Result{ExitCode: 124, TimedOut: true}, "exit: 124\noutput: \n[timed out; process group killed]"},
	}
	for _, tt := range tests {
		if got := tt.res.Text(); got != tt.want {
			t.Errorf("%s: Text() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// FuzzBoundedOutput checks the bounded writer's promises on arbitrary input,
// written in chunks of arbitrary sizes.
func FuzzBoundedOutput(f *testing.F) {
	f.Add([]byte("hello, world"), uint16(5), uint8(3))
	f.Add([]byte(strings.Repeat("€😀é", 50)), uint16(17), uint8(4))
	f.Add([]byte("a\xffb\xffc\xffd\xff"), uint16(6), uint8(0))
	f.Add([]byte("\xe2\x82\xac\xe2\x82"), uint16(4), uint8(1))
	f.Add([]byte("\x80\x80\x80\x80abc\xf0\x9f"), uint16(3), uint8(2))
	f.Add(bytes.Repeat([]byte{0xff}, 300), uint16(2), uint8(255))
	f.Add([]byte{}, uint16(1), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, limit16 uint16, chunk8 uint8) {
		limit := int(limit16%512) + 1
		chunk := int(chunk8) + 1
		c := clipOf(data, limit, chunk)
		out := c.String()
		valid := strings.ToValidUTF8(string(data), replacement)

		if !utf8.ValidString(out) {
			t.Fatalf("output is not valid UTF-8: %q", out)
		}
		if n := len(c.head) + len(c.tail); n > limit {
			t.Fatalf("kept %d bytes, limit %d", n, limit)
		}
		if len(out) > limit+len(marker(c.omitted)) {
			t.Fatalf("output %d bytes, limit %d plus marker", len(out), limit)
		}
		if int64(c.headRaw)+c.omitted+int64(c.tailRaw) != int64(len(data)) || c.omitted < 0 {
			t.Fatalf("head %d + omitted %d + tail %d != %d input bytes", c.headRaw, c.omitted, c.tailRaw, len(data))
		}
		if c.omitted < int64(len(data)-limit) {
			t.Fatalf("omitted %d, but %d bytes exceed the limit", c.omitted, len(data)-limit)
		}
		if truncated := len(data) > limit || len(valid) > limit; truncated != (c.omitted > 0) {
			t.Fatalf("omitted %d; input %d bytes (%d valid), limit %d", c.omitted, len(data), len(valid), limit)
		}
		if c.omitted == 0 {
			if out != valid {
				t.Fatalf("untruncated output %q, want %q", out, valid)
			}
			return
		}
		if !strings.HasPrefix(valid, c.head) || !strings.HasSuffix(valid, c.tail) {
			t.Fatalf("head %q / tail %q not a prefix / suffix of %q", c.head, c.tail, valid)
		}
		if got := strings.ToValidUTF8(string(data[:c.headRaw]), replacement); got != c.head {
			t.Fatalf("head %q stands for %q", c.head, got)
		}
		if got := strings.ToValidUTF8(string(data[len(data)-c.tailRaw:]), replacement); got != c.tail {
			t.Fatalf("tail %q stands for %q", c.tail, got)
		}
		if utf8.Valid(data) && (len(c.head) < limit/2-3 || len(c.tail) < limit-limit/2-3) {
			t.Fatalf("valid input, limit %d: head %d and tail %d bytes lost more than a rune", limit, len(c.head), len(c.tail))
		}
	})
}

// TestDrainTakesBufferedOutputAfterDeadline plays a drainer scheduled only
// after Run gave up waiting for EOF: what the pipe holds is still read.
func TestDrainTakesBufferedOutputAfterDeadline(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close() // held open throughout: no EOF, like an escaped writer
	want := strings.Repeat("late output ", 5000)
	if _, err := w.Write([]byte(want)); err != nil {
		t.Fatal(err)
	}
	if err := r.SetReadDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	b := newBoundedBuffer(len(want))
	drain(r, b)
	if got := b.clip().String(); got != want {
		t.Errorf("drained %d bytes, want %d", len(got), len(want))
	}
}
