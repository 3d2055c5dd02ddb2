package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/nanogpt/toolgen/runtime/audit"
)

// checkHTTPID reads the body of a POST, within timeout (408 beyond: the
// connection's read deadline is set for the read and cleared after it), and
// refuses (400, a JSON-RPC
// -32600 to the id as sent) a message whose numeric id the SDK would
// answer as another id: it keeps a number as an int64, so 9.5 would be
// answered as 9 and 2^53+1 as 2^53, which the client cannot match (the
// same rule as decodeMessage on stdio). It puts the body back for the SDK
// and reports whether the request may go on. A body over limit is left to
// the SDK, which answers 413.
func checkHTTPID(w http.ResponseWriter, r *http.Request, limit int64, timeout time.Duration) (body []byte, ok bool) {
	if r.Method != http.MethodPost || r.Body == nil {
		return nil, true
	}
	rc := http.NewResponseController(w)
	deadline := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
	data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil || int64(len(data)) > limit {
		// The deadline stays: what is left of the body is read under it
		// (by the SDK, or by the server to reuse the connection).
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(data))
		var ne net.Error
		switch {
		case errors.As(err, &ne) && ne.Timeout():
			w.Header().Set("Connection", "close")
			http.Error(w, "Request Timeout: the body did not arrive in time", http.StatusRequestTimeout)
			return nil, false
		case err != nil:
			http.Error(w, "Bad Request: cannot read the body", http.StatusBadRequest)
			return nil, false
		}
		// Let the SDK see it is too large (it reads past the limit).
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(data), r.Body))
		return nil, true
	}
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(data))
	if deadline {
		_ = rc.SetReadDeadline(time.Time{}) // a call's answer may take long; the SSE stream longer
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(data, &m) != nil || !badNumericID(m.ID) {
		return data, true // not ours to judge: the SDK answers malformed bodies
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) +
		`,"error":{"code":-32600,"message":"a numeric id must be an integer below 2^53 in magnitude"}}`))
	return nil, false
}

// batchCall is one request with an id in a JSON-RPC batch.
type batchCall struct {
	id     jsonrpc.ID
	rawID  json.RawMessage
	method string
	name   string          // tools/call: the tool
	args   json.RawMessage // tools/call: the arguments
}

// batchDuplicate reads body as a JSON-RPC batch and returns its calls and
// the first id two of them share (as the SDK identifies ids: 7 and 7.0 are
// one). ok is false when body is no batch, or one without a shared id.
// The SDK keys the calls of a batch by id: of two with one id, one is
// answered and the other never is.
func batchDuplicate(body []byte) (calls []batchCall, dup json.RawMessage, ok bool) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '[' {
		return nil, nil, false
	}
	var msgs []json.RawMessage
	if json.Unmarshal(body, &msgs) != nil {
		return nil, nil, false
	}
	seen := map[jsonrpc.ID]bool{}
	for _, raw := range msgs {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(raw, &m) != nil || m.Method == nil || len(m.ID) == 0 {
			continue // a notification, a response or garbage: the SDK's to judge
		}
		var v any
		if json.Unmarshal(m.ID, &v) != nil || v == nil {
			continue
		}
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			continue
		}
		calls = append(calls, batchCall{id: id, rawID: m.ID, method: *m.Method, name: m.Params.Name, args: m.Params.Arguments})
		if seen[id] && dup == nil {
			dup = m.ID
		}
		seen[id] = true
	}
	return calls, dup, dup != nil
}

// refuseBatch answers a batch whose calls share an id: 400, and for each
// call of the batch a JSON-RPC error -32600 with its id (the shared one
// once per request that carries it); nothing of the batch runs. Each
// tools/call of it is recorded as refused (rule "duplicate id").
func (h *httpGate) refuseBatch(w http.ResponseWriter, r *http.Request, calls []batchCall, dup json.RawMessage) {
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	type answer struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}
	dupID, _ := jsonrpc.MakeID(mustAny(dup))
	out := make([]answer, 0, len(calls))
	for _, c := range calls {
		msg := fmt.Sprintf("not run: request id %s is used by two requests of this batch, so nothing of the batch ran; send them again with an id each", dup)
		if c.id == dupID {
			msg = fmt.Sprintf("request id %s is used by two requests of this batch: give every request of a batch its own id; nothing of the batch ran", dup)
		}
		out = append(out, answer{"2.0", c.rawID, wireError{jsonrpc.CodeInvalidRequest, msg}})
		if c.method == "tools/call" && h.s.refused != nil {
			ctx := audit.WithCaller(r.Context(), audit.Caller{Transport: "http", Session: r.Header.Get("Mcp-Session-Id")})
			if err := h.s.refused(ctx, c.name, c.args, "duplicate id", errors.New(msg)); err != nil {
				h.s.logger.Error("recording a refused call", "error", err)
			}
		}
	}
	h.s.logger.Warn("bad message from client", "code", jsonrpc.CodeInvalidRequest, "error", "duplicate id in a batch", "id", string(dup))
	data, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(data)
}

// mustAny decodes raw JSON that is known to be valid.
func mustAny(raw json.RawMessage) any {
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}

// badNumericID reports whether raw is a JSON number that is not an
// integer below 2^53 in magnitude.
func badNumericID(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return false // absent, a string, null, or not a number
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n >= 1<<53 || n <= -(1<<53)
	}
	f, err := strconv.ParseFloat(s, 64)
	return err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<53
}
