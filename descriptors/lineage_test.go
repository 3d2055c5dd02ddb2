package descriptors_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/descriptors"
	"github.com/nanogpt/toolgen/runtime/builtin"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestThreeFormsOneBehaviour is the seed's "same capability in both forms"
// check, extended to the generated form: grep -rn {pattern} {path} as the
// code-form grep_text, as the descriptor search-text.tool.json loaded at
// runtime, and as the generated SearchText give the same argv, the same
// output and the very same 614 text for every input — there is one
// validator, not three.
func TestThreeFormsOneBehaviour(t *testing.T) {
	ws := t.TempDir()
	for name, body := range map[string]string{
		"a.txt": "one needle\ntwo\n", "src/b.go": "package b // needle\n", "...": "dots needle\n",
	} {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	k, err := kernel.New(ws)
	if err != nil {
		t.Fatal(err)
	}
	code, err := builtin.NewGrepTool(k)
	if err != nil {
		t.Fatal(err)
	}
	generated, err := descriptors.NewSearchText(k)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, err := os.ReadFile("search-text.tool.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "search-text.tool.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := loader.New(dir, k)
	if err != nil {
		t.Fatal(err)
	}
	loaded, problems := l.LoadAll()
	if len(problems) > 0 || len(loaded) != 1 {
		t.Fatalf("loader: %d tools, problems %v", len(loaded), problems)
	}
	forms := map[string]tool.SpecTool{"code-form": code, "generated": generated, "descriptor": loaded[0].Tool}

	inputs := []string{
		`{"pattern":"needle"}`, `{"pattern":"needle","path":"src"}`, `{"pattern":"needle","path":"..."}`,
		`{"pattern":"needle","path":"./src/../a.txt"}`, `{"pattern":"x;id"}`, `{"pattern":"-e"}`,
		`{"pattern":"a\u3000b"}`, `{"pattern":"x","path":"../.."}`, `{"pattern":"x","path":"/etc"}`,
		`{}`, `{"pattern":"x","extra":1}`, `{"pattern":5}`, `{"pattern":"ｘ｜y"}`,
	}
	for _, in := range inputs {
		var argvs, outs []string
		for _, name := range []string{"code-form", "generated", "descriptor"} {
			f := forms[name]
			argv, aerr := f.Argv(json.RawMessage(in))
			out, cerr := f.Call(context.Background(), json.RawMessage(in))
			if (aerr == nil) != (cerr == nil) {
				t.Fatalf("%s %s: Argv err %v but Call err %v", name, in, aerr, cerr)
			}
			if cerr != nil {
				if tool.CodeOf(cerr) != tool.CodeValue {
					t.Fatalf("%s %s: want a 614, got %v", name, in, cerr)
				}
				out = cerr.Error()
			}
			argvs = append(argvs, strings.Join(argv, "\x00"))
			outs = append(outs, out)
		}
		if argvs[0] != argvs[1] || argvs[0] != argvs[2] {
			t.Errorf("%s: argv differs between forms: %q", in, argvs)
		}
		if outs[0] != outs[1] || outs[0] != outs[2] {
			t.Errorf("%s: result differs between forms:\n%s", in, strings.Join(outs, "\n---\n"))
		}
	}
}
