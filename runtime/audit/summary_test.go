package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/tool"
)

func TestSummarize(t *testing.T) {
	var buf bytes.Buffer
	a := New(NewWriter(&buf), WithTransport("cli"))
	echo := a.Wrap(commandTool(t, "echo", "echo {w}", 10*time.Second, str("w")), tool.FormBuiltin)
	nap := a.Wrap(commandTool(t, "nap", "sleep {secs}", 200*time.Millisecond, str("secs")), tool.FormDescriptor)
	for _, w := range []string{"a", "b", "c"} {
		_, err := echo.Call(context.Background(), json.RawMessage(`{"w":"`+w+`"}`))
		require.NoError(t, err)
	}
	for _, bad := range []string{`{"w":"-x"}`, `{"w":"--y"}`, `{"w":"a;b"}`, `{}`} {
		_, err := echo.Call(context.Background(), json.RawMessage(bad))
		require.Error(t, err)
	}
	_, err := nap.Call(context.Background(), json.RawMessage(`{"secs":"3"}`))
	require.NoError(t, err)
	require.NoError(t, a.Refused(context.Background(), "exec", json.RawMessage(`{"command":"id"}`), "unknown tool", errors.New(`unknown tool "exec"`)))
	log := buf.String() + "not a record\n" +
		`{"seq":99,"tool":"echo","duration_ms":0.5}` + "\n" // a jump: 10 records, then 99

	s, err := Summarize(strings.NewReader(log), 2)
	require.NoError(t, err)
	assert.Equal(t, 10, s.Calls)
	assert.Equal(t, 1, s.BadLines)
	assert.Equal(t, []int{10}, s.BadLineNos)
	assert.Equal(t, 1, s.Gaps)
	assert.Equal(t, 8, s.Tools["echo"].Calls)
	assert.Equal(t, 4, s.Tools["echo"].Refused)
	assert.Equal(t, 1, s.Tools["nap"].Calls)
	assert.Equal(t, 1, s.Tools["exec"].Refused, "a call that reached no tool is a refusal")
	assert.Equal(t, 1, s.Refusals["unknown tool"])
	assert.Equal(t, 2, s.Refusals["leading dash"])
	assert.Equal(t, 1, s.Refusals["missing argument"])
	assert.Equal(t, 4, s.Refusals["leading dash"]+s.Refusals["missing argument"]+s.Refusals["character"]+s.Refusals["metacharacter"])
	require.Len(t, s.Slowest, 2)
	// The timed-out sleep is usually the slowest, but on a loaded machine
	// an echo can take longer than its 200 ms: the records say which.
	assert.Equal(t, slowestTool(t, buf.String()), s.Slowest[0].Tool)
	assert.GreaterOrEqual(t, s.Slowest[0].DurationMS, s.Slowest[1].DurationMS)
	require.Len(t, s.Killed, 1)
	assert.True(t, s.Killed[0].TimedOut)

	var out bytes.Buffer
	require.NoError(t, s.WriteText(&out))
	text := out.String()
	for _, want := range []string{"calls: 10", "sequence gaps (records missing): 1", "lines that are not records: 1 (line 10)", "unknown tool",
		"calls per tool:", "refusals per rule:", "leading dash", "slowest calls:", "processes killed:", "timed out", "sleep 3"} {
		assert.Contains(t, text, want)
	}
}

