package mcp

import (
	"context"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// withProgress returns ctx under which a command tool's call reports its
// progress to the client as notifications/progress, about every
// tool.ProgressInterval while the command runs, when the client asked for
// it: the request carries a progress token (_meta.progressToken). Without
// one it returns ctx. The notifications go out on the call's context, so
// over HTTP they travel on the stream of the call's own request.
func withProgress(ctx context.Context, req *sdk.CallToolRequest) context.Context {
	if req.Session == nil || req.Params == nil {
		return ctx
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return ctx
	}
	session := req.Session
	return tool.WithProgress(ctx, func(p tool.Progress) {
		// A notification that cannot be sent (the client went away) is
		// no reason to end the call: its result says how it ended.
		_ = session.NotifyProgress(ctx, progressParams(token, p))
	})
}

// progressParams is one notifications/progress for p: progress is the
// seconds the command has run (it grows with every report, as MCP
// requires, whether or not output came), no total (unknown), and the
// message says how much output has come and ends with its last lines.
func progressParams(token any, p tool.Progress) *sdk.ProgressNotificationParams {
	msg := fmt.Sprintf("running for %s: %d bytes of output in %d lines so far", p.Elapsed.Round(time.Second), p.Bytes, p.Lines)
	if p.Tail != "" {
		msg += "; last lines:\n" + p.Tail
	}
	return &sdk.ProgressNotificationParams{ProgressToken: token, Progress: p.Elapsed.Seconds(), Message: msg}
}
