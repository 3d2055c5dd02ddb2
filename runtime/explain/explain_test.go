package explain_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/explain"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// touchSpec writes when run: explain must never create its file.
var touchSpec = tool.Spec{Name: "touch_file", Description: "create a file", Command: "touch {path}", Writes: true,
	Args: []tool.Arg{{Name: "path", Type: tool.Path, Description: "file", Required: true}}}

func TestExplainRunsNothing(t *testing.T) {
	k := kerneltest.New(t, nil)
	b, err := base.New(touchSpec, k)
	require.NoError(t, err)
	r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(`{"path":"made.txt"}`))
	require.NoError(t, r.Err, "unexpected rejection")
	assert.NoFileExists(t, filepath.Join(k.Workspace(), "made.txt"), "explain ran the command")
	want, _ := b.Argv(json.RawMessage(`{"path":"made.txt"}`))
	want[0], err = k.LookPath(want[0])
	require.NoError(t, err)
	require.Equal(t, want, r.Argv)
	var out bytes.Buffer
	require.NoError(t, r.Write(&out))
	for _, line := range []string{
		"template:    touch {path}",
		"workspace:   " + k.Workspace(),
		"[0] " + strconv.Quote(want[0]),
		`[1] "made.txt"`,
		"verdict:     would run (nothing was executed)",
	} {
		assert.Contains(t, out.String(), line)
	}
}

func TestExplainRejection(t *testing.T) {
	k := kerneltest.New(t, nil)
	b, err := base.New(touchSpec, k)
	require.NoError(t, err)
	for _, args := range []string{`{"path":"../escape"}`, `{"path":"a;b"}`, `{}`, `{"path":"x","more":1}`} {
		r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(args))
		_, callErr := b.Argv(json.RawMessage(args))
		require.Error(t, r.Err, args)
		assert.Equal(t, tool.CodeValue, tool.CodeOf(r.Err), args)
		assert.Equal(t, callErr.Error(), r.Err.Error(), args)
		assert.Nil(t, r.Argv, "%s: a rejected call has an argv", args)
		var out bytes.Buffer
		_ = r.Write(&out)
		assert.Contains(t, out.String(), "verdict:     rejected: error 614:", args)
	}
}

// TestExplainExecAgreesWithPlan: for the exec tool, the report is Plan's
// verdicts word by word, and a refused line names the defence.
func TestExplainExecAgreesWithPlan(t *testing.T) {
	k := kerneltest.New(t, nil)
	et, err := exec.New(k, []string{"ls", "git"})
	require.NoError(t, err)
	entry := tool.Entry{Tool: et, Form: tool.FormExec, Source: "exec"}
	for _, line := range []string{"ls -la", "git log --oneline -5", "ls | sh", "ls; id", "rm -rf .", "git -c core.pager=sh log", `ls "a b"`} {
		args, _ := json.Marshal(map[string]string{"command": line})
		r := explain.Call(entry, k, args)
		argv, verdicts, perr := et.Plan(line)
		require.Equal(t, perr == nil, r.Err == nil, "%q: plan err %v, explain err %v", line, perr, r.Err)
		assert.Equal(t, argv, r.Argv, line)
		assert.Len(t, r.Decisions, len(verdicts), line)
	}
	r := explain.Call(entry, k, json.RawMessage(`{"command":"ls","x":1}`))
	assert.Equal(t, tool.CodeValue, tool.CodeOf(r.Err), "unknown argument not refused: %v", r.Err)
}

// TestExplainShowsTheChildsWorld: the report shows the limits, the
// descendant control, the exact environment (HOME is the kernel's private
// directory, never the workspace) and, under confinement, the execute set
// (the program and its loader, nothing else); with confinement off, no
// execute set, the rest unchanged.
func TestExplainShowsTheChildsWorld(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.BestEffort, sandbox.Off} {
		k := kerneltest.New(t, nil, kernel.WithConfinement(mode), kernel.WithMemoryLimit(64<<20),
			kernel.WithCPULimit(5*time.Second), kernel.WithProcessLimit(9))
		b, err := base.New(touchSpec, k)
		require.NoError(t, err)
		r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(`{"path":"x"}`))
		require.NoError(t, r.Err)
		var out bytes.Buffer
		require.NoError(t, r.Write(&out))
		text := out.String()
		assert.Contains(t, text, "limits:      memory 64 MiB (address space per process), cpu 5s per process, 9 processes")
		assert.Contains(t, text, "descendants: "+kernel.DescendantControl())
		if runtime.GOOS == "linux" { // calls are forked from a small process of the kernel's own
			assert.Regexp(t, `(?m)^spawner:     a spawner process of toolgen's own \(its executable started again, pid [0-9]+`, text)
		}
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
		guarantee.Missing(t, "Landlock cannot enforce the policy here")
	}
	k := kerneltest.New(t, nil)
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

// TestExplainShowsPrivilegesSyscallsProtected: a confined call's report
// has the privileges:, syscalls: and protected: lines, from the kernel's
// guarantees, the protected list naming every protected name and what
// exists of it; with confinement off, no syscalls: or protected: line and
// the privileges line says root keeps its capabilities.
func TestExplainShowsPrivilegesSyscallsProtected(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("namespaces, capabilities and seccomp are Linux-only")
	}
	for _, mode := range []sandbox.Mode{sandbox.BestEffort, sandbox.Off} {
		k := kerneltest.New(t, nil, kernel.WithConfinement(mode))
		require.NoError(t, os.MkdirAll(filepath.Join(k.Workspace(), ".vscode"), 0o755))
		b, err := base.New(touchSpec, k)
		require.NoError(t, err)
		r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(`{"path":"x"}`))
		require.NoError(t, r.Err)
		var out bytes.Buffer
		require.NoError(t, r.Write(&out))
		text := out.String()
		g := k.WithAccess(kernel.Access{Write: true}).Guarantees(r.Argv[0])
		assert.Contains(t, text, "privileges:  "+g.Privileges+"\n")
		if abi, _ := sandbox.Available(); mode == sandbox.Off || abi == 0 {
			assert.NotContains(t, text, "syscalls:")
			assert.NotContains(t, text, "protected:")
			if os.Geteuid() == 0 {
				assert.Contains(t, text, "privileges:  as root, every capability")
			}
			continue
		}
		line, _ := sandbox.SeccompFilter()
		assert.Contains(t, text, "syscalls:    "+line+"\n")
		assert.Regexp(t, `protected: +read-only mounts: \.vscode; absent, created by a call: removed after it: .*\.envrc`, text)
		assert.Contains(t, text, "(names: "+strings.Join(sandbox.ProtectedNames(), " ")+")")
	}
}
