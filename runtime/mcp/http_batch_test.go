package mcp

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/audit"
)

// TestHTTPBatchDuplicateID: a JSON-RPC batch (protocol 2025-03-26) whose
// calls share an id was answered once, the other call never: now every call
// of it gets -32600 with its id, nothing of it runs, and each tools/call is
// an audit line (rule "duplicate id"). A batch without a shared id is the
// SDK's as before.
func TestHTTPBatchDuplicateID(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(logPath, audit.Options{})
	require.NoError(t, err)
	a := audit.New(log)
	srv := echoServer(t, WithToolWrapper(a.Wrap), WithRefusalRecorder(a.Refused))
	endpoint := serveHTTP(t, srv, HTTPOptions{})
	resp, _ := post(t, endpoint, map[string]string{"Mcp-Protocol-Version": "2025-03-26"},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	h := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-03-26"}
	require.NotEmpty(t, h["Mcp-Session-Id"])
	post(t, endpoint, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	for _, dup := range []struct{ first, second string }{{"7", "7"}, {`"x"`, `"x"`}, {"8", "8.0"}} {
		t.Run(dup.first+"+"+dup.second, func(t *testing.T) {
			resp, body := post(t, endpoint, h, `[`+
				`{"jsonrpc":"2.0","id":`+dup.first+`,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"one"}}},`+
				`{"jsonrpc":"2.0","id":`+dup.second+`,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"two"}}},`+
				`{"jsonrpc":"2.0","id":99,"method":"tools/list"}]`)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
			var answers []struct {
				ID    json.RawMessage `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal([]byte(body), &answers), body)
			require.Len(t, answers, 3, body)
			for i, want := range []string{dup.first, dup.second, "99"} {
				assert.Equal(t, want, string(answers[i].ID))
				assert.Equal(t, -32600, answers[i].Error.Code)
			}
			assert.Contains(t, answers[0].Error.Message, "used by two requests of this batch")
		})
	}
	// A batch with distinct ids still runs.
	_, body := post(t, endpoint, h, `[`+
		`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"one"}}},`+
		`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"two"}}}]`)
	assert.Contains(t, body, `output: one`)
	assert.Contains(t, body, `output: two`)

	require.NoError(t, log.Close())
	recs := auditLines(t, logPath)
	var refused, ran int
	for _, r := range recs {
		switch {
		case r.Rule == "duplicate id":
			refused++
			assert.Equal(t, "echo_word", r.Tool)
			assert.Equal(t, "http", r.Transport)
			assert.Equal(t, h["Mcp-Session-Id"], r.Session)
			assert.Empty(t, r.Argv, "nothing ran")
		case r.Rule == "":
			ran++
		}
	}
	assert.Equal(t, 6, refused, "two tools/call lines per refused batch")
	assert.Equal(t, 2, ran)
}

// TestHTTPAuditFollowsRotation: the audit log's file renamed away (log
// rotation by another program) or deleted while serving: the next call over
// HTTP is recorded at the path again, after a line saying what happened;
// nothing is written to a file nobody can find.
func TestHTTPAuditFollowsRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	srv, log := auditedServer(t, path)
	cs, err := httpClient(t, serveHTTP(t, srv, HTTPOptions{}), "", nil)
	require.NoError(t, err)
	call(t, cs, "echo_word", map[string]any{"word": "one"})
	require.NoError(t, os.Rename(path, path+".1"))
	call(t, cs, "echo_word", map[string]any{"word": "two"})
	require.NoError(t, os.Remove(path))
	call(t, cs, "echo_word", map[string]any{"word": "three"})
	require.NoError(t, log.Close())
	recs := auditLines(t, path)
	require.Len(t, recs, 2, "the line about the deletion, and the call")
	assert.Equal(t, "reopened", recs[0].Event)
	assert.Contains(t, recs[0].Detail, "was deleted")
	assert.Equal(t, `{"word":"three"}`, string(recs[1].Args))
	rotated := auditLines(t, path+".1")
	require.Len(t, rotated, 1)
	assert.Equal(t, `{"word":"one"}`, string(rotated[0].Args))
}
