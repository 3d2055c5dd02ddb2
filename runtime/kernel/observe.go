package kernel

import "context"

type observerKey struct{}

// WithObserver returns a context under which every Run calls f with its
// Result and error just before returning them, on the calling goroutine.
// It lets a layer above a tool (an audit log) see the argv that actually
// ran, the exit code, truncation and timeout without parsing the text the
// model sees. f must be quick and must not keep res.Output beyond the call
// if it needs only its length.
func WithObserver(ctx context.Context, f func(res Result, err error)) context.Context {
	return context.WithValue(ctx, observerKey{}, f)
}

// observe calls the observer of ctx, if any, and returns res and err.
func observe(ctx context.Context, res Result, err error) (Result, error) {
	if f, ok := ctx.Value(observerKey{}).(func(Result, error)); ok && f != nil {
		f(res, err)
	}
	return res, err
}
