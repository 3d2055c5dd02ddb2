package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// commandTool builds a command tool on a kernel over a fresh workspace.
func commandTool(t testing.TB, name, command string, timeout time.Duration, slots ...tool.Arg) tool.Tool {
	t.Helper()
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one\nneedle two\n"), 0o644))
	k, err := kernel.New(ws, kernel.WithTimeout(timeout))
	require.NoError(t, err)
	tl, err := base.New(tool.Spec{Name: name, Description: "test " + command, Command: command, Args: slots}, k)
	require.NoError(t, err)
	return tl
}

func str(name string) tool.Arg {
	return tool.Arg{Name: name, Type: tool.String, Required: true, Description: "slot " + name}
}

func readRecords(t testing.TB, paths ...string) []Record {
	t.Helper()
	var out []Record
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			var r Record
			require.NoError(t, json.Unmarshal(sc.Bytes(), &r), "line %q", sc.Text())
			out = append(out, r)
		}
	}
	return out
}

func openLog(t testing.TB, opts Options) (*Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, opts)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	return l, path
}

func TestRecordsEveryKindOfCall(t *testing.T) {
	l, path := openLog(t, Options{})
	a := New(l, WithConfinement("off"), WithTransport("cli"))
	grep := a.Wrap(commandTool(t, "grep_text", "grep -rn {pattern} {path}", 10*time.Second, str("pattern"),
		tool.Arg{Name: "path", Type: tool.Path, Required: true, Description: "where"}), tool.FormBuiltin)
	nap := a.Wrap(commandTool(t, "nap", "sleep {secs}", 300*time.Millisecond, str("secs")), tool.FormDescriptor)
	ctx := WithCaller(context.Background(), Caller{Transport: "http", Session: "S1", Key: "wf/run/7"})

	text, err := grep.Call(ctx, json.RawMessage(`{"pattern":"needle","path":"."}`))
	require.NoError(t, err)
	assert.Contains(t, text, "needle two")
	_, err = grep.Call(context.Background(), json.RawMessage(`{"pattern":"-e","path":"."}`))
	require.Error(t, err)
	_, err = grep.Call(context.Background(), json.RawMessage(`{"pattern":"x","path":"../.."}`))
	require.Error(t, err)
	_, err = grep.Call(context.Background(), json.RawMessage(`{not json`))
	require.Error(t, err)
	text, err = nap.Call(context.Background(), json.RawMessage(`{"secs":"5"}`))
	require.NoError(t, err)
	assert.Contains(t, text, "timed out")
	cctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	text, err = nap.Call(cctx, json.RawMessage(`{"secs":"6"}`))
	require.Error(t, err, text)
	require.NoError(t, l.Close())

	recs := readRecords(t, path)
	require.Len(t, recs, 6)
	for i, r := range recs {
		assert.Equal(t, uint64(i+1), r.Seq)
		_, err := time.Parse(time.RFC3339Nano, r.Time)
		assert.NoError(t, err)
		assert.Equal(t, "off", r.Confine)
	}
	ok := recs[0]
	assert.Equal(t, "http", ok.Transport)
	assert.Equal(t, "S1", ok.Session)
	assert.Equal(t, "wf/run/7", ok.Key, "the caller's idempotency key")
	assert.Equal(t, "grep_text", ok.Tool)
	assert.Equal(t, "builtin", ok.Form)
	assert.JSONEq(t, `{"pattern":"needle","path":"."}`, string(ok.Args))
	require.NotEmpty(t, ok.Argv)
	assert.True(t, filepath.IsAbs(ok.Argv[0]), "argv[0] resolved: %q", ok.Argv[0])
	assert.Equal(t, []string{"-rn", "needle", "."}, ok.Argv[1:])
	require.NotNil(t, ok.Exit)
	assert.Equal(t, 0, *ok.Exit)
	assert.Equal(t, len("./a.txt:2:needle two\n"), ok.OutputBytes)
	assert.Greater(t, ok.DurationMS, 0.0)
	assert.Zero(t, ok.Code)

	dash := recs[1]
	assert.Equal(t, "cli", dash.Transport, "no Caller: the auditor's transport")
	assert.Empty(t, dash.Key, "no Caller: no key")
	assert.Equal(t, 614, dash.Code)
	assert.Equal(t, "leading dash", dash.Rule)
	assert.Empty(t, dash.Argv, "nothing ran")
	assert.Nil(t, dash.Exit)
	assert.Contains(t, dash.Error, "error 614")

	assert.Equal(t, 614, recs[2].Code)
	assert.Equal(t, "path escape", recs[2].Rule)

	assert.Equal(t, 614, recs[3].Code)
	assert.Equal(t, "{not json", recs[3].ArgsText)
	assert.Empty(t, recs[3].Args)

	timeout := recs[4]
	assert.True(t, timeout.TimedOut)
	assert.True(t, timeout.Killed)
	assert.Equal(t, 124, *timeout.Exit)
	assert.Equal(t, "descriptor", timeout.Form)

	cancelled := recs[5]
	assert.False(t, cancelled.TimedOut)
	assert.True(t, cancelled.Killed)
	assert.Equal(t, 137, *cancelled.Exit)
	assert.Contains(t, cancelled.Error, "context canceled")
}

