package base_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// workspace returns a kernel on a fresh temp workspace holding files.
func workspace(t testing.TB, files map[string]string) *kernel.Kernel {
	t.Helper()
	return kerneltest.New(t, files)
}

var listSpec = tool.Spec{
	Name:        "list_opts",
	Description: "exercise every slot kind",
	Command:     "echo -n {mode} --count={count} {ratio} {path} x{suffix}y",
	Args: []tool.Arg{
		{Name: "mode", Type: tool.String, Description: "mode", Enum: []string{"fast", "slow"}, Default: "fast", HasDefault: true},
		{Name: "count", Type: tool.Integer, Description: "count", Required: true},
		{Name: "ratio", Type: tool.Number, Description: "ratio"},
		{Name: "path", Type: tool.Path, Description: "path", Default: ".", HasDefault: true},
		{Name: "suffix", Type: tool.String, Description: "suffix", Pattern: `[a-z]+`},
	},
}

func TestArgvAssembly(t *testing.T) {
	k := workspace(t, map[string]string{"sub/a.txt": "x"})
	b, err := base.New(listSpec, k)
	require.NoError(t, err)
	tests := []struct {
		args string
		want []string
	}{
		{`{"count":3}`, []string{"echo", "-n", "fast", "--count=3", "."}},
		{`{"count":3,"mode":"slow","ratio":2.5,"path":"sub/a.txt","suffix":"abc"}`,
			[]string{"echo", "-n", "slow", "--count=3", "2.5", "sub/a.txt", "xabcy"}},
		{`{"count":0,"ratio":null,"suffix":null}`, []string{"echo", "-n", "fast", "--count=0", "."}},
		{`{"count":1,"path":"sub/../sub/./a.txt"}`, []string{"echo", "-n", "fast", "--count=1", "sub/../sub/./a.txt"}}, // the value as written: what runs is what was checked,
		{`{"count":1,"path":"./-rf"}`, []string{"echo", "-n", "fast", "--count=1", "./-rf"}},
	}
	for _, tc := range tests {
		got, err := b.Argv(json.RawMessage(tc.args))
		require.NoError(t, err, tc.args)
		assert.Equal(t, tc.want, got, tc.args)
	}
}

func TestArgvRejections(t *testing.T) {
	k := workspace(t, nil)
	b, err := base.New(listSpec, k)
	require.NoError(t, err)
	tests := []struct {
		args, slot, msg string
	}{
		{`{}`, "count", "required argument is missing"},
		{`{"count":"3"}`, "count", "want a JSON number"},
		{`{"count":-1}`, "count", "not a non-negative integer"},
		{`{"count":1e3}`, "count", "not a non-negative integer"},
		{`{"count":1.5}`, "count", "not a non-negative integer"},
		{`{"count":1,"ratio":"1"}`, "ratio", "want a JSON number"},
		{`{"count":1,"mode":"medium"}`, "mode", `allowed values: "fast", "slow"`},
		{`{"count":1,"mode":5}`, "mode", "want a JSON string"},
		{`{"count":1,"mode":["fast"]}`, "mode", "got an array"},
		{`{"count":1,"path":{"a":1}}`, "path", "got an object"},
		{`{"count":1,"path":true}`, "path", "got a boolean"},
		{`{"count":1,"suffix":"ABC"}`, "suffix", "does not match the required pattern"},
		{`{"count":1,"extra":1}`, "extra", "unknown argument; this tool takes: mode, count, ratio, path, suffix"},
		{`{"count":1,"path":"/etc"}`, "path", "is absolute"},
		{`{"count":1,"path":"../x"}`, "path", "climbs out of the workspace"},
		{`{"count":1,"path":"-rf"}`, "path", `write "./-rf"`},
		{`{"count":1,"suffix":"a\u0000"}`, "suffix", "U+0000 NULL"},
		{`{"count":1,"path":"../x","path":"a.txt"}`, "path", "argument given twice"},
		{`{"count":1,"count":2}`, "count", "argument given twice"},
		{`[1,2]`, "", "must be a JSON object"},
		{`"x"`, "", "must be a JSON object"},
	}
	for _, tc := range tests {
		_, err := b.Argv(json.RawMessage(tc.args))
		var te *tool.Error
		require.True(t, errors.As(err, &te), "%s: want a *tool.Error, got %v", tc.args, err)
		assert.Equal(t, tool.CodeValue, te.Code, tc.args)
		assert.Equal(t, tc.slot, te.Slot, tc.args)
		assert.Contains(t, te.Error(), tc.msg, tc.args)
	}
}

func TestArgsTooLarge(t *testing.T) {
	b, err := base.New(listSpec, workspace(t, nil))
	require.NoError(t, err)
	big := `{"count":1,"suffix":"` + strings.Repeat("a", base.MaxArgsBytes) + `"}`
	_, err = b.Argv(json.RawMessage(big))
	assert.Equal(t, tool.CodeValue, tool.CodeOf(err))
	assert.Contains(t, err.Error(), "the limit is")
}

