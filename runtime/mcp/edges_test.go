package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/audit"
)

// errorCode returns the code of a JSON-RPC error response, failing the test
// when m is not one.
func errorCode(t *testing.T, m map[string]any) int {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "not an error response: %s", m["_raw"])
	code, ok := e["code"].(float64)
	require.True(t, ok, "error without a numeric code: %s", m["_raw"])
	return int(code)
}

func TestRequestBeforeInitializeHasAValidCode(t *testing.T) {
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "echo_word", "echo {word}", "word")))
	for i, req := range []string{
		`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"x"}}}`,
		`{"jsonrpc":"2.0","id":%d,"method":"resources/list"}`,
	} {
		c := serveRaw(t, srv)
		id := 40 + i
		c.send(fmt.Sprintf(req, id))
		m, line := c.response(float64(id))
		assert.Equal(t, -32600, errorCode(t, m), "%s", line)
		assert.Contains(t, line, "initialize")
		// The session is still usable once initialized.
		c.initialize()
		c.callTool(id+10, "echo_word", `{"word":"late"}`)
		m, _ = c.response(float64(id + 10))
		text, isErr := resultText(t, m)
		assert.False(t, isErr)
		assert.Equal(t, "exit: 0\noutput: late\n", text)
	}
}

func TestDuplicateInFlightIDIsRefused(t *testing.T) {
	for _, id := range []string{`7`, `"seven"`, `-3`} {
		t.Run(id, func(t *testing.T) {
			gate := make(chan struct{})
			started := make(chan struct{}, 2)
			slow := &funcTool{name: "slow", call: func(ctx context.Context, args json.RawMessage) (string, error) {
				started <- struct{}{}
				select {
				case <-gate:
				case <-ctx.Done():
				}
				return "done " + string(args), nil
			}}
			c := serveRaw(t, newServer(t, registry(t, slow)))
			c.initialize()
			req := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"slow","arguments":{"n":%d}}}`
			c.send(fmt.Sprintf(req, 1))
			<-started
			c.send(fmt.Sprintf(req, 2)) // same id while the first runs
			dup := decodeLine(t, c.next())
			assert.Equal(t, -32600, errorCode(t, dup), "%s", dup["_raw"])
			assert.Contains(t, dup["_raw"], `"id":`+id+`,`)
			assert.Contains(t, dup["_raw"], "already in use")
			close(gate)
			first := decodeLine(t, c.next())
			require.Contains(t, first["_raw"], `"id":`+id+`,`)
			text, isErr := resultText(t, first)
			assert.False(t, isErr)
			assert.Equal(t, `done {"n":1}`, text, "the first request is answered with its own result")
			assert.Len(t, started, 0, "the duplicate must not run")

			// Answered, the id is free again.
			c.send(fmt.Sprintf(req, 3))
			again := decodeLine(t, c.next())
			text, isErr = resultText(t, again)
			assert.False(t, isErr)
			assert.Equal(t, `done {"n":3}`, text)
		})
	}
}

// TestDuplicateIDsAcrossMethods: a ping and a tools/call may not share an
// in-flight id either, and the error never carries code 0.
func TestDuplicateIDsAcrossMethods(t *testing.T) {
	gate := make(chan struct{})
	started := make(chan struct{}, 1)
	slow := &funcTool{name: "slow", call: func(ctx context.Context, _ json.RawMessage) (string, error) {
		started <- struct{}{}
		<-gate
		return "ok", nil
	}}
	c := serveRaw(t, newServer(t, registry(t, slow)))
	c.initialize()
	c.callTool(9, "slow", `{}`)
	<-started
	c.send(`{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	m := decodeLine(t, c.next())
	assert.Equal(t, -32600, errorCode(t, m))
	close(gate)
	m = decodeLine(t, c.next())
	text, _ := resultText(t, m)
	assert.Equal(t, "ok", text)
}

func decodeLine(t *testing.T, line string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	m["_raw"] = line
	return m
}

// TestRefusalsReachTheAuditLog: a call refused by the server's own argument
// limit is recorded like any other 614, with the stdio session.
func TestRefusalsReachTheAuditLog(t *testing.T) {
	var buf lockedBuffer
	a := audit.New(audit.NewWriter(&buf))
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "echo_word", "echo {word}", "word")),
		WithToolWrapper(a.Wrap), WithMaxArgumentBytes(64))
	c := serveRaw(t, srv)
	c.initialize()
	c.callTool(2, "echo_word", `{"word":"`+strings.Repeat("x", 100)+`"}`)
	m, _ := c.response(2)
	text, isErr := resultText(t, m)
	require.True(t, isErr)
	assert.Contains(t, text, "error 614")
	c.callTool(3, "echo_word", `{"word":"ok"}`)
	c.response(3)
	recs := auditRecords(t, &buf)
	require.Len(t, recs, 2)
	assert.Equal(t, 614, recs[0].Code)
	assert.Equal(t, "argument size", recs[0].Rule)
	assert.Empty(t, recs[0].Argv)
	assert.Equal(t, "stdio", recs[0].Transport)
	assert.NotEmpty(t, recs[0].Session)
	assert.Equal(t, recs[0].Session, recs[1].Session)
	assert.Equal(t, []string{"echo", "ok"}, []string{filepath.Base(recs[1].Argv[0]), recs[1].Argv[1]})
}

