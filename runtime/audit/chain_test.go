package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// echoTool is a tool whose call returns its arguments, counting its runs.
type echoTool struct{ runs int }

func (e *echoTool) Name() string                 { return "echo" }
func (e *echoTool) Description() string          { return "echo" }
func (e *echoTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (e *echoTool) Call(_ context.Context, args json.RawMessage) (string, error) {
	e.runs++
	return string(args), nil
}

func verifyFiles(t *testing.T, paths ...string) *Verification {
	t.Helper()
	var files []Named
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		files = append(files, Named{Name: filepath.Base(p), R: bytes.NewReader(data)})
	}
	v, err := Verify(files, 0)
	require.NoError(t, err)
	return v
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestLogFollowsItsPath: once the log's file is deleted, renamed (rotated
// by another program) or replaced while serving, the next call's record
// goes to the path again, after a line saying what happened, and the chain
// runs on.
func TestLogFollowsItsPath(t *testing.T) {
	for _, c := range []struct {
		name, want string
		do         func(path string) error
	}{
		{"deleted", "was deleted", os.Remove},
		{"renamed", "was renamed or moved away", func(p string) error { return os.Rename(p, p+".1") }},
		{"replaced", "was replaced by another file", func(p string) error {
			other := p + ".new"
			if err := os.WriteFile(other, []byte(`{"seq":1,"tool":"x","duration_ms":0}`+"\n"), 0o600); err != nil {
				return err
			}
			return os.Rename(other, p)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, path := openLog(t, Options{SyncInterval: -1})
			echo := &echoTool{}
			tl := New(l).Wrap(echo, tool.FormBuiltin)
			_, err := tl.Call(context.Background(), json.RawMessage(`{"n":1}`))
			require.NoError(t, err)
			require.NoError(t, c.do(path))
			_, err = tl.Call(context.Background(), json.RawMessage(`{"n":2}`))
			require.NoError(t, err)
			require.NoError(t, l.Close())

			recs := readRecords(t, path)
			require.GreaterOrEqual(t, len(recs), 2)
			ev, call := recs[len(recs)-2], recs[len(recs)-1]
			assert.Equal(t, "reopened", ev.Event)
			assert.Contains(t, ev.Detail, c.want)
			assert.Equal(t, uint64(2), ev.Seq)
			assert.Equal(t, `{"n":2}`, string(call.Args))
			assert.Equal(t, uint64(3), call.Seq)

			v := verifyFiles(t, path)
			assert.Nil(t, v.Break, "%v", v.Break)
			if c.name == "renamed" { // the two files make one chain
				v := verifyFiles(t, path+".1", path)
				assert.Nil(t, v.Break, "%v", v.Break)
				assert.False(t, v.Continues)
				assert.Equal(t, 3, v.Chained)
			}
		})
	}
}

// TestLogRefusesCallsUntilItsPathWorks: when the path cannot be opened
// again (a directory took its place), calls are refused without running
// until it can; then a line says so and calls run again.
func TestLogRefusesCallsUntilItsPathWorks(t *testing.T) {
	l, path := openLog(t, Options{SyncInterval: -1})
	echo := &echoTool{}
	tl := New(l).Wrap(echo, tool.FormBuiltin)
	_, err := tl.Call(context.Background(), json.RawMessage(`{"n":1}`))
	require.NoError(t, err)
	require.NoError(t, os.Remove(path))
	require.NoError(t, os.Mkdir(path, 0o700))
	for range 2 {
		_, err = tl.Call(context.Background(), json.RawMessage(`{"n":2}`))
		require.ErrorIs(t, err, ErrNotRecorded)
		assert.Contains(t, err.Error(), "cannot be opened again")
	}
	assert.Equal(t, 1, echo.runs, "no call ran while the log could not be written")
	require.NoError(t, os.Remove(path))
	_, err = tl.Call(context.Background(), json.RawMessage(`{"n":3}`))
	require.NoError(t, err)
	assert.Equal(t, 2, echo.runs)
	recs := readRecords(t, path)
	require.Len(t, recs, 2)
	assert.Equal(t, "reopened", recs[0].Event)
	assert.Contains(t, recs[0].Detail, "until then the calls were refused")
	assert.Equal(t, `{"n":3}`, string(recs[1].Args))
}

// TestEveryLineIsUTF8: arguments holding bytes that are not UTF-8 (a
// refused call's, say) are recorded escaped, so a strict UTF-8 reader
// keeps the line, and the bytes can be read back.
func TestEveryLineIsUTF8(t *testing.T) {
	l, path := openLog(t, Options{SyncInterval: -1})
	a := New(l, WithRedact("token"))
	tl := a.Wrap(&echoTool{}, tool.FormBuiltin)
	for _, args := range []string{"{\"w\":\"a\xff\xfeb\",\"x\":\"\\\\x41\"}", "not json \xc0\xaf", "{\"token\":\"s3cr\xffet!\",\"w\":\"z\xff\"}"} {
		_, err := tl.Call(context.Background(), json.RawMessage(args))
		require.NoError(t, err)
	}
	require.NoError(t, l.Close())
	for i, line := range lines(t, path) {
		assert.True(t, utf8.ValidString(line), "line %d: %q", i+1, line)
	}
	recs := readRecords(t, path)
	require.Len(t, recs, 3)
	assert.Equal(t, `{"w":"a\xff\xfeb","x":"\\\\x41"}`, recs[0].ArgsText)
	assert.Equal(t, `not json \xc0\xaf`, recs[1].ArgsText)
	assert.Equal(t, `{"token":"[redacted]","w":"z\xff"}`, recs[2].ArgsText, "redaction holds")
	assert.NotContains(t, recs[2].ArgsText, "s3cr")
}

// TestChainContinuesAcrossRestarts: a server started again on the same
// file links its first line to the last one there; a torn last line (a
// crash mid-write) is ended and shows as a break.
func TestChainContinuesAcrossRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for range 2 {
		l, err := Open(path, Options{SyncInterval: -1})
		require.NoError(t, err)
		require.NoError(t, l.Write(&Record{Tool: "a"}))
		require.NoError(t, l.Write(&Record{Tool: "b"}))
		require.NoError(t, l.Close())
	}
	v := verifyFiles(t, path)
	require.Nil(t, v.Break, "%v", v.Break)
	assert.Equal(t, 4, v.Chained)
	assert.Equal(t, lineDigest([]byte(lines(t, path)[3])), v.Head)

	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"seq":3,"tool":"c","dur`)
	require.NoError(t, err)
	f.Close()
	l, err := Open(path, Options{SyncInterval: -1})
	require.NoError(t, err)
	require.NoError(t, l.Write(&Record{Tool: "d"}))
	require.NoError(t, l.Close())
	ls := lines(t, path)
	require.Len(t, ls, 6)
	v = verifyFiles(t, path)
	require.NotNil(t, v.Break)
	assert.Equal(t, 5, v.Break.Line)
	assert.Contains(t, v.Break.Reason, "not a record")
}

