package tool_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// FuzzDecodeSpec checks that DecodeSpec never panics, accepts only valid
// JSON, and reports every problem as a 613 *tool.Error naming the file at a
// position inside it; an accepted spec goes through the validator, Locate
// and Digest without panicking, and decoding is deterministic.
func FuzzDecodeSpec(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "descriptors", "*", "*"+tool.DescriptorExt))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		`{}`, `{"arguments":{"a":{}}}`, `{"examples":[{}]}`, `{"name":"","description":"","command":""}`,
		`{"name":"x","description":"d","command":"ls {a}","arguments":{"a":{"type":"integer","enum":[1,"2"],"default":1e3}}}`,
		`{"name":"x","description":"d","command":"ls","examples":[{"args":{"a":[{}]},"argv":[]}]}`,
		"{\"name\":\"x\"\n,\r\n\"name\":1}", `{"a":"\ud800"}`, `[`, `{"name":"x"}}`, `{"arguments":{"a.b":{"type":"path"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz.tool.json"
		s, pos, err := tool.DecodeSpec(name, data)
		if pos.Complete() && !json.Valid(data) {
			t.Fatalf("Complete after invalid JSON: %q", data)
		}
		// Decoding and validating together reports 613s naming the file,
		// and agrees with the two steps taken apart on a file that decodes.
		_, _, _, all := validate.Descriptor(name, data)
		for _, e := range tool.Flatten(all) {
			if te := (*tool.Error)(nil); !errors.As(e, &te) || te.Code != tool.CodeSpec || te.File != name {
				t.Fatalf("validate.Descriptor problem is not a 613 naming the file: %#v", e)
			}
		}
		if err == nil {
			if _, verr := validate.Spec(&s); (verr == nil) != (all == nil) {
				t.Fatalf("validate.Descriptor says %v, validate.Spec %v", all, verr)
			}
		}
		if err != nil {
			lines := bytes.Count(data, []byte("\n")) + 1
			for _, e := range tool.Flatten(err) {
				var te *tool.Error
				if !errors.As(e, &te) || te.Code != tool.CodeSpec || te.File != name {
					t.Fatalf("problem is not a 613 naming the file: %#v", e)
				}
				if te.Line < 0 || te.Line > lines || (te.Line > 0 && te.Col < 1) || (te.Line == 0 && te.Col != 0) {
					t.Fatalf("position %d:%d outside a file of %d lines: %v", te.Line, te.Col, lines, te)
				}
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON: %q", data)
		}
		s2, _, err2 := tool.DecodeSpec(name, data)
		if err2 != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("decoding twice differs: %v", err2)
		}
		_, verr := validate.Spec(&s)
		for _, e := range tool.Flatten(pos.Locate(verr)) {
			if tool.CodeOf(e) != tool.CodeSpec {
				t.Fatalf("validator problem is not a 613: %v", e)
			}
		}
		if d := tool.Digest(s); len(d) != len("sha256:")+64 {
			t.Fatalf("digest %q", d)
		}
	})
}

// FuzzDecodeTimeout checks a descriptor's "timeout" against
// time.ParseDuration: a file is accepted (decoded and validated) exactly
// when the text is a duration more than zero and at most tool.MaxTimeout,
// and then the Spec holds that duration; a refusal is one 613 located on
// the timeout's line.
func FuzzDecodeTimeout(f *testing.F) {
	for _, s := range []string{"5m", "90s", "1h30m", "0s", "-1s", "30", "24h", "24h0m0.000000001s", "1.5h", ".5s", "1e3s",
		"9223372036854775807ns", "99999999999999999999h", "5 m", "５m", "5µs", "5μs", "+5s", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		quoted, err := json.Marshal(text)
		if err != nil {
			t.Skip() // not representable as a JSON string: nothing to decode
		}
		data := []byte("{\"name\": \"x\", \"description\": \"d\", \"command\": \"ls\",\n\"timeout\": " + string(quoted) + "}")
		s, pos, derr := tool.DecodeSpec("t.tool.json", data)
		var verr error
		if derr == nil {
			_, verr = validate.Spec(&s)
			verr = pos.Locate(verr)
		}
		want, perr := time.ParseDuration(text)
		ok := perr == nil && want > 0 && want <= tool.MaxTimeout
		problems := tool.Flatten(errors.Join(derr, verr))
		if ok != (len(problems) == 0) {
			t.Fatalf("timeout %q: ParseDuration %v, %v; decoding and validating gave %v", text, want, perr, problems)
		}
		if ok && s.Timeout != want {
			t.Fatalf("timeout %q decoded as %v, want %v", text, s.Timeout, want)
		}
		for _, p := range problems {
			var te *tool.Error
			if !errors.As(p, &te) || te.Code != tool.CodeSpec || te.Line != 2 {
				t.Fatalf("timeout %q: problem %v is not a 613 on line 2", text, p)
			}
		}
	})
}
