package mcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file assert what the go-sdk itself does, without this
// package's corrections (sdkfix.go). When one fails after an SDK upgrade,
// the SDK no longer needs the workaround it names: remove both.

// TestSDKSendsCodeZeroBeforeInitialize: the bare SDK server answers a
// request before initialize with error code 0. withValidCode corrects it.
func TestSDKSendsCodeZeroBeforeInitialize(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	server := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	ct, st := sdk.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	require.NoError(t, err)
	defer conn.Close()
	id, err := jsonrpc.MakeID(float64(3))
	require.NoError(t, err)
	require.NoError(t, conn.Write(ctx, &jsonrpc.Request{ID: id, Method: "tools/list", Params: []byte(`{}`)}))
	msg, err := conn.Read(ctx)
	require.NoError(t, err)
	data, err := jsonrpc.EncodeMessage(msg)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"error":{"code":0,`,
		"the SDK gives this error a valid code now: withValidCode (sdkfix.go) can go, with this test")
	assert.Contains(t, string(data), "during session initialization", "the message withValidCode recognises")

	fixed, err := jsonrpc.EncodeMessage(withValidCode(msg.(*jsonrpc.Response)))
	require.NoError(t, err)
	assert.Contains(t, string(fixed), `"error":{"code":-32600,`)
}

// TestSDKHTTPSendsCodeZeroBeforeInitialize: the bare SDK Streamable HTTP
// handler writes the same code 0, in the bytes codeFixWriter rewrites.
func TestSDKHTTPSendsCodeZeroBeforeInitialize(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer hs.Close()
	req, err := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	require.NoError(t, err)
	assert.Contains(t, string(body), string(codeZero),
		"the SDK gives this error a valid code now: codeFixWriter (sdkfix.go) can go, with this test")
	assert.Contains(t, string(body), string(initError), "the message codeFixWriter recognises")
}
