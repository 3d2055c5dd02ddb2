// Package mcp serves a tool.Registry to any MCP client, over stdio or
// Streamable HTTP, with the Model Context Protocol Go SDK
// (github.com/modelcontextprotocol/go-sdk).
//
//	p, err := preset.New(preset.WithWorkspace("."), preset.WithToolsDir("tools"))
//	...
//	srv, err := mcp.New(p.Registry, mcp.WithLogger(logger))
//	...
//	go p.Watch(ctx, func() { srv.Sync() })    // hot reload: list_changed
//	err = srv.Serve(ctx, os.Stdin, os.Stdout) // stdout is the protocol
//
// or over HTTP (the SDK's StreamableHTTPHandler behind a bearer token, an
// Origin check and bounds; see Handler), with a graceful stop:
//
//	http.Handle("/mcp", srv.Handler(mcp.HTTPOptions{Token: token, Stateless: true}))
//	...
//	srv.Drain(ctxWithDeadline) // no new calls; running ones finish or are killed
//	srv.CloseSessions()
//
// WithToolWrapper wraps every served tool, e.g. with audit.Auditor.Wrap so
// that each call is recorded; the call's context then carries an
// audit.Caller naming the transport ("stdio", "http", "connect") and the
// session.
//
// # Contract
//
//   - tools/list gives, for every tool of the registry (sorted by name), its
//     name, description and InputSchema exactly as the tool returns it: the
//     raw JSON Schema is passed through byte for byte (compacted), so the
//     order of the properties is the order of the slots. The server uses the
//     SDK's raw tool layer: arguments are not validated by the SDK but by the
//     tool itself, with the same rules as every other way of calling it.
//   - tools/call runs the tool and returns the text the model sees as one
//     TextContent. A command that ran (whatever its exit status) is a normal
//     result. A tool error is a result with isError set and the error's text:
//     a 614 (rejected argument, wrong JSON type), a command that could not
//     start, a cancelled call. An unknown tool is a JSON-RPC error (invalid
//     params). Arguments larger than the limit (WithMaxArgumentBytes, 1 MiB by
//     default) are a 614 result without reaching the tool.
//   - Calls run concurrently, each in its own goroutine, at most
//     WithMaxConcurrentCalls at a time (the rest wait, cancellably): a slow
//     tool does not block the others.
//   - A call's context is cancelled when the client cancels the request
//     (notifications/cancelled), when the client goes away (end of input,
//     after the grace below; a broken output pipe; over HTTP, the connection
//     of the request that carried the call closing, stateless or with a
//     session: no one could receive the answer) and when Serve's context
//     ends. The command kernel
//     then kills the command's process group: nothing a call started outlives
//     it.
//   - Sync re-reads the registry and updates the served tool set; when a
//     definition was added, removed or changed, the SDK sends
//     notifications/tools/list_changed (debounced) to every session of a
//     protocol version up to 2025-11-25, and to 2026-07-28 sessions that
//     have a subscriptions/listen open. Use it after a hot reload
//     (preset.Watch).
//   - A tool that panics (the Tool contract rules it out) gives an isError
//     result and a log line with the stack, not a dead server.
//   - Serve frames messages one per line (MCP stdio). A line that is not JSON
//     is answered with a JSON-RPC parse error (-32700, id null), one that is
//     JSON but not a JSON-RPC message, a batch, or a line longer than
//     WithMaxMessageBytes with an invalid-request error (-32600), and the
//     server keeps serving. A request whose id is already used by a request
//     of the session still in flight is refused with an invalid-request
//     error (-32600) carrying that id, and does not run; the first is
//     answered as usual. A request before initialize (protocol versions with
//     the handshake) gets -32600 too; no error goes out with code 0. When
//     the input ends (the client closed it or went
//     away), the requests already read get a second to be answered; then the
//     calls still running are cancelled (their process groups killed), every
//     request is answered, and Serve returns nil.
//   - The server writes nothing but protocol messages to its output; logs go
//     to the WithLogger logger (none by default; toolgen serve logs to
//     stderr).
package mcp
