package audit

import (
	"regexp"
	"strings"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// Record is one call, as one line of the log. See the package doc for the
// meaning of each field; a zero field is left out of the line.
type Record struct {
	Seq          uint64   `json:"seq"`
	Time         string   `json:"time"`
	Transport    string   `json:"transport,omitempty"`
	Session      string   `json:"session,omitempty"`
	Key          string   `json:"key,omitempty"`
	Tool         string   `json:"tool"`
	Form         string   `json:"form,omitempty"`
	Args         rawJSON  `json:"args,omitempty"`
	ArgsText     string   `json:"args_text,omitempty"`
	Redacted     []string `json:"redacted,omitempty"`
	Argv         []string `json:"argv,omitempty"`
	Code         int      `json:"code,omitempty"`
	Rule         string   `json:"rule,omitempty"`
	Error        string   `json:"error,omitempty"`
	Confine      string   `json:"confine,omitempty"`
	Notice       string   `json:"notice,omitempty"`
	Exit         *int     `json:"exit,omitempty"`
	DurationMS   float64  `json:"duration_ms"`
	OutputBytes  int      `json:"output_bytes,omitempty"`
	OmittedBytes int64    `json:"omitted_bytes,omitempty"`
	Truncated    bool     `json:"truncated,omitempty"`
	TimedOut     bool     `json:"timed_out,omitempty"`
	Killed       bool     `json:"killed,omitempty"`
	// Event, on a line that records no call, says what happened to the
	// log itself ("reopened"), and Detail how.
	Event  string `json:"event,omitempty"`
	Detail string `json:"detail,omitempty"`
	// FileStart is set on the first line of a file that continues the
	// chain of another (a rotation's first line, or the line saying the
	// log was opened again at its path): a file may start mid-chain only
	// with such a line, so one whose head was cut fails Verify. Set by
	// Log.Write.
	FileStart bool `json:"file_start,omitempty"`
	// Prev is the digest of the line before this one in the log
	// ("sha256:" and 64 hex digits of its bytes, newline excluded), across
	// rotations, reopenings and restarts on the same file; "sha256:" and 64
	// zeros on the first line of a log. Set by Log.Write.
	Prev string `json:"prev,omitempty"`
}

// rawJSON is JSON kept as the model sent it (encoding/json compacts it on
// output; the values are unchanged).
type rawJSON []byte

// MarshalJSON implements json.Marshaler.
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// UnmarshalJSON implements json.Unmarshaler.
func (r *rawJSON) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

var defenceRule = regexp.MustCompile(`^defence \d+ \([^)]*\)`)

// Rule names the rule behind a refusal (613/614), in few enough words that
// refusals can be counted per rule: "exec defence 2 (deny list)",
// "leading dash", "path escape", … It is "" for an error without a code.
func Rule(err error) string {
	var te *tool.Error
	for e := err; e != nil; {
		if t, ok := e.(*tool.Error); ok {
			te = t
			break
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			break
		}
		e = u.Unwrap()
	}
	if te == nil {
		return ""
	}
	if m := defenceRule.FindString(te.Msg); m != "" {
		return "exec " + m
	}
	msg := te.Msg
	for _, r := range ruleWords {
		if strings.Contains(msg, r.word) {
			return r.rule
		}
	}
	if te.Code == tool.CodeSpec {
		return "invalid descriptor"
	}
	return "other"
}

// ruleWords map the wording of the validator's 614 messages to rules; the
// first match wins.
var ruleWords = []struct{ word, rule string }{
	{"required argument is missing", "missing argument"},
	{"unknown argument", "unknown argument"},
	{"begins with '-'", "leading dash"},
	{"is absolute", "path escape"},
	{"climbs out", "path escape"},
	{"outside the workspace", "path escape"},
	{"is a lookalike", "metacharacter"},
	{"character", "character"},
	{"not one of the allowed values", "enum"},
	{"does not match", "pattern"},
	{"non-negative", "number"},
	{"not a number", "number"},
	{"want a JSON", "argument type"},
	{"arguments are", "argument size"},
	{"arguments must be", "arguments not an object"},
	{"repeated", "repeated argument"},
	{"duplicate", "repeated argument"},
}
