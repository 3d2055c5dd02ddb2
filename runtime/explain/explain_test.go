package explain_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/explain"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/tool"
)

func newKernel(t *testing.T) *kernel.Kernel {
	t.Helper()
	k, err := kernel.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// touchSpec writes when run: explain must never create its file.
var touchSpec = tool.Spec{Name: "touch_file", Description: "create a file", Command: "touch {path}", Writes: true,
	Args: []tool.Arg{{Name: "path", Type: tool.Path, Description: "file", Required: true}}}

func TestExplainRunsNothing(t *testing.T) {
	k := newKernel(t)
	b, err := base.New(touchSpec, k)
	if err != nil {
		t.Fatal(err)
	}
	r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(`{"path":"made.txt"}`))
	if r.Err != nil {
		t.Fatalf("unexpected rejection: %v", r.Err)
	}
	if _, err := os.Stat(filepath.Join(k.Workspace(), "made.txt")); !os.IsNotExist(err) {
		t.Fatalf("explain ran the command: %v", err)
	}
	want, _ := b.Argv(json.RawMessage(`{"path":"made.txt"}`))
	if want[0], err = k.LookPath(want[0]); err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Argv, "\x00") != strings.Join(want, "\x00") {
		t.Fatalf("argv %q, want %q", r.Argv, want)
	}
	var out bytes.Buffer
	if err := r.Write(&out); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"template:    touch {path}",
		"workspace:   " + k.Workspace(),
		"[0] " + strconv.Quote(want[0]),
		`[1] "made.txt"`,
		"verdict:     would run (nothing was executed)",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("report lacks %q:\n%s", line, out.String())
		}
	}
}

func TestExplainRejection(t *testing.T) {
	k := newKernel(t)
	b, err := base.New(touchSpec, k)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"path":"../escape"}`, `{"path":"a;b"}`, `{}`, `{"path":"x","more":1}`} {
		r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(args))
		_, callErr := b.Argv(json.RawMessage(args))
		if r.Err == nil || tool.CodeOf(r.Err) != tool.CodeValue || r.Err.Error() != callErr.Error() {
			t.Errorf("%s: explain err %v, call err %v", args, r.Err, callErr)
		}
		if r.Argv != nil {
			t.Errorf("%s: a rejected call has argv %q", args, r.Argv)
		}
		var out bytes.Buffer
		_ = r.Write(&out)
		if !strings.Contains(out.String(), "verdict:     rejected: error 614:") {
			t.Errorf("%s: report:\n%s", args, out.String())
		}
	}
}

// TestExplainExecAgreesWithPlan: for the exec tool, the report is Plan's
// verdicts word by word, and a refused line names the defence.
func TestExplainExecAgreesWithPlan(t *testing.T) {
	k := newKernel(t)
	et, err := exec.New(k, []string{"ls", "git"})
	if err != nil {
		t.Fatal(err)
	}
	entry := tool.Entry{Tool: et, Form: tool.FormExec, Source: "exec"}
	for _, line := range []string{"ls -la", "git log --oneline -5", "ls | sh", "ls; id", "rm -rf .", "git -c core.pager=sh log", `ls "a b"`} {
		args, _ := json.Marshal(map[string]string{"command": line})
		r := explain.Call(entry, k, args)
		argv, verdicts, perr := et.Plan(line)
		if (perr == nil) != (r.Err == nil) {
			t.Fatalf("%q: plan err %v, explain err %v", line, perr, r.Err)
		}
		if strings.Join(argv, "\x00") != strings.Join(r.Argv, "\x00") {
			t.Errorf("%q: argv %q, plan %q", line, r.Argv, argv)
		}
		if len(verdicts) != len(r.Decisions) {
			t.Errorf("%q: %d decisions, plan has %d verdicts", line, len(r.Decisions), len(verdicts))
		}
	}
	r := explain.Call(entry, k, json.RawMessage(`{"command":"ls","x":1}`))
	if tool.CodeOf(r.Err) != tool.CodeValue {
		t.Errorf("unknown argument not refused: %v", r.Err)
	}
}

// TestExplainShowsTheChildsWorld: the report shows the limits, the
// descendant control, the exact environment (HOME is the kernel's private
// directory, never the workspace) and, under confinement, the execute set
// (the program and its loader, nothing else); with confinement off, no
// execute set, the rest unchanged.
func TestExplainShowsTheChildsWorld(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.BestEffort, sandbox.Off} {
		k, err := kernel.New(t.TempDir(), kernel.WithConfinement(mode), kernel.WithMemoryLimit(64<<20),
			kernel.WithCPULimit(5*time.Second), kernel.WithProcessLimit(9))
		require.NoError(t, err)
		b, err := base.New(touchSpec, k)
		require.NoError(t, err)
		r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(`{"path":"x"}`))
		require.NoError(t, r.Err)
		var out bytes.Buffer
		require.NoError(t, r.Write(&out))
		text := out.String()
		assert.Contains(t, text, "limits:      memory 64 MiB (address space per process), cpu 5s per process, 9 processes")
		assert.Contains(t, text, "descendants: "+kernel.DescendantControl())
		assert.Contains(t, text, strconv.Quote("HOME="+k.Home()))
		assert.Contains(t, text, strconv.Quote("XDG_CONFIG_HOME="+k.Home()))
		assert.NotContains(t, text, "HOME="+k.Workspace()+`"`)
		assert.Equal(t, k.WithAccess(kernel.Access{Write: true}).ChildEnv(r.Argv), r.Env)
		abi, _ := sandbox.Available()
		if mode == sandbox.Off || abi == 0 {
			assert.Nil(t, r.Exec, mode.String())
			continue
		}
		require.NotEmpty(t, r.Exec)
		assert.Equal(t, r.Argv[0], r.Exec[0], "the program comes first")
		assert.Equal(t, k.ExecSet(r.Argv[0]), r.Exec)
		assert.Contains(t, text, "execute:\n  "+r.Argv[0]+"\n")
		for _, e := range r.Exec {
			assert.NotRegexp(t, `/(ba|da|z|)sh$|python|perl`, e, "a shell or interpreter in the execute set")
		}
	}
}

// TestExplainExecSetHasTheTemplatesPrograms: the program a template's
// find -exec runs is in the execute set explain shows, as in the run.
func TestExplainExecSetHasTheTemplatesPrograms(t *testing.T) {
	if abi, _ := sandbox.Available(); abi == 0 {
		t.Skip("Landlock cannot enforce the policy here")
	}
	k := newKernel(t)
	b, err := base.New(tool.Spec{Name: "files_containing", Description: "d",
		Command: "find . -name {name} -exec grep -l {pattern} {} +",
		Args: []tool.Arg{
			{Name: "name", Type: tool.String, Description: "n", Required: true},
			{Name: "pattern", Type: tool.String, Description: "p", Required: true},
		}}, k)
	require.NoError(t, err)
	r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(`{"name":"*.go","pattern":"x"}`))
	require.NoError(t, r.Err)
	grep, err := k.LookPath("grep")
	require.NoError(t, err)
	assert.Equal(t, k.ExecSet(r.Argv[0], grep), r.Exec)
	assert.Contains(t, r.Exec, grep)
}
