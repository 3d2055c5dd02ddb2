package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Caller says who made a call: the transport ("stdio", "http", "cli",
// "temporal", …), the session within it and, when the caller has one, the
// call's idempotency key: what names one logical call across its retries
// (for a Temporal activity WORKFLOW_ID/RUN_ID/ACTIVITY_ID). "" when none.
type Caller struct {
	Transport, Session, Key string
}

type callerKey struct{}

// WithCaller returns a context whose calls are recorded as made by c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller set by WithCaller.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}

// Auditor records the calls of the tools it wraps into one Log.
type Auditor struct {
	log       *Log
	confine   string
	transport string
	redact    map[string]bool
	now       func() time.Time
}

// Option configures New.
type Option func(*Auditor)

// WithConfinement sets the confinement mode recorded with each call
// (e.g. "strict", "best-effort", "off").
func WithConfinement(mode string) Option { return func(a *Auditor) { a.confine = mode } }

// WithTransport sets the transport recorded when the call's context has no
// Caller (e.g. "cli" for toolgen call).
func WithTransport(name string) Option { return func(a *Auditor) { a.transport = name } }

// WithRedact names slots whose values are redacted from the records; see the
// package doc.
func WithRedact(slots ...string) Option {
	return func(a *Auditor) {
		for _, s := range slots {
			if s = strings.TrimSpace(s); s != "" {
				a.redact[s] = true
			}
		}
	}
}

// New returns an auditor writing to log.
func New(log *Log, opts ...Option) *Auditor {
	a := &Auditor{log: log, redact: map[string]bool{}, now: time.Now}
	for _, o := range opts {
		if o != nil {
			o(a)
		}
	}
	return a
}

// Log returns the log the auditor writes to.
func (a *Auditor) Log() *Log { return a.log }

// Wrap returns t with every call recorded; form is recorded as the tool's
// form. The wrapper has t's name, description and schema.
func (a *Auditor) Wrap(t tool.Tool, form tool.Form) tool.Tool {
	return &audited{Tool: t, a: a, form: string(form)}
}

// Unwrap returns the tool t wraps, or t itself.
func Unwrap(t tool.Tool) tool.Tool {
	if w, ok := t.(*audited); ok {
		return w.Tool
	}
	return t
}

type audited struct {
	tool.Tool
	a    *Auditor
	form string
}

// ErrNotRecorded is wrapped by the error a call gets when its record cannot
// be written.
var ErrNotRecorded = errors.New("the audit log cannot be written")

// observation collects what the kernel ran during one call.
type observation struct {
	mu  sync.Mutex
	res kernel.Result
	err error
	ran bool
}

func (o *observation) observe(res kernel.Result, err error) {
	o.mu.Lock()
	o.res, o.err, o.ran = res, err, true
	o.mu.Unlock()
}

// Call runs the tool and records the call before returning its result. A
// call is refused without running while the log is broken; a call whose
// record cannot be written gets an error instead of its result.
func (w *audited) Call(ctx context.Context, args json.RawMessage) (string, error) {
	if err := w.a.log.Err(); err != nil {
		return "", fmt.Errorf("%s: not run: %w (%v); no call runs until it is fixed", w.Name(), ErrNotRecorded, err)
	}
	start := w.a.now()
	var obs observation
	text, err := w.Tool.Call(kernel.WithObserver(ctx, obs.observe), args)
	rec := w.a.record(ctx, w.Name(), w.form, args, start, &obs, text, err)
	if werr := w.a.log.Write(rec); werr != nil {
		return "", fmt.Errorf("%s: result withheld: %w (%v); no call runs until it is fixed", w.Name(), ErrNotRecorded, werr)
	}
	return text, err
}

// Refused records a call that reached no tool — an unknown tool name, or a
// call refused while the server shuts down —, with rule naming why and
// reason the error the client got. Its error is the log's: the caller
// decides what a client gets when the record cannot be written.
func (a *Auditor) Refused(ctx context.Context, name string, args json.RawMessage, rule string, reason error) error {
	rec := a.record(ctx, name, "", args, a.now(), &observation{}, "", reason)
	rec.Rule = rule
	return a.log.Write(rec)
}

func (a *Auditor) record(ctx context.Context, name, form string, args json.RawMessage, start time.Time,
	obs *observation, text string, err error) *Record {
	end := a.now()
	rec := &Record{
		Time:       start.UTC().Format(time.RFC3339Nano),
		Transport:  a.transport,
		Tool:       name,
		Form:       form,
		Confine:    a.confine,
		DurationMS: float64(end.Sub(start).Microseconds()) / 1000,
	}
	if c, ok := CallerFrom(ctx); ok {
		rec.Transport, rec.Session, rec.Key = c.Transport, c.Session, c.Key
	}
	trimmed := bytes.TrimSpace(args)
	var secrets []string
	switch {
	case len(trimmed) == 0:
	case json.Valid(trimmed):
		rec.Args, rec.Redacted, secrets = a.redactArgs(trimmed)
		if !utf8.Valid(rec.Args) { // JSON whose strings hold bytes that are not UTF-8
			rec.ArgsText, rec.Args = escapeInvalid(rec.Args), nil
		}
	case !utf8.Valid(args):
		rec.ArgsText = escapeInvalid(args)
	default:
		rec.ArgsText = string(args)
	}
	obs.mu.Lock()
	if obs.ran {
		res := obs.res
		rec.Argv = slices.Clone(res.Argv)
		exit := res.ExitCode
		rec.Exit = &exit
		rec.Notice = res.Notice
		// A tool that keeps stderr apart has two bounded streams: the
		// record counts both.
		rec.OutputBytes = len(res.Output) + len(res.Stderr)
		rec.OmittedBytes = res.Omitted + res.StderrOmitted
		rec.Truncated = res.Truncated || res.StderrTruncated
		rec.TimedOut = res.TimedOut
		ctxEnded := obs.err != nil && (errors.Is(obs.err, context.Canceled) || errors.Is(obs.err, context.DeadlineExceeded))
		rec.Killed = res.TimedOut || (ctxEnded && res.Duration > 0)
	}
	obs.mu.Unlock()
	if err != nil {
		rec.Error = err.Error()
		rec.Code = int(tool.CodeOf(err))
		rec.Rule = Rule(err)
	}
	if len(secrets) > 0 {
		for i, s := range rec.Argv {
			rec.Argv[i] = hide(s, secrets)
		}
		rec.Error = hide(rec.Error, secrets)
		rec.ArgsText = hide(rec.ArgsText, secrets)
	}
	_ = text
	return rec
}

// escapeInvalid returns b as text that is valid UTF-8 and from which b can
// be read back: each byte that is not UTF-8 as \xNN, and each backslash
// doubled (so that a \xNN the model sent stays apart from an escaped byte).
func escapeInvalid(b []byte) string {
	var out strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&out, "\\x%02x", b[0])
		case r == '\\':
			out.WriteString(`\\`)
		default:
			out.Write(b[:n])
		}
		b = b[n:]
	}
	return out.String()
}

