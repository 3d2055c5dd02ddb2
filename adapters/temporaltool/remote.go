package temporaltool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/audit"
	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Remote is an MCP client session to a server of command tools — toolgen
// serve, or the server toolgen worker runs in its own process — whose
// tools Register can run as activities: the server runs each call, and the
// activity returns the call's structured result (mcp.Outcome) as its
// Result. The server's progress notifications become the heartbeat
// details (elapsed time, and the message as the tail), and the call's
// idempotency key goes to the server in _meta (mcp.IdempotencyKeyMeta),
// which toolgen's server records in its audit log.
type Remote struct {
	session  *sdk.ClientSession
	seq      atomic.Int64
	mu       sync.Mutex
	progress map[string]func(tool.Progress)
}

// Connect opens an MCP session over t (for a server on the other end of a
// pipe, an *mcp.IOTransport) and returns it as a Remote.
func Connect(ctx context.Context, t sdk.Transport) (*Remote, error) {
	r := &Remote{progress: map[string]func(tool.Progress){}}
	c := sdk.NewClient(&sdk.Implementation{Name: "toolgen-temporal-worker", Version: "1"},
		&sdk.ClientOptions{ProgressNotificationHandler: r.onProgress})
	s, err := c.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("temporaltool: connecting to the tool server: %w", err)
	}
	r.session = s
	return r, nil
}

// Done is closed when the session has ended (the server went away).
func (r *Remote) Done() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		r.session.Wait()
		close(done)
	}()
	return done
}

// Close ends the session.
func (r *Remote) Close() error { return r.session.Close() }

// Tools lists the server's tools (every page of tools/list).
func (r *Remote) Tools(ctx context.Context) ([]tool.Tool, error) {
	var tools []tool.Tool
	for def, err := range r.session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("temporaltool: listing the server's tools: %w", err)
		}
		schema, err := json.Marshal(def.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("temporaltool: tool %s: %w", def.Name, err)
		}
		tools = append(tools, &remoteTool{r: r, name: def.Name, desc: def.Description, schema: schema})
	}
	return tools, nil
}

// onProgress hands a progress notification to the call whose token it
// carries.
func (r *Remote) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	token, _ := req.Params.ProgressToken.(string)
	r.mu.Lock()
	fn := r.progress[token]
	r.mu.Unlock()
	if fn != nil {
		fn(tool.Progress{Elapsed: time.Duration(req.Params.Progress * float64(time.Second)), Tail: req.Params.Message})
	}
}

// remoteTool is one tool of a Remote.
type remoteTool struct {
	r          *Remote
	name, desc string
	schema     json.RawMessage
}

func (t *remoteTool) Name() string                 { return t.name }
func (t *remoteTool) Description() string          { return t.desc }
func (t *remoteTool) InputSchema() json.RawMessage { return t.schema }

// Call runs the tool on the server and returns the text the model sees.
func (t *remoteTool) Call(ctx context.Context, args json.RawMessage) (string, error) {
	_, text, err := t.call(ctx, args)
	return text, err
}

// call runs the tool on the server: its Result (from the structured
// content), its text, or the error the server answered with (a 613 or 614
// read back from its text).
func (t *remoteTool) call(ctx context.Context, args json.RawMessage) (Result, string, error) {
	params := &sdk.CallToolParams{Name: t.name, Arguments: args}
	if c, ok := audit.CallerFrom(ctx); ok && c.Key != "" {
		params.Meta = sdk.Meta{mcp.IdempotencyKeyMeta: c.Key}
	}
	if fn := tool.ProgressFunc(ctx); fn != nil {
		token := "call-" + strconv.FormatInt(t.r.seq.Add(1), 10)
		params.SetProgressToken(token)
		t.r.mu.Lock()
		t.r.progress[token] = fn
		t.r.mu.Unlock()
		defer func() {
			t.r.mu.Lock()
			delete(t.r.progress, token)
			t.r.mu.Unlock()
		}()
	}
	res, err := t.r.session.CallTool(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, "", ctx.Err()
		}
		return Result{}, "", fmt.Errorf("%s: %w", t.name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return Result{}, "", RemoteError(text.String())
	}
	out := Result{Output: text.String()}
	if res.StructuredContent != nil {
		data, err := json.Marshal(res.StructuredContent)
		if err == nil {
			err = json.Unmarshal(data, &out)
		}
		if err != nil {
			return Result{}, "", fmt.Errorf("%s: the server's structured result: %w", t.name, err)
		}
	}
	return out, text.String(), nil
}

// refusal matches the text of a refused call: "error 614: …", or a 613
// with its place ("FILE:LINE:COL: error 613: …").
var refusal = regexp.MustCompile(`^(?:[^\n]*?: )?error (613|614): `)

// RemoteError is the error of a call that an MCP server answered with an
// error result of text: a *tool.Error whose Error() is text and whose Code
// is the one text starts with (613 or 614), or, for any other text, a
// plain error of text.
func RemoteError(text string) error {
	m := refusal.FindStringSubmatchIndex(text)
	if m == nil {
		return errors.New(text)
	}
	code := tool.CodeValue
	if text[m[2]:m[3]] == "613" {
		code = tool.CodeSpec
	}
	return &refused{te: &tool.Error{Code: code, Msg: text[m[1]:]}, text: text}
}

// refused is a *tool.Error read back from its text: it keeps the text.
type refused struct {
	te   *tool.Error
	text string
}

func (e *refused) Error() string { return e.text }

// Unwrap gives the *tool.Error, so that tool.CodeOf finds the code.
func (e *refused) Unwrap() error { return e.te }