// chainedLog writes n records and returns the log's lines.
func chainedLog(t testing.TB, n int) []string {
	var buf bytes.Buffer
	l := NewWriter(&buf)
	for i := range n {
		require.NoError(t, l.Write(&Record{Tool: fmt.Sprint("t", i), Args: rawJSON(fmt.Sprintf(`{"i":%d}`, i))}))
	}
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

func verifyLines(ls []string) *Verification {
	v, _ := Verify([]Named{{Name: "audit.jsonl", R: strings.NewReader(strings.Join(ls, "\n") + "\n")}}, 0)
	return v
}

// TestVerifyNamesTheFirstChange: an edited, removed, inserted or
// reordered line breaks the chain, and Verify names it.
func TestVerifyNamesTheFirstChange(t *testing.T) {
	orig := chainedLog(t, 6)
	v := verifyLines(orig)
	require.Nil(t, v.Break)
	assert.Equal(t, 6, v.Chained)
	assert.False(t, v.Continues)
	edit := func(f func(ls []string) []string) []string { return f(append([]string(nil), orig...)) }
	for _, c := range []struct {
		name   string
		ls     []string
		line   int
		reason string
	}{
		{"edited", edit(func(ls []string) []string { ls[2] = strings.Replace(ls[2], `"i":2`, `"i":7`, 1); return ls }), 3, "was edited"},
		{"removed", edit(func(ls []string) []string { return append(ls[:2], ls[4:]...) }), 3, "2 line(s) removed"},
		{"inserted", edit(func(ls []string) []string {
			return append(ls[:3], append([]string{`{"seq":9,"tool":"x","duration_ms":0,"prev":"sha256:00"}`}, ls[3:]...)...)
		}), 4, "inserted or moved here"},
		{"inserted copy", edit(func(ls []string) []string { return append(ls[:4], append([]string{ls[1]}, ls[4:]...)...) }), 5, "inserted or moved"},
		{"reordered", edit(func(ls []string) []string { ls[2], ls[3] = ls[3], ls[2]; return ls }), 3, "inserted or moved here"},
		{"unchained insert", edit(func(ls []string) []string {
			return append(ls[:3], append([]string{`{"seq":4,"tool":"x","duration_ms":0}`}, ls[3:]...)...)
		}), 4, "no prev link"},
		{"garbage", edit(func(ls []string) []string { ls[1] = "rm -rf /"; return ls }), 2, "not a record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := verifyLines(c.ls)
			require.NotNil(t, v.Break, "a %s line went unnoticed", c.name)
			assert.Equal(t, c.line, v.Break.Line, "%v", v.Break)
			assert.Contains(t, v.Break.Reason, c.reason)
		})
	}
	// Lines cut from the head: the log now starts mid-chain with a line
	// that is no rotation's first line, a break at its first line; the last
	// one removed: Head changes.
	for cut := 1; cut < len(orig); cut++ {
		v = verifyLines(orig[cut:])
		require.NotNil(t, v.Break, "%d lines cut from the head went unnoticed", cut)
		assert.Equal(t, 1, v.Break.Line)
		assert.Contains(t, v.Break.Reason, "starts mid-chain")
	}
	v = verifyLines(orig[:5])
	assert.Nil(t, v.Break)
	assert.NotEqual(t, verifyLines(orig).Head, v.Head)
}