func TestArgsKeptVerbatim(t *testing.T) {
	var buf bytes.Buffer
	a := New(NewWriter(&buf))
	echo := a.Wrap(commandTool(t, "echo", "echo {w}", 10*time.Second, str("w")), tool.FormBuiltin)
	args := `{"w":"<a&b>\u00e9\u2028x","extra":[1,2.50,{"k":null}]}`
	_, err := echo.Call(context.Background(), json.RawMessage(args))
	require.Error(t, err) // unknown argument
	line := buf.String()
	assert.Contains(t, line, `"args":{"w":"<a&b>\u00e9\u2028x","extra":[1,2.50,{"k":null}]}`, "no re-encoding of the model's arguments")
	assert.Equal(t, 1, strings.Count(line, "\n"))
	assert.True(t, json.Valid([]byte(line)))
}

func TestRedaction(t *testing.T) {
	var buf bytes.Buffer
	a := New(NewWriter(&buf), WithRedact("secret", " key "))
	echo := a.Wrap(commandTool(t, "echo", "echo {secret} {key} {word}", 10*time.Second, str("secret"), str("key"), str("word")), tool.FormBuiltin)
	_, err := echo.Call(context.Background(), json.RawMessage(`{"secret":"hunter2-token","key":"k1","word":"plain"}`))
	require.NoError(t, err)
	_, err = echo.Call(context.Background(), json.RawMessage(`{"secret":"-hunter3-token","key":"k1","word":"plain"}`))
	require.Error(t, err)
	out := buf.String()
	assert.NotContains(t, out, "hunter2")
	assert.NotContains(t, out, "hunter3")
	assert.NotContains(t, out, `"k1"`)
	var recs []Record
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r Record
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		recs = append(recs, r)
	}
	require.Len(t, recs, 2)
	assert.Equal(t, []string{"key", "secret"}, recs[0].Redacted)
	assert.Equal(t, `{"secret":"[redacted]","key":"[redacted]","word":"plain"}`, string(recs[0].Args), "order kept")
	assert.Equal(t, []string{"[redacted]", "[redacted]", "plain"}, recs[0].Argv[1:])
	assert.Contains(t, recs[1].Error, "[redacted]")
}

// failWriter fails every write after the first n.
type failWriter struct {
	mu sync.Mutex
	n  int
}

func (w *failWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n <= 0 {
		return 0, os.ErrClosed
	}
	w.n--
	return len(p), nil
}

func TestAFailedWriteIsARefusal(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	for name, l := range map[string]*Log{"dev-full": NewWriter(full), "failing-writer": NewWriter(&failWriter{n: 1})} {
		t.Run(name, func(t *testing.T) {
			ws := t.TempDir()
			k, err := kernel.New(ws)
			require.NoError(t, err)
			touch, err := base.New(tool.Spec{Name: "touch", Description: "touch", Command: "touch {f}", Writes: true,
				Args: []tool.Arg{{Name: "f", Type: tool.Path, Required: true, Description: "file"}}}, k)
			require.NoError(t, err)
			tl := New(l).Wrap(touch, tool.FormBuiltin)
			first := name == "failing-writer" // its first record can be written
			if first {
				_, err := tl.Call(context.Background(), json.RawMessage(`{"f":"zero"}`))
				require.NoError(t, err)
			}
			text, err := tl.Call(context.Background(), json.RawMessage(`{"f":"one"}`))
			require.ErrorIs(t, err, ErrNotRecorded)
			assert.Empty(t, text, "the result is withheld")
			assert.Contains(t, err.Error(), "result withheld")
			assert.FileExists(t, filepath.Join(ws, "one"), "it had run before the write failed")

			text, err = tl.Call(context.Background(), json.RawMessage(`{"f":"two"}`))
			require.ErrorIs(t, err, ErrNotRecorded)
			assert.Empty(t, text)
			assert.Contains(t, err.Error(), "not run")
			assert.NoFileExists(t, filepath.Join(ws, "two"), "a call that cannot be recorded does not happen")
		})
	}
}

func TestOpenRefusesLinksAndNonFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	require.NoError(t, os.WriteFile(target, []byte("x\n"), 0o644))
	link := filepath.Join(dir, "audit.jsonl")
	require.NoError(t, os.Symlink(target, link))
	_, err := Open(link, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "symbolic link")
	_, err = Open(dir, Options{})
	require.Error(t, err)
	_, err = Open(filepath.Join(dir, "missing", "x"), Options{})
	require.Error(t, err)
	data, _ := os.ReadFile(target)
	assert.Equal(t, "x\n", string(data))

	// A hard link to the file is refused as the symlink is: the arguments
	// of every call (refused ones too, such as {"p":"$(sh evil)"}) would
	// be appended to the shell's rc file.
	hard := filepath.Join(dir, "hard.jsonl")
	require.NoError(t, os.Link(target, hard))
	_, err = Open(hard, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2 hard links")
	data, _ = os.ReadFile(target)
	assert.Equal(t, "x\n", string(data))
}

func TestOpenAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"seq":1,"tool":"old","duration_ms":1}`+"\n"), 0o600))
	l, err := Open(path, Options{SyncInterval: -1})
	require.NoError(t, err)
	require.NoError(t, l.Write(&Record{Tool: "new"}))
	require.NoError(t, l.Close())
	recs := readRecords(t, path)
	require.Len(t, recs, 2)
	assert.Equal(t, "old", recs[0].Tool)
	assert.Equal(t, "new", recs[1].Tool)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	assert.Error(t, l.Write(&Record{Tool: "late"}), "closed")
}

func TestRotationLosesNoLine(t *testing.T) {
	const n, maxSize, keep = 2000, 16 << 10, 100
	l, path := openLog(t, Options{MaxSize: maxSize, Keep: keep, SyncInterval: time.Millisecond})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range n / 8 {
				require.NoError(t, l.Write(&Record{Tool: "t", Args: rawJSON(`{"g":` + itoa(g) + `,"i":` + itoa(i) + `}`)}))
			}
		})
	}
	wg.Wait()
	require.NoError(t, l.Close())
	files, err := filepath.Glob(path + "*")
	require.NoError(t, err)
	require.Greater(t, len(files), 5, "rotated")
	seen := map[uint64]bool{}
	calls, rotations := 0, 0
	for _, f := range files {
		st, err := os.Stat(f)
		require.NoError(t, err)
		assert.LessOrEqual(t, st.Size(), int64(maxSize), f)
		for i, r := range readRecords(t, f) {
			assert.False(t, seen[r.Seq], "seq %d twice", r.Seq)
			seen[r.Seq] = true
			switch r.Event {
			case "":
				calls++
			case EventRotated: // only ever a file's first line
				assert.Equal(t, 0, i, "%s: a rotation line at line %d", f, i+1)
				rotations++
			default:
				t.Errorf("%s: event %q", f, r.Event)
			}
		}
	}
	assert.Equal(t, n, calls)
	assert.Equal(t, len(files)-1, rotations, "every file but the first starts with a rotation line")
	for i := uint64(1); i <= uint64(n+rotations); i++ {
		assert.True(t, seen[i], "seq %d lost", i)
	}
}

func TestRotationKeepsAtMostKeepFiles(t *testing.T) {
	l, path := openLog(t, Options{MaxSize: 200, Keep: 2})
	for range 50 {
		require.NoError(t, l.Write(&Record{Tool: "t"}))
	}
	require.NoError(t, l.Close())
	files, _ := filepath.Glob(path + "*")
	assert.ElementsMatch(t, []string{path, path + ".1", path + ".2"}, files)
	recs := readRecords(t, path+".2", path+".1", path)
	calls := 0
	for i := 1; i < len(recs); i++ {
		assert.Equal(t, recs[i-1].Seq+1, recs[i].Seq, "consecutive across the kept files")
		if recs[i].Event == "" {
			calls++
		}
	}
	assert.Equal(t, "t", recs[len(recs)-1].Tool)
	assert.Greater(t, calls, 0)
	// Each kept file verifies alone (it starts with its rotation line) and
	// with the others.
	for _, f := range []string{path + ".2", path + ".1", path} {
		v := verifyFiles(t, f)
		assert.Nil(t, v.Break, "%s: %v", f, v.Break)
		assert.True(t, v.Continues, f)
	}
	v := verifyFiles(t, path+".2", path+".1", path)
	assert.Nil(t, v.Break, "%v", v.Break)
}

func TestRuleNames(t *testing.T) {
	for msg, want := range map[string]string{
		`defence 2 (deny list): word 0 "rm": denied`:           "exec defence 2 (deny list)",
		`value "-n" begins with '-' and would be read`:         "leading dash",
		`path "/etc" is absolute; give a path relative`:        "path escape",
		`required argument is missing (string: p)`:             "missing argument",
		`value "medium" is not one of the allowed values: "a"`: "enum",
		`character U+0020 SPACE at byte offset 3 is not`:       "character",
		`something new`: "other",
	} {
		assert.Equal(t, want, Rule(tool.ValueErrorf("x", "%s", msg)), msg)
	}
	assert.Equal(t, "", Rule(os.ErrNotExist))
	assert.Equal(t, "invalid descriptor", Rule(tool.SpecErrorf("name", "bad")))
}

func itoa(i int) string { return strconv.Itoa(i) }
