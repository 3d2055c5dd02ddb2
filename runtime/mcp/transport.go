package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTransport is MCP's stdio transport with tolerant framing: one message
// per line, and a bad line is answered and skipped instead of ending the
// session (the SDK's own stdio transport stops at the first line that is not
// JSON). See the package doc for the errors it answers with.
type lineTransport struct {
	r      io.Reader
	w      io.Writer
	max    int           // longest line read, in bytes
	grace  time.Duration // how long the requests read get once r ends
	onEOF  func()        // cancels the session's calls; called once when r ends
	logger *slog.Logger  // never nil
	ended  atomic.Bool   // r reached its end: the client closed the connection
}

// Connect implements sdk.Transport; it is called once per session.
func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{t: t, incoming: make(chan frame), closed: make(chan struct{}), pending: map[jsonrpc.ID]int{},
		inFlight: map[jsonrpc.ID]struct{}{}}
	if cl, ok := t.r.(io.Closer); ok {
		c.closer = cl
	}
	go c.readLoop(bufio.NewReaderSize(t.r, 64<<10))
	return c, nil
}

// frame is one line read, or the error that ended the input.
type frame struct {
	data     []byte
	tooLarge bool
	err      error
}

// lineConn is one session's connection. Besides framing it keeps the ids of
// the requests read and not yet answered, so that at the end of the input it
// can let them be answered before reporting io.EOF to the SDK (which stops
// writing responses once its reader has failed).
type lineConn struct {
	t        *lineTransport
	closer   io.Closer // t.r when it is one
	incoming chan frame
	closed   chan struct{}
	once     sync.Once

	writeMu sync.Mutex // one message per line, whole

	mu       sync.Mutex
	pending  map[jsonrpc.ID]int      // requests read, not yet answered (for drain)
	inFlight map[jsonrpc.ID]struct{} // ids of calls read and not yet being answered
	drained  chan struct{}           // closed when pending empties, while draining
}

// methodListen parks until the client cancels it; it is not waited for.
const methodListen = "subscriptions/listen"

func (c *lineConn) readLoop(br *bufio.Reader) {
	for {
		data, tooLarge, err := readLine(br, c.t.max)
		if len(bytes.TrimSpace(data)) > 0 || tooLarge {
			if !c.send(frame{data: data, tooLarge: tooLarge}) {
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				c.t.ended.Store(true)
			}
			c.send(frame{err: err})
			return
		}
	}
}

func (c *lineConn) send(f frame) bool {
	select {
	case c.incoming <- f:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads up to and including the next newline. A line longer than
// max is read to its end and dropped: tooLarge is set and data is nil.
func readLine(br *bufio.Reader, max int) (data []byte, tooLarge bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLarge {
			if len(data)+len(chunk) > max {
				tooLarge, data = true, nil
			} else {
				data = append(data, chunk...)
			}
		}
		if err != bufio.ErrBufferFull {
			return data, tooLarge, err
		}
	}
}

// Read implements sdk.Connection: the next well-formed message. Bad lines are
// answered here and skipped. At the end of the input it drains the requests
// already read (see drain), then returns the error.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var f frame
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case f = <-c.incoming:
		}
		if f.err != nil {
			c.drain()
			return nil, f.err
		}
		if msg := c.decode(f); msg != nil {
			return msg, nil
		}
	}
}

