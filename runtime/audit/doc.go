// Package audit records every tool call as one JSON line, before its result
// goes back to the model, and summarises such logs. It is a middleware over
// tool.Tool, independent of how the call arrived (MCP over stdio or HTTP,
// toolgen call, an agent embedding the registry):
//
//	log, err := audit.Open("/var/log/toolgen/audit.jsonl", audit.Options{MaxSize: 64 << 20})
//	...
//	a := audit.New(log, audit.WithConfinement("best-effort"), audit.WithRedact("token"))
//	t = a.Wrap(t, tool.FormDescriptor)                      // every call of t is recorded
//	ctx = audit.WithCaller(ctx, audit.Caller{Transport: "http", Session: id})
//
// # The record
//
// One JSON object per line (Record), fields in this order: seq (per log, from
// 1, continued across rotations: a gap is a lost line), time (UTC,
// RFC 3339 with nanoseconds), transport, session and key (who called; key is
// the caller's idempotency key, e.g. a Temporal activity's
// WORKFLOW_ID/RUN_ID/ACTIVITY_ID, the same for every retry), tool, form
// (builtin, generated, descriptor or exec), args (the model's arguments,
// verbatim; args_text instead when they are not valid JSON), redacted (the
// slots whose values were replaced by "[redacted]"), argv (what actually ran,
// argv[0] resolved to an absolute path; absent when nothing ran), code and
// rule (613/614 and the rule that refused the call), error (the text the
// model got instead of a result), confine (the confinement mode) and notice
// (the kernel's note, e.g. that it ran unconfined), exit, duration_ms (the
// whole call), output_bytes (returned to the model) and omitted_bytes
// (dropped from the middle), truncated, timed_out, killed (the process group
// was killed: timeout or cancellation), and prev (the chain, below). A line
// about the log itself has event and detail instead of a call's fields.
//
// # Redaction
//
// WithRedact names slots (top-level argument keys) whose values are evidence
// nobody should read back, such as a token a tool takes. Their values are
// replaced by "[redacted]" in args; an argv word or error equal to the value
// is replaced, and so is every occurrence of a value of 4 bytes or more
// inside them (a shorter one would hit ordinary text: a 1-3 byte secret
// inside a longer argv word stays visible). The slot names are listed in the record's
// redacted field. Redaction is exact-match: a value the command echoes in
// its output is not in the record anyway (the output is not logged).
//
// # Durability
//
// Open opens the file append-only (O_APPEND, created 0600, never through a
// symbolic link). Each record is written whole with one write(2) under a
// lock, before the call's result is returned; a background goroutine fsyncs
// at most Options.SyncInterval after a write (default 1s; Close syncs).
// With Options.MaxSize the file is rotated before a record would make it
// larger: FILE becomes FILE.1 (FILE.1 becomes FILE.2, … up to Options.Keep
// files), a new FILE is created starting with a line of event "rotated"
// (file_start set, its prev the digest of FILE.1's last line), and the
// record goes there; no record is split or dropped.
//
// A call that cannot be recorded does not happen: once a write, a sync or a
// rotation has failed, the log is broken (Log.Err) and every later call of a
// wrapped tool is refused without running, with an error saying why. The call
// whose record could not be written had already run: its result is withheld
// and the model gets that error instead.
//
// The log follows its path: before each call (Log.Err) and each write it
// checks that the path still names the open file (device and inode). When
// the file was deleted, renamed (rotated by another program) or replaced,
// the path is opened again and a line with event "reopened" says what
// happened; while the path cannot be opened, calls are refused without
// running (not for good: the next call tries again).
//
// # Every line valid UTF-8, every line chained
//
// String fields are valid UTF-8 (encoding/json); arguments that hold bytes
// that are not UTF-8 go to args_text with each such byte as \xNN and each
// backslash doubled. Each line's prev is the digest of the line before it
// ("sha256:" and the hex SHA-256 of its bytes, newline excluded; 64 zeros on
// a log's first line), across rotations, reopenings and restarts on the same
// file (Open reads the last line's digest; a torn last line is ended with a
// newline first). Verify walks the chain of a log's files and names the
// first edited, removed, inserted or reordered line; lines of an older
// toolgen, without prev, are counted apart. Its head is anchored: a log
// must start at its first line (prev of 64 zeros) or at a line about the
// log with file_start set, the first of a file a rotation or a reopening
// made, so a file whose first lines were cut fails. Its tail is not: a log
// cut at its end is a shorter chain, which VerifyThrough shows against a
// head kept from before. The chain has no key: it shows a change to anyone
// who kept the digest of a later line (Verification.Head) or the lines
// themselves elsewhere.
package audit
