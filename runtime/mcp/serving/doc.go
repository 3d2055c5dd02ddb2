// Package serving serves an mcp.Server over Streamable HTTP with the
// defaults of "toolgen serve --http", so that a Go program gets the same
// protection as the command:
//
//   - a TCP address without a token is served on a loopback address only;
//     a non-loopback one is refused (Listen) unless a token is given;
//   - on loopback without a token, a token is generated and written, mode
//     0600, to a file of its own in the user's runtime directory (TokenDir);
//     the file is removed by Listener.Close. Serving without a token at all
//     is an opt-out, named: Config.AllowUnauthenticated;
//   - "unix:PATH" serves on a Unix socket of mode 0600 (only this user can
//     connect), created in a private directory and renamed into place; a
//     stale socket at PATH is replaced, anything else there is refused, and
//     a file that is not a socket is never removed;
//   - when the context ends, Serve stops taking calls (503), lets the running
//     ones finish for Config.ShutdownTimeout, then kills them (their process
//     groups) and closes the sessions and connections.
//
// A program serves its registry with:
//
//	srv, err := mcp.New(p.Registry)
//	...
//	l, err := serving.Listen(serving.Config{Addr: "127.0.0.1:8080", Token: token})
//	...
//	defer l.Close()
//	err = serving.Serve(ctx, srv, l) // until ctx ends; then drain, then kill
package serving
