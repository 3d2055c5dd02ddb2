package kernel

import "context"

type observerKey struct{}

// WithObserver returns a context under which every Run calls f with its
// Result and error just before returning them, on the calling goroutine.
// It lets a layer above a tool (an audit log, an MCP server's structured
// result) see the argv that actually ran, the exit code, truncation and
// timeout without parsing the text the model sees. f must be quick and must
// not keep res.Output beyond the call if it needs only its length.
//
// Observers nest: under a context that already has one, Run calls f first
// and then the observer of the outer context, so one layer's observer never
// hides another's.
func WithObserver(ctx context.Context, f func(res Result, err error)) context.Context {
	if f == nil {
		return ctx
	}
	outer, _ := ctx.Value(observerKey{}).(func(Result, error))
	if outer != nil {
		inner := f
		f = func(res Result, err error) {
			inner(res, err)
			outer(res, err)
		}
	}
	return context.WithValue(ctx, observerKey{}, f)
}

// observe calls the observer of ctx, if any, and returns res and err.
func observe(ctx context.Context, res Result, err error) (Result, error) {
	if f, ok := ctx.Value(observerKey{}).(func(Result, error)); ok && f != nil {
		f(res, err)
	}
	return res, err
}