const redactedValue = `"[redacted]"`

// redactArgs returns args with the values of the redacted slots replaced
// (keys kept in the order sent, duplicates included), the names of those
// slots, and the values' texts to hide elsewhere.
func (a *Auditor) redactArgs(args []byte) (rawJSON, []string, []string) {
	if len(a.redact) == 0 || args[0] != '{' {
		return rawJSON(args), nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return rawJSON(args), nil, nil
	}
	var out bytes.Buffer
	out.WriteByte('{')
	var names, secrets []string
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		var v json.RawMessage
		if err != nil || !ok || dec.Decode(&v) != nil {
			return rawJSON(`"[unparsable arguments redacted]"`), []string{"*"}, nil
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(key)
		out.Write(kb)
		out.WriteByte(':')
		if !a.redact[key] {
			out.Write(v)
			continue
		}
		if !slices.Contains(names, key) {
			names = append(names, key)
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v) // a number, an array…: its text
		}
		if s != "" {
			secrets = append(secrets, s)
		}
		out.WriteString(redactedValue)
	}
	out.WriteByte('}')
	if len(names) == 0 {
		return rawJSON(args), nil, nil
	}
	slices.Sort(names)
	return rawJSON(out.Bytes()), names, secrets
}

// hide replaces a secret that is the whole of s, and every occurrence of a
// secret of at least 4 bytes in s (shorter ones would hit ordinary text).
func hide(s string, secrets []string) string {
	for _, v := range secrets {
		if s == v {
			return "[redacted]"
		}
		if len(v) < 4 {
			continue
		}
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
		// A value quoted in an error message (strconv style).
		if q := strconv.Quote(v); strings.Contains(s, q) {
			s = strings.ReplaceAll(s, q, `"[redacted]"`)
		}
	}
	return s
}