// decode returns the message in f, or nil after answering a bad line.
func (c *lineConn) decode(f frame) jsonrpc.Message {
	if f.tooLarge {
		c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes dropped", c.t.max))
		return nil
	}
	data := bytes.TrimSpace(f.data)
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		c.reject(nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: %v", err))
		return nil
	}
	if data[0] == '[' {
		c.reject(nil, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported: send one message per line")
		return nil
	}
	msg, err := decodeMessage(data)
	if err != nil {
		c.reject(rawID(data), jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: %v", err))
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		_, dup := c.inFlight[req.ID]
		if !dup {
			c.inFlight[req.ID] = struct{}{}
			if req.Method != methodListen {
				c.pending[req.ID]++
			}
		}
		c.mu.Unlock()
		if dup {
			// The SDK would drop it without an answer (it keys its
			// requests by id): refuse it, to the id's sender.
			c.reject(rawID(data), jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("request id %s is already in use by a request in flight: use a new id for each request", rawID(data)))
			return nil
		}
	}
	return msg
}

// decodeMessage decodes one JSON-RPC 2.0 message as jsonrpc.DecodeMessage
// does (a "method" key makes a request, a call when it has an id; without
// one it is a response, which needs an id; keys match exactly), with
// encoding/json: the SDK's decoder allocates a 32 KiB buffer per value
// decoded, which made this half of the server's garbage per call.
func decodeMessage(data []byte) (jsonrpc.Message, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, errors.New("a message must be a JSON object")
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return nil, errors.New(`"jsonrpc" must be "2.0"`)
	}
	var rawID any
	if raw, ok := m["id"]; ok {
		if err := json.Unmarshal(raw, &rawID); err != nil {
			return nil, fmt.Errorf("id: %v", err)
		}
	}
	if f, ok := rawID.(float64); ok && (f != math.Trunc(f) || math.Abs(f) >= 1<<53) {
		// The SDK keeps a number as an int64: 9.5 would be answered as 9,
		// and 2^53+1 as 2^53, which the client cannot match.
		return nil, errors.New("a numeric id must be an integer below 2^53 in magnitude")
	}
	id, err := jsonrpc.MakeID(rawID)
	if err != nil {
		return nil, errors.New("id must be a string, a number or null")
	}
	if raw, ok := m["method"]; ok {
		var method string
		if err := json.Unmarshal(raw, &method); err != nil {
			return nil, errors.New("method must be a string")
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: m["params"]}, nil
	}
	if !id.IsValid() {
		return nil, errors.New("a message without a method is a response and needs an id")
	}
	resp := &jsonrpc.Response{ID: id, Result: m["result"]}
	if raw, ok := m["error"]; ok && !bytes.Equal(raw, []byte("null")) {
		var we jsonrpc.Error
		if err := json.Unmarshal(raw, &we); err != nil {
			return nil, fmt.Errorf("error: %v", err)
		}
		resp.Error = &we
	}
	return resp, nil
}

// rawID returns the message's id when it is a valid JSON-RPC id (a string or
// a number), so an invalid request can still be answered to its sender.
func rawID(data []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(data, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// reject answers a line that is not a usable message with a JSON-RPC error.
func (c *lineConn) reject(id json.RawMessage, code int64, msg string) {
	c.t.logger.Warn("bad message from client", "code", code, "error", msg)
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, msg}})
	if err == nil {
		err = c.writeLine(data)
	}
	if err != nil {
		c.t.logger.Warn("answering a bad message", "error", err)
	}
}

// drain runs once the input has ended. The requests already read get
// eofGrace to be answered (so "printf ... | toolgen serve" works for quick
// commands); then the session's calls are cancelled, their process groups
// killed, and it waits (at most drainTimeout) for the answers.
func (c *lineConn) drain() {
	if !c.waitAnswered(c.t.grace) && c.t.onEOF != nil {
		c.t.onEOF()
		if !c.waitAnswered(drainTimeout) {
			c.t.logger.Warn("input ended; requests left unanswered", "after", c.t.grace+drainTimeout)
		}
		return
	}
	if c.t.onEOF != nil {
		c.t.onEOF()
	}
}

// waitAnswered waits up to d until every request read has been answered, and
// reports whether they were.
func (c *lineConn) waitAnswered(d time.Duration) bool {
	c.mu.Lock()
	if len(c.pending) == 0 {
		c.mu.Unlock()
		return true
	}
	if c.drained == nil {
		c.drained = make(chan struct{})
	}
	ch := c.drained
	c.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ch:
		return true
	case <-c.closed:
		return true
	case <-timer.C:
		return false
	}
}

// Write implements sdk.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp {
		// The id is free again once its answer is on its way: the client
		// may reuse it as soon as it reads the answer.
		c.mu.Lock()
		delete(c.inFlight, resp.ID)
		c.mu.Unlock()
		resp = withValidCode(resp)
		msg = resp
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("mcp: encoding a message: %w", err)
	}
	err = c.writeLine(data)
	if isResp {
		c.answered(resp.ID)
	}
	return err
}

func (c *lineConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.pending[id]; n > 1 {
		c.pending[id] = n - 1
	} else {
		delete(c.pending, id)
	}
	if len(c.pending) == 0 && c.drained != nil {
		close(c.drained)
		c.drained = nil
	}
}

func (c *lineConn) writeLine(data []byte) error {
	select {
	case <-c.closed:
		return errors.New("mcp: connection closed")
	default:
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.t.w.Write(append(data, '\n'))
	return err
}

// Close implements sdk.Connection: it stops reading (closing r when it is an
// io.Closer) and writing. It may be called more than once, concurrently.
func (c *lineConn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		if c.closer != nil {
			err = c.closer.Close()
		}
	})
	return err
}

// SessionID implements sdk.Connection; stdio has no session ids.
func (c *lineConn) SessionID() string { return "" }