// TestVerifyOldUnchainedLog: a log written before chaining verifies as
// unchained lines (none can be checked) and is still summarised.
func TestVerifyOldUnchainedLog(t *testing.T) {
	old := `{"seq":1,"tool":"a","duration_ms":1}` + "\n" + `{"seq":2,"tool":"b","duration_ms":1}` + "\n"
	v, err := Verify([]Named{{Name: "old", R: strings.NewReader(old)}}, 0)
	require.NoError(t, err)
	assert.Nil(t, v.Break)
	assert.Equal(t, 2, v.Unchained)
	assert.Equal(t, 0, v.Chained)
	s, err := Summarize(strings.NewReader(old), 1)
	require.NoError(t, err)
	assert.Equal(t, 2, s.Calls)
	assert.Equal(t, 0, s.BadLines)

	// Appended to by a new server: the new lines chain from the old last.
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(old), 0o600))
	l, err := Open(path, Options{SyncInterval: -1})
	require.NoError(t, err)
	require.NoError(t, l.Write(&Record{Tool: "c"}))
	require.NoError(t, l.Close())
	v = verifyFiles(t, path)
	assert.Nil(t, v.Break)
	assert.Equal(t, 2, v.Unchained)
	assert.Equal(t, 1, v.Chained)
}

// FuzzVerify: whatever is done to a chained log's lines, Verify either
// reports a break, or a different head, or that the log no longer starts
// at its first line — unless the lines are the same.
func FuzzVerify(f *testing.F) {
	f.Add(uint8(0), uint8(1), uint8(2), byte('x'))
	f.Add(uint8(1), uint8(0), uint8(3), byte('{'))
	f.Add(uint8(2), uint8(4), uint8(1), byte('"'))
	f.Add(uint8(3), uint8(2), uint8(2), byte('\n'))
	orig := chainedLog(f, 6)
	want := verifyLines(orig)
	f.Fuzz(func(t *testing.T, op, i, j uint8, b byte) {
		ls := append([]string(nil), orig...)
		i, j = i%6, j%6
		switch op % 4 {
		case 0: // edit a byte
			line := []byte(ls[i])
			line[int(j)*7%len(line)] = b
			ls[i] = string(line)
		case 1: // remove a line
			ls = append(ls[:i], ls[i+1:]...)
		case 2: // insert a copy
			ls = append(ls[:i], append([]string{orig[j]}, ls[i:]...)...)
		case 3: // swap
			ls[i], ls[j] = ls[j], ls[i]
		}
		v := verifyLines(ls)
		var nonBlank []string
		for _, l := range strings.Split(strings.Join(ls, "\n"), "\n") {
			if strings.TrimSpace(l) != "" {
				nonBlank = append(nonBlank, l)
			}
		}
		same := strings.Join(nonBlank, "\n") == strings.Join(orig, "\n")
		if same != (v.Break == nil && v.Head == want.Head && !v.Continues) {
			t.Fatalf("op %d i %d j %d b %q: same %v, verification %+v %v", op%4, i, j, b, same, v, v.Break)
		}
	})
}
