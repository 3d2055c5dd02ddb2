package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPDuplicateInFlightID: over HTTP the SDK's transport refuses a
// request reusing an in-flight id (400, -32600, with the id), and the first
// is answered; the stdio transport does the same (TestDuplicateInFlightIDIsRefused).
func TestHTTPDuplicateInFlightID(t *testing.T) {
	gate := make(chan struct{})
	started := make(chan struct{}, 2)
	slow := &funcTool{name: "slow", call: func(ctx context.Context, _ json.RawMessage) (string, error) {
		started <- struct{}{}
		select {
		case <-gate:
		case <-ctx.Done():
		}
		return "ok", nil
	}}
	endpoint := serveHTTP(t, newServer(t, registry(t, slow)), HTTPOptions{})
	resp, _ := post(t, endpoint, nil, "")
	id := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, id)
	h := map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
	post(t, endpoint, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{}}}`
	first := make(chan string, 1)
	go func() {
		_, b := post(t, endpoint, h, body)
		first <- b
	}()
	<-started
	r, b := post(t, endpoint, h, body)
	assert.Equal(t, http.StatusBadRequest, r.StatusCode)
	assert.Contains(t, b, `"id":7,"error":{"code":-32600,`)
	close(gate)
	assert.Contains(t, <-first, `"id":7,"result":{"content":[{"type":"text","text":"ok"}]}`)
	assert.Len(t, started, 0, "the duplicate did not run")
}