// slowestTool returns the tool of the record of log with the longest
// duration_ms.
func slowestTool(t *testing.T, log string) string {
	t.Helper()
	best, max := "", -1.0
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		var r struct {
			Tool       string  `json:"tool"`
			DurationMS float64 `json:"duration_ms"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &r), line)
		if r.DurationMS > max {
			best, max = r.Tool, r.DurationMS
		}
	}
	return best
}

func FuzzSummarize(f *testing.F) {
	f.Add(`{"seq":1,"tool":"x","duration_ms":1,"killed":true,"argv":["a b"]}` + "\n" + `{"seq":3,"tool":"x","code":614,"rule":"r"}`)
	f.Add("\n\n{]\n")
	f.Add(`{"seq":1,"tool":"x","exit":null,"args":{"a":[1,{"b":2}]}}`)
	f.Add(`{"seq":1,"tool":"x\u001b[31m\n","time":"\u202e","argv":["\t"],"killed":true}` + "\n" + strings.Repeat("y", 100))
	f.Fuzz(func(t *testing.T, log string) {
		// Lines over 80 bytes take the path of lines over 64 MiB.
		old := maxLineBytes
		maxLineBytes = 80
		defer func() { maxLineBytes = old }()
		s, err := Summarize(strings.NewReader(log), 3)
		if err != nil {
			t.Fatal(err) // a strings.Reader does not fail
		}
		if len(s.Slowest) > 3 {
			t.Fatalf("%d slowest", len(s.Slowest))
		}
		lines := 0
		for _, l := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
			if len(l) > 80 || len(bytes.TrimSpace([]byte(l))) > 0 {
				lines++
			}
		}
		if s.Calls+s.BadLines != lines {
			t.Fatalf("%d calls + %d bad lines, but %d lines", s.Calls, s.BadLines, lines)
		}
		n := 0
		for _, ts := range s.Tools {
			n += ts.Calls
		}
		if n != s.Calls {
			t.Fatalf("tools count %d calls, total %d", n, s.Calls)
		}
		var b bytes.Buffer
		if err := s.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		for _, r := range b.String() {
			if r != '\n' && r != ' ' && !unicode.IsPrint(r) {
				t.Fatalf("the summary holds %U:\n%s", r, b.String())
			}
		}
	})
}

// TestWriteTextHostileLog: a log may be hostile (written where the agent can
// write, or handed over); its strings reached the terminal as they were, so a
// tool name, time, rule or argv word could send escape sequences, forge a row
// with a newline or shift the columns with a tab. Each cell is escaped, and
// every line of the text is a line of the summary's own.
func TestWriteTextHostileLog(t *testing.T) {
	rec := map[string]any{
		"seq": 1, "time": "t\x1b[2J", "tool": "x\x1b]0;pwn\a\nFAKE\tROW", "duration_ms": 5,
		"argv": []string{"a\x1b[31m", "b\u202e", "c\x7f"}, "killed": true, "timed_out": true,
		"code": 614, "rule": "r\x1b[1m\nforged\u2028",
	}
	line, err := json.Marshal(rec)
	require.NoError(t, err)
	s, err := Summarize(bytes.NewReader(append(line, '\n')), 5)
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, s.WriteText(&out))
	text := out.String()
	for i, r := range text {
		if r != '\n' && r != ' ' && !unicode.IsPrint(r) {
			t.Fatalf("the summary holds %U at byte %d:\n%s", r, i, text)
		}
	}
	assert.NotContains(t, text, "\nFAKE")
	assert.NotContains(t, text, "\nforged")
	assert.Contains(t, text, `x\x1b]0;pwn\a\nFAKE\tROW`)
	assert.Contains(t, text, `"a\x1b[31m" "b\u202e" "c\x7f"`)
}

// TestSummarizeOverlongLine: one line longer than 64 MiB made the whole
// summary fail (bufio.Scanner: token too long), so a log could hide every
// record behind one such line. It counts as a line that is not a record,
// is never held in memory, and the records around it are summarised; a
// long line under the limit (longer than the read buffer) is still a
// record.
func TestSummarizeOverlongLine(t *testing.T) {
	big := `{"seq":2,"tool":"a","args":{"w":"` + strings.Repeat("y", 150<<10) + `"},"duration_ms":1}`
	log := io.MultiReader(
		strings.NewReader(`{"seq":1,"tool":"a","duration_ms":1}`+"\n"+big+"\n"),
		&repeatReader{c: 'x', n: 65 << 20},
		strings.NewReader("\n"+`{"seq":3,"tool":"a","duration_ms":1}`+"\n"),
		&repeatReader{c: 'z', n: 65 << 20}, // the last line, without a newline
	)
	s, err := Summarize(log, 1)
	require.NoError(t, err)
	assert.Equal(t, 3, s.Calls)
	assert.Equal(t, 2, s.BadLines)
	assert.Equal(t, []int{3, 5}, s.BadLineNos)
	assert.Equal(t, 0, s.Gaps)
}

// repeatReader reads n bytes c.
type repeatReader struct {
	c     byte
	n     int
	chunk []byte
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	if r.chunk == nil {
		r.chunk = bytes.Repeat([]byte{r.c}, 64<<10)
	}
	k := copy(p[:min(len(p), r.n)], r.chunk)
	r.n -= k
	return k, nil
}
