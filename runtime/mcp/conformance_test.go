package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/preset"
	"github.com/nanogpt/toolgen/runtime/sandbox"
)

var update = flag.Bool("update", false, "rewrite the server sections of testdata/conformance/*.txtar from what the server answers")

// TestConformance replays each testdata/conformance/*.txtar against the
// real server over its stdio transport (Serve on pipes, one JSON-RPC
// message a line), as an MCP client would speak to toolgen serve:
//
//   - "client" holds the lines the client sends, in order;
//   - "server" holds the lines the server writes, in order;
//   - a file under tools/ is a descriptor of the served tool set (a
//     directory outside the workspace; no built-ins), any other file is a
//     file of the workspace.
//
// Lines are sent one at a time: after a request the harness reads until
// the response to its id has come (a line that is not a JSON object, such
// as a parse error or a batch, waits for the answer with a null id), after
// a notification it reads nothing. So the order of the server's lines is
// fixed, though calls run concurrently. When the client's lines are spent
// the input is closed and whatever else the server writes until Serve
// returns is part of the expected output too. Lines are compared as JSON
// (key order and spacing aside); -update rewrites the server sections.
func TestConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "conformance", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runConformance(t, file)
		})
	}
}

func runConformance(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	require.NoError(t, err)
	ws, tools := t.TempDir(), t.TempDir()
	var client, want []string
	serverAt := -1
	for i, f := range ar.Files {
		switch {
		case f.Name == "client":
			client = lines(f.Data)
		case f.Name == "server":
			want, serverAt = lines(f.Data), i
		case strings.HasPrefix(f.Name, "tools/"):
			writeFile(t, filepath.Join(tools, strings.TrimPrefix(f.Name, "tools/")), f.Data)
		default:
			writeFile(t, filepath.Join(ws, f.Name), f.Data)
		}
	}
	require.NotEmpty(t, client, "%s has no client section", file)
	require.True(t, serverAt >= 0 || *update, "%s has no server section (run with -update to write it)", file)

	got := converse(t, ws, tools, client)
	if *update {
		data := []byte(strings.Join(got, "\n") + "\n")
		if serverAt >= 0 {
			ar.Files[serverAt].Data = data
		} else {
			ar.Files = append(ar.Files, txtar.File{Name: "server", Data: data})
		}
		require.NoError(t, os.WriteFile(file, txtar.Format(ar), 0o644))
		return
	}
	g, w := canonical(t, got), canonical(t, want)
	if g != w {
		t.Errorf("%s: the server's lines differ (-want +got; go test -run TestConformance -update rewrites them):\n%s",
			file, diff.Diff("want", []byte(w), "got", []byte(g)))
	}
}

// converse serves the tools of dir tools over workspace ws on pipes, sends
// the client's lines and returns every line the server wrote.
func converse(t *testing.T, ws, tools string, client []string) []string {
	p, err := preset.New(preset.WithWorkspace(ws), preset.WithToolsDir(tools), preset.WithoutBuiltins(),
		preset.WithConfinement(sandbox.Off)) // the protocol, not the confinement, is under test: the same on every kernel
	require.NoError(t, err)
	for _, problem := range p.Problems {
		t.Fatalf("a descriptor of the case does not load: %v", problem)
	}
	srv, err := mcp.New(p.Registry, mcp.WithImplementation("toolgen", "test"))
	require.NoError(t, err)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(ctx, inR, outW)
		outW.Close()
	}()
	out := make(chan string, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			out <- sc.Text()
		}
	}()
	var got []string
	next := func(waiting string) (string, bool) {
		select {
		case line, ok := <-out:
			return line, ok
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer from the server to %s", waiting)
			return "", false
		}
	}
	for _, line := range client {
		_, err := io.WriteString(inW, line+"\n")
		require.NoError(t, err)
		id, wait := awaited(line)
		for wait {
			answer, ok := next(line)
			require.True(t, ok, "the server closed its output before answering %s", line)
			got = append(got, answer)
			wait = !answers(answer, id)
		}
	}
	require.NoError(t, inW.Close())
	for {
		line, ok := next("the end of the input")
		if !ok {
			break
		}
		got = append(got, line)
	}
	require.NoError(t, <-served)
	return got
}

// awaited returns the id a client line waits for an answer to ("null" for
// a line that is not a JSON object) and whether it waits at all: a
// notification (a method and no id) is not answered.
func awaited(line string) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return json.RawMessage("null"), true
	}
	id, hasID := m["id"]
	if _, hasMethod := m["method"]; hasMethod && !hasID {
		return nil, false
	}
	if !hasID {
		return json.RawMessage("null"), true
	}
	return id, true
}

// answers reports whether a server line is the response (a result or an
// error) with the given id.
func answers(line string, id json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &m) != nil {
		return false
	}
	if _, isRequest := m["method"]; isRequest {
		return false
	}
	got, ok := m["id"]
	if !ok {
		got = json.RawMessage("null")
	}
	return canonicalValue(got) == canonicalValue(id)
}

// canonical returns lines as JSON with sorted keys and no spacing, one a
// line; a line that is not JSON is kept as it is.
func canonical(t *testing.T, lines []string) string {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(canonicalValue(json.RawMessage(l)))
		b.WriteByte('\n')
	}
	return b.String()
}

func canonicalValue(raw json.RawMessage) string {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return string(raw)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(out)
}

// lines splits a section into its non-empty lines; a line starting with #
// is a comment.
func lines(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
}
