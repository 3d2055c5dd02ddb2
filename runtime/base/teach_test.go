package base_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var update = flag.Bool("update", false, "rewrite testdata/teach.golden from the current 614 messages")

// teachSpec has one slot of each kind, to show every teaching message.
var teachSpec = tool.Spec{
	Name: "teach", Description: "d", Command: "grep -n --max-count={count} {pattern} {path} --mode={mode}",
	Args: []tool.Arg{
		{Name: "count", Type: tool.Integer, Description: "c", Default: "5", HasDefault: true},
		{Name: "pattern", Type: tool.String, Description: "p", Required: true},
		{Name: "path", Type: tool.Path, Description: "p", Default: ".", HasDefault: true},
		{Name: "mode", Type: tool.String, Description: "m", Enum: []string{"fast", "slow"}},
	},
}

// TestTeachingMessages pins the exact 614 texts the model sees: each says
// what is wrong and what would be accepted. Run with -update to rewrite.
func TestTeachingMessages(t *testing.T) {
	b, err := base.New(teachSpec, workspace(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	calls := []string{
		`{"pattern":"-n"}`,
		`{"pattern":"--help"}`,
		`{"pattern":"x","path":"-rf"}`,
		`{"pattern":"two words"}`,
		`{"pattern":"a\u00a0b"}`,
		`{"pattern":"a；b"}`,
		`{"pattern":"a\u200bb"}`,
		`{"pattern":"x","mode":"medium"}`,
		`{"pattern":"x","count":"5"}`,
		`{"pattern":"x","count":-1}`,
		`{"pattern":"x","path":"/etc"}`,
		`{"pattern":"x","path":"../up"}`,
		`{}`,
		`{"pattern":"x","colour":"red"}`,
		`{"pattern":["x"]}`,
	}
	var got strings.Builder
	for _, c := range calls {
		_, err := b.Argv(json.RawMessage(c))
		if tool.CodeOf(err) != tool.CodeValue {
			t.Fatalf("%s: want a 614, got %v", c, err)
		}
		got.WriteString(c + "\n\t" + err.Error() + "\n")
	}
	golden := filepath.Join("testdata", "teach.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("614 messages changed (go test -update rewrites %s):\n--- want\n%s\n--- got\n%s", golden, want, got.String())
	}
}