// TestUnknownToolsReachTheAuditLog: a call naming no tool the server
// serves (a model probing for exec, say) reaches no tool wrapper; with a
// refusal recorder it is recorded with its session and arguments, and the
// client still gets the SDK's answer.
func TestUnknownToolsReachTheAuditLog(t *testing.T) {
	var buf lockedBuffer
	a := audit.New(audit.NewWriter(&buf))
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "echo_word", "echo {word}", "word")),
		WithToolWrapper(a.Wrap), WithRefusalRecorder(a.Refused))
	c := serveRaw(t, srv)
	c.initialize()
	c.callTool(2, "exec", `{"command":"id"}`)
	m, _ := c.response(2)
	assert.Contains(t, m["_raw"], "unknown tool")
	c.callTool(3, "echo_word", `{"word":"ok"}`)
	c.response(3)
	recs := auditRecords(t, &buf)
	require.Len(t, recs, 2, buf.String())
	assert.Equal(t, "exec", recs[0].Tool)
	assert.Equal(t, "unknown tool", recs[0].Rule)
	assert.Contains(t, recs[0].Error, `unknown tool "exec"`)
	assert.JSONEq(t, `{"command":"id"}`, string(recs[0].Args))
	assert.Equal(t, "stdio", recs[0].Transport)
	assert.NotEmpty(t, recs[0].Session)
	assert.Equal(t, recs[0].Session, recs[1].Session)
	assert.Equal(t, recs[0].Seq+1, recs[1].Seq)
}

// TestShutdownRefusalsReachTheAuditLog: a call refused because the server
// is draining reaches no tool either; it is recorded with its rule.
func TestShutdownRefusalsReachTheAuditLog(t *testing.T) {
	var buf lockedBuffer
	a := audit.New(audit.NewWriter(&buf))
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "echo_word", "echo {word}", "word")),
		WithToolWrapper(a.Wrap), WithRefusalRecorder(a.Refused))
	c := serveRaw(t, srv)
	c.initialize()
	require.NoError(t, srv.Drain(context.Background()))
	c.callTool(2, "echo_word", `{"word":"late"}`)
	m, _ := c.response(2)
	text, isErr := resultText(t, m)
	require.True(t, isErr)
	assert.Contains(t, text, "shutting down")
	recs := auditRecords(t, &buf)
	require.Len(t, recs, 1)
	r := recs[0]
	assert.Equal(t, "echo_word", r.Tool)
	assert.Equal(t, "shutting down", r.Rule)
	assert.JSONEq(t, `{"word":"late"}`, string(r.Args))
	assert.Empty(t, r.Argv)
}

// auditRecords parses the audit lines written to buf.
func auditRecords(t *testing.T, buf *lockedBuffer) []audit.Record {
	t.Helper()
	var recs []audit.Record
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var r audit.Record
		require.NoError(t, json.Unmarshal([]byte(line), &r), line)
		recs = append(recs, r)
	}
	return recs
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestNumericIDIsAnsweredAsSent: the SDK keeps a numeric id as an int64, so
// a fractional id (9.5) was answered as 9, and one beyond 2^53 as another
// number: the client could not match the answer. Such ids are refused with
// -32600, to the id as sent.
func TestNumericIDIsAnsweredAsSent(t *testing.T) {
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "echo_word", "echo {word}", "word")))
	c := serveRaw(t, srv)
	c.initialize()
	for _, id := range []string{`9.5`, `9007199254740993`, `1e400`, `-0.5`} {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`)
		line := c.next()
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		if string(m.ID) != id {
			assert.Equal(t, "null", string(m.ID), "id %s answered as %s: %s", id, m.ID, line)
		}
		if assert.NotNil(t, m.Error, "id %s: %s", id, line) {
			assert.Equal(t, -32600, m.Error.Code, line)
		}
	}
	// An integral id still works.
	c.send(`{"jsonrpc":"2.0","id":12,"method":"tools/list"}`)
	m, line := c.response(12)
	assert.Nil(t, m["error"], line)
}

// TestIdempotencyKeyReachesTheAuditLog: a call whose _meta carries an
// idempotency key (IdempotencyKeyMeta) is recorded with it; one without,
// or with a key that is not a string, without.
func TestIdempotencyKeyReachesTheAuditLog(t *testing.T) {
	var buf lockedBuffer
	a := audit.New(audit.NewWriter(&buf))
	k := newKernel(t)
	srv := newServer(t, registry(t, commandTool(t, k, "echo_word", "echo {word}", "word")), WithToolWrapper(a.Wrap))
	c := serveRaw(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"a"},"_meta":{"` + IdempotencyKeyMeta + `":"wf/run/5"}}}`)
	c.response(2)
	c.callTool(3, "echo_word", `{"word":"b"}`)
	c.response(3)
	c.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"c"},"_meta":{"` + IdempotencyKeyMeta + `":7}}}`)
	c.response(4)
	recs := auditRecords(t, &buf)
	require.Len(t, recs, 3, buf.String())
	assert.Equal(t, "wf/run/5", recs[0].Key)
	assert.Empty(t, recs[1].Key)
	assert.Empty(t, recs[2].Key)
}
