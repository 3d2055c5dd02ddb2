package mcp

// The workarounds of this file correct what the go-sdk
// (github.com/modelcontextprotocol/go-sdk, v1.8.0 in go.mod) sends. Each has
// a test in sdkfix_test.go asserting the SDK's own behaviour that it
// corrects: when an SDK upgrade makes that test fail, the SDK no longer
// needs the workaround, and both go.
//
// Code 0. The SDK answers a request whose handler returns a plain Go error
// with a JSON-RPC error of code 0, which JSON-RPC 2.0 does not define; a
// request before initialize ("method ... is invalid during session
// initialization") is one. Upstream: the comment of 2026-06-12 on
// https://github.com/modelcontextprotocol/go-sdk/issues/976 reports code 0
// for request-level errors (v1.6.1) over stdio and Streamable HTTP; the
// issue is closed and no issue or pull request of the go-sdk that fixes
// code 0 itself was found. withValidCode corrects it on this package's
// stdio transport, where the message is at hand; codeFixWriter on HTTP,
// where the SDK's handler writes the bytes itself.

import (
	"bytes"
	"errors"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// withValidCode returns resp, or a copy whose error code is a valid JSON-RPC
// code when the SDK left it 0 (it does for a plain Go error, for instance
// for a request before initialize): -32600 (invalid request) for a request
// the session's state does not allow, -32603 (internal error) otherwise.
func withValidCode(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var we *jsonrpc.Error
	if errors.As(resp.Error, &we) && we.Code != 0 {
		return resp // encoded with this code
	}
	msg := resp.Error.Error()
	code := int64(jsonrpc.CodeInternalError)
	if strings.Contains(msg, "during session initialization") {
		code = jsonrpc.CodeInvalidRequest
		msg += ": send initialize, then notifications/initialized, first"
	}
	cp := *resp
	cp.Error = &jsonrpc.Error{Code: code, Message: msg}
	return &cp
}

// codeFixWriter gives a JSON-RPC error that the SDK sends with code 0 (for
// a request before initialize, as on stdio; see withValidCode) a valid code.
// The SDK writes each message (an SSE event or a JSON body) in one Write,
// and the bytes "error":{"code":0, can only be the structure of an error
// response: inside a JSON string the quotes would be escaped.
type codeFixWriter struct{ http.ResponseWriter }

var (
	codeZero  = []byte(`"error":{"code":0,`)
	initError = []byte("during session initialization")
)

func (w codeFixWriter) Write(p []byte) (int, error) {
	if !bytes.Contains(p, codeZero) {
		return w.ResponseWriter.Write(p)
	}
	code := `"error":{"code":-32603,`
	if bytes.Contains(p, initError) {
		code = `"error":{"code":-32600,`
	}
	if _, err := w.ResponseWriter.Write(bytes.ReplaceAll(p, codeZero, []byte(code))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap lets http.ResponseController reach the underlying writer (Flush).
func (w codeFixWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush implements http.Flusher.
func (w codeFixWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