func TestOptionalSlotDropsWholeWord(t *testing.T) {
	spec := tool.Spec{Name: "opt", Description: "d", Command: "ls --color=never --sort={key} {dir}",
		Args: []tool.Arg{
			{Name: "key", Type: tool.String, Description: "sort key", Enum: []string{"size", "time"}},
			{Name: "dir", Type: tool.Path, Description: "dir"},
		}}
	b, err := base.New(spec, workspace(t, nil))
	require.NoError(t, err)
	got, err := b.Argv(nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"ls", "--color=never"}, got)
	got, err = b.Argv(json.RawMessage(`{"key":"size","dir":"."}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"ls", "--color=never", "--sort=size", "."}, got)
}

func TestTeachesWhenOptionIsInTemplate(t *testing.T) {
	spec := tool.Spec{Name: "g", Description: "d", Command: "grep -n {pattern} {path}",
		Args: []tool.Arg{
			{Name: "pattern", Type: tool.String, Description: "p", Required: true},
			{Name: "path", Type: tool.Path, Description: "p", Default: ".", HasDefault: true},
		}}
	b, err := base.New(spec, workspace(t, nil))
	require.NoError(t, err)
	_, err = b.Argv(json.RawMessage(`{"pattern":"-n"}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the template already passes -n")
}

func TestSymlinkEscapeRejected(t *testing.T) {
	k := workspace(t, map[string]string{"in.txt": "secret-free"})
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("TOPSECRET"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(k.Workspace(), "link")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(k.Workspace(), "s")))
	b, err := base.New(tool.Spec{Name: "cat_file", Description: "d", Command: "cat {path}",
		Args: []tool.Arg{{Name: "path", Type: tool.Path, Description: "p", Required: true}}}, k)
	require.NoError(t, err)
	for _, p := range []string{"link/secret", "s", "link", "link/../link/secret"} {
		out, err := b.Call(context.Background(), json.RawMessage(`{"path":"`+p+`"}`))
		assert.Equal(t, tool.CodeValue, tool.CodeOf(err), p)
		assert.NotContains(t, out, "TOPSECRET", p)
	}
	out, err := b.Call(context.Background(), json.RawMessage(`{"path":"in.txt"}`))
	require.NoError(t, err)
	assert.Equal(t, "exit: 0\noutput: secret-free", strings.TrimRight(out, "\n"))
}

func TestConstructionRejectsBadSpec(t *testing.T) {
	k := workspace(t, nil)
	for _, spec := range []tool.Spec{
		{Name: "x", Description: "d", Command: "rm -rf {p}", Args: []tool.Arg{{Name: "p", Type: tool.Path, Description: "p"}}},
		{Name: "x", Description: "d", Command: "ls ; id"},
		{Name: "x", Description: "d", Command: "ls {undeclared}"},
		{Name: "Bad", Description: "d", Command: "ls"},
		{Name: "x", Command: "ls"},
	} {
		_, err := base.New(spec, k)
		assert.Equal(t, tool.CodeSpec, tool.CodeOf(err), spec.Command)
	}
	_, err := base.New(tool.Spec{Name: "x", Description: "d", Command: "ls"}, nil)
	assert.Error(t, err)
}

func TestNarrowedDenyListAllowsBinary(t *testing.T) {
	k := workspace(t, nil)
	spec := tool.Spec{Name: "print_env", Description: "d", Command: "env"}
	_, err := base.New(spec, k)
	require.Equal(t, tool.CodeSpec, tool.CodeOf(err))
	b, err := base.New(spec, k, base.WithDenyList(programs.DefaultDenyList().Without("env")))
	require.NoError(t, err)
	out, err := b.Call(context.Background(), nil)
	require.NoError(t, err)
	assert.Contains(t, out, "HOME="+k.Home()+"\n")
}

func TestSpecIsCopied(t *testing.T) {
	spec := tool.Spec{Name: "copy", Description: "d", Command: "echo {mode} {count}", Args: []tool.Arg{
		{Name: "mode", Type: tool.String, Description: "m", Enum: []string{"fast", "slow"}},
		{Name: "count", Type: tool.Integer, Description: "c"},
	}}
	b, err := base.New(spec, workspace(t, nil))
	require.NoError(t, err)
	spec.Args[0].Enum[0] = "mutated"
	got := b.Spec()
	got.Args[1].Name = "mutated"
	assert.Equal(t, "fast", b.Spec().Args[0].Enum[0])
	assert.Equal(t, "count", b.Spec().Args[1].Name)
}

func TestCallRunsAndReportsNotFound(t *testing.T) {
	k := workspace(t, nil)
	b, err := base.New(tool.Spec{Name: "missing", Description: "d", Command: "no-such-binary-xyz"}, k)
	require.NoError(t, err)
	out, err := b.Call(context.Background(), nil)
	require.Error(t, err)
	assert.True(t, errors.Is(err, kernel.ErrNotFound), "%v", err)
	assert.Contains(t, out, "exit: 127")
}

// TestBareKernelGetsPrograms: a tool built on a bare kernel.New (no
// preset) runs git with its configuration forced safe all the same: New
// gives the kernel package programs' hook when it has none.
func TestBareKernelGetsPrograms(t *testing.T) {
	k := workspace(t, nil)
	require.Nil(t, k.Programs())
	b, err := base.New(tool.Spec{Name: "git_log", Description: "log", Command: "git log --oneline"}, k)
	if err != nil {
		guarantee.Missing(t, "git: %v", err)
	}
	require.NotNil(t, b.Kernel().Programs())
	git, err := k.LookPath("git")
	require.NoError(t, err)
	env := strings.Join(b.Kernel().ChildEnv([]string{git, "log"}), "\n")
	assert.Contains(t, env, "GIT_CONFIG_GLOBAL=/dev/null")
	assert.Contains(t, env, "GIT_PAGER=cat")
}
