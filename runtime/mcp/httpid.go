package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"time"
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
func checkHTTPID(w http.ResponseWriter, r *http.Request, limit int64, timeout time.Duration) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return true
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
			return false
		case err != nil:
			http.Error(w, "Bad Request: cannot read the body", http.StatusBadRequest)
			return false
		}
		// Let the SDK see it is too large (it reads past the limit).
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(data), r.Body))
		return true
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
		return true // not ours to judge: the SDK answers malformed bodies
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) +
		`,"error":{"code":-32600,"message":"a numeric id must be an integer below 2^53 in magnitude"}}`))
	return false
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
