package exec

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var _ tool.Tool = (*Tool)(nil)

// gitWorkspace returns a workspace holding a git repository with two
// commits, a.txt, "file with spaces.txt" and sub/b.txt.
func gitWorkspace(t *testing.T) string {
	t.Helper()
	guarantee.Program(t, "git")
	ws := t.TempDir()
	writeFile(t, ws, "a.txt", "alpha\nfoo bar\nbeta\n", 0o644)
	writeFile(t, ws, "file with spaces.txt", "spaced out\n", 0o644)
	writeFile(t, ws, "sub/b.txt", "another foo\n", 0o644)
	git := func(args ...string) {
		t.Helper()
		cmd := osexec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com",
			"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = ws
		cmd.Env = []string{"HOME=" + ws, "PATH=/usr/local/bin:/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "a.txt")
	git("commit", "-q", "-m", "first")
	git("add", ".")
	git("commit", "-q", "-m", "second commit")
	return ws
}

func realTool(t *testing.T, ws string, allow ...string) *Tool {
	t.Helper()
	k, err := kernel.New(ws)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := New(k, allow)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func call(t *testing.T, tl *Tool, command string) (string, error) {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"command": command})
	return tl.Call(context.Background(), args)
}

// TestOrdinaryCommandsRun runs the exploratory commands for real in a git
// workspace.
func TestOrdinaryCommandsRun(t *testing.T) {
	ws := gitWorkspace(t)
	tl := realTool(t, ws, "ls", "git", "grep", "wc", "cat", "sed", "find", "head")
	for _, tc := range []struct {
		command string
		want    []string
	}{
		{"ls -la", []string{"exit: 0", "a.txt", "file with spaces.txt", ".git"}},
		{"git status", []string{"exit: 0", "On branch main", "nothing to commit"}},
		{"git log --oneline -5", []string{"exit: 0", "second commit", "first"}},
		{"grep -rn foo .", []string{"exit: 0", "./a.txt:2:foo bar", "./sub/b.txt:1:another foo"}},
		{"wc -l a.txt", []string{"exit: 0", "3 a.txt"}},
		{`cat "file with spaces.txt"`, []string{"exit: 0", "spaced out"}},
		{"sed -n 2p a.txt", []string{"exit: 0", "output: foo bar"}},
		{"find . -name '*.txt' -not -path './.git/*'", []string{"exit: 0", "./sub/b.txt", "./file with spaces.txt"}},
		{"head -n 1 a.txt", []string{"output: alpha"}},
		{"git log --format='%s|%an' -1", []string{"second commit|T"}},
		{"grep -c nothing-here a.txt", []string{"exit: 1", "output: 0"}},
		{"git show --stat HEAD", []string{"exit: 0", "sub/b.txt"}},
	} {
		text, err := call(t, tl, tc.command)
		if err != nil {
			t.Errorf("Call(%q) = %v", tc.command, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("Call(%q) = %q, want it to contain %q", tc.command, text, w)
			}
		}
	}
}

// TestCallRefusesWithoutRunning: a refused command returns the 614 and
// nothing runs.
func TestCallRefusesWithoutRunning(t *testing.T) {
	ws := t.TempDir()
	tl := realTool(t, ws, "ls", "touch")
	for _, command := range []string{"touch x; touch y", "touch /tmp/toolgen-exec-test-x", "ls > z", "touch $(ls)", "rm -rf ."} {
		text, err := call(t, tl, command)
		if text != "" || tool.CodeOf(err) != tool.CodeValue {
			t.Errorf("Call(%q) = %q, %v; want a 614 and no output", command, text, err)
		}
		if !strings.HasPrefix(err.Error(), `error 614: slot "command": defence `) {
			t.Errorf("Call(%q) error %q does not name the defence", command, err)
		}
	}
	entries, _ := os.ReadDir(ws)
	if len(entries) != 0 {
		t.Errorf("refused commands left files: %v", entries)
	}
	if _, err := os.Stat("/tmp/toolgen-exec-test-x"); err == nil {
		t.Error("a refused command wrote outside the workspace")
	}
}

func TestCallArguments(t *testing.T) {
	tl := realTool(t, t.TempDir(), "ls")
	for _, tc := range []struct {
		args string
		want string
	}{
		{``, `slot "command": required argument is missing`},
		{`null`, `slot "command": required argument is missing`},
		{`{}`, `slot "command": required argument is missing`},
		{`{"command": null}`, `slot "command": required argument is missing`},
		{`{"command": 5}`, `slot "command": want a JSON string, got a number`},
		{`{"command": ["ls"]}`, `slot "command": want a JSON string, got an array`},
		{`{"command": "ls", "command": "rm -rf ."}`, `slot "command": argument given twice`},
		{`{"command": "ls", "\u0063ommand": "id"}`, `slot "command": argument given twice`},
		{`{"command": "ls"`, `not valid JSON`},
		{`{"command": "ls", "cwd": "/"}`, `slot "cwd": unknown argument; this tool takes: command`},
		{`["ls"]`, `must be a JSON object`},
		{`{"command": "ls"` + strings.Repeat(" ", base.MaxArgsBytes) + `}`, `the limit is`},
		{`{"command": ""}`, `defence 3 (operators): the command is empty`},
	} {
		text, err := tl.Call(context.Background(), json.RawMessage(tc.args))
		if err == nil || tool.CodeOf(err) != tool.CodeValue || !strings.Contains(err.Error(), tc.want) || text != "" {
			t.Errorf("Call(%.40s) = %q, %v; want a 614 containing %q", tc.args, text, err, tc.want)
		}
	}
	if text, err := tl.Call(context.Background(), json.RawMessage(`{"command":"ls"}`)); err != nil || !strings.HasPrefix(text, "exit: 0") {
		t.Errorf("Call(ls) = %q, %v", text, err)
	}
}

// TestCallConcurrent: one tool, many calls at once (run with -race).
func TestCallConcurrent(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "a.txt", "x\n", 0o644)
	tl := realTool(t, ws, "cat", "ls")
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			command := "cat a.txt"
			if i%2 == 1 {
				command = "cat a.txt; ls"
			}
			text, err := call(t, tl, command)
			if i%2 == 0 && (err != nil || text != "exit: 0\noutput: x\n") {
				t.Errorf("Call(%q) = %q, %v", command, text, err)
			}
			if i%2 == 1 && tool.CodeOf(err) != tool.CodeValue {
				t.Errorf("Call(%q) = %v, want a 614", command, err)
			}
		}()
	}
	wg.Wait()
}

// TestCallCancelled: a cancelled context ends the call with an error that
// is not a 614.
func TestCallCancelled(t *testing.T) {
	tl := realTool(t, t.TempDir(), "sleep")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tl.Call(ctx, json.RawMessage(`{"command":"sleep 5"}`))
	if err == nil || tool.CodeOf(err) != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("Call with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestNewRefusesGrants(t *testing.T) {
	e := newStubEnv(t)
	stub(t, e.bin, "rm")
	stub(t, e.bin, "bash")
	stub(t, e.bin, "less")
	stub(t, e.bin, "nodejs")
	if err := symlink(e.bin+"/nodejs", e.bin+"/js"); err != nil {
		t.Fatal(err)
	}
	if err := symlink(e.bin+"/less", e.bin+"/pager"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		allow []string
		opts  []Option
		want  string
	}{
		{nil, nil, "no binary granted"},
		{[]string{}, nil, "no binary granted"},
		{[]string{""}, nil, "the name is empty"},
		{[]string{"/bin/ls"}, nil, "not a path"},
		{[]string{"./ls"}, nil, "not a path"},
		{[]string{`bin\ls`}, nil, "not a path"},
		{[]string{".."}, nil, "not a command name"},
		{[]string{"-la"}, nil, "dash"},
		{[]string{"l s"}, nil, "white space"},
		{[]string{"ls;id"}, nil, "SEMICOLON"},
		{[]string{"rm"}, nil, `the deny list denies it (entry "rm")`},
		{[]string{"ls", "bash"}, nil, `entry "bash"`},
		{[]string{"python3"}, nil, `entry "python*"`},
		{[]string{"RM"}, nil, `entry "rm"`},
		{[]string{"ls"}, []Option{WithDenyList(programs.DefaultDenyList().With("ls"))}, `entry "ls"`},
		{[]string{"js"}, nil, `which the deny list denies (entry "nodejs")`},
		{[]string{"less"}, nil, "defence 4 refuses it whatever its arguments"},
		{[]string{"pager"}, nil, "which defence 4 refuses whatever its arguments"},
	} {
		_, err := New(e.k, tc.allow, tc.opts...)
		var te *tool.Error
		if !errors.As(err, &te) || te.Code != tool.CodeSpec || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q) = %v, want a 613 containing %q", tc.allow, err, tc.want)
		}
	}
	// Several problems are all reported.
	_, err := New(e.k, []string{"rm", "bash", "ls"})
	if err == nil || !strings.Contains(err.Error(), `"rm"`) || !strings.Contains(err.Error(), `"bash"`) || tool.CodeOf(err) != tool.CodeSpec {
		t.Errorf("New(rm, bash, ls) = %v, want both reported as 613", err)
	}
	// Narrowing the deny list explicitly grants a denied binary.
	if _, err := New(e.k, []string{"rm"}, WithDenyList(programs.DefaultDenyList().Without("rm"))); err != nil {
		t.Errorf("New(rm) with rm taken off the deny list = %v", err)
	}
	if _, err := New(nil, []string{"ls"}); err == nil {
		t.Error("New(nil kernel) succeeded")
	}
	// A granted binary that is not installed is no construction error.
	if _, err := New(e.k, []string{"not-installed"}); err != nil {
		t.Errorf("New(not-installed) = %v", err)
	}
}

// TestDenyListEveryCall: defence 2 runs on every call, whatever was
// granted, and also judges the file the name resolves to at call time.
func TestDenyListEveryCall(t *testing.T) {
	e := newStubEnv(t)
	stub(t, e.bin, "rm")
	stub(t, e.bin, "sh")
	tl := e.tool(t)
	forced := *tl
	forced.allow = append([]string{"rm", "sh"}, tl.allow...)
	for _, line := range []string{"rm -rf .", "sh -c id"} {
		_, _, err := forced.Plan(line)
		if by := refusedBy(t, err); by != DefenceDenyList || !strings.Contains(err.Error(), "is on the deny list") {
			t.Errorf("Plan(%q) = %v, want defence 3", line, err)
		}
	}
	// "tree" is swapped for a link to sh after New.
	tree := filepath.Join(e.bin, "tree")
	if err := os.Remove(tree); err != nil {
		t.Fatal(err)
	}
	if err := symlink(filepath.Join(e.bin, "sh"), tree); err != nil {
		t.Fatal(err)
	}
	_, _, err := tl.Plan("tree -L 1")
	if by := refusedBy(t, err); by != DefenceDenyList || !strings.Contains(err.Error(), `resolves to "sh"`) {
		t.Errorf("Plan(tree) after relinking = %v, want defence 3", err)
	}
}

func TestGrantedButMissing(t *testing.T) {
	e := newStubEnv(t)
	tl, err := New(e.k, []string{"ls", "not-installed"})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tl.Plan("not-installed -x")
	if by := refusedBy(t, err); by != DefenceAllowlist || !strings.Contains(err.Error(), "cannot be run") {
		t.Errorf("Plan(not-installed) = %v, want defence 2", err)
	}
}

// TestMultiCallBinary: a granted name that links to busybox is judged by
// its own name.
func TestMultiCallBinary(t *testing.T) {
	e := newStubEnv(t)
	stub(t, e.bin, "busybox")
	if err := os.Remove(filepath.Join(e.bin, "wc")); err != nil {
		t.Fatal(err)
	}
	if err := symlink(filepath.Join(e.bin, "busybox"), filepath.Join(e.bin, "wc")); err != nil {
		t.Fatal(err)
	}
	tl, err := New(e.k, []string{"wc"})
	if err != nil {
		t.Fatalf("New(wc -> busybox) = %v", err)
	}
	if argv, _, err := tl.Plan("wc -l a.txt"); err != nil || argv[0] != filepath.Join(e.bin, "wc") {
		t.Errorf("Plan(wc) = %q, %v", argv, err)
	}
}

func TestToolSurface(t *testing.T) {
	e := newStubEnv(t)
	tl, err := New(e.k, []string{"ls", "git", "ls"})
	if err != nil {
		t.Fatal(err)
	}
	if tl.Name() != "exec" {
		t.Errorf("Name = %q", tl.Name())
	}
	if got := tl.Allowed(); strings.Join(got, ",") != "git,ls" {
		t.Errorf("Allowed = %q", got)
	}
	if d := tl.Description(); !strings.Contains(d, "git, ls") || !strings.Contains(d, "2048 bytes") {
		t.Errorf("Description = %q", d)
	}
	var schema struct {
		Type       string `json:"type"`
		Properties map[string]struct {
			Type        string `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
		Required             []string `json:"required"`
		AdditionalProperties bool     `json:"additionalProperties"`
	}
	if err := json.Unmarshal(tl.InputSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" || schema.Properties["command"].Type != "string" || len(schema.Properties) != 1 ||
		strings.Join(schema.Required, ",") != "command" || schema.AdditionalProperties {
		t.Errorf("InputSchema = %s", tl.InputSchema())
	}
	if tl.Kernel() != e.k {
		t.Error("Kernel is not the kernel given")
	}
}

// TestPlanVerdicts: every defence says what it decided, word by word.
func TestPlanVerdicts(t *testing.T) {
	e := newStubEnv(t)
	tl := e.tool(t)
	argv, verdicts, err := tl.Plan(`sed -n "2p" a.txt`)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, v := range verdicts {
		lines = append(lines, v.String())
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		`defence 3 (operators): word 0 "sed": ok: literal word (plain)`,
		`defence 3 (operators): word 2 "2p": ok: literal word (quoted as "2p")`,
		`defence 1 (allowlist): word 0 "sed": ok: granted; runs ` + argv[0],
		`defence 2 (deny list): word 0 "sed": ok: not on the deny list`,
		`defence 4 (flags): word 1 "-n": ok: option -n: not refused`,
		`defence 4 (flags): word 2 "2p": ok: operand: not refused`,
		`defence 5 (workspace): word 3 "a.txt": ok: names no place outside the workspace`,
		`defence 5 (workspace): ok: runs in the workspace with a 30s timeout`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("verdicts lack %q:\n%s", want, got)
		}
	}
	_, verdicts, _ = tl.Plan("cat /etc/passwd")
	last := verdicts[len(verdicts)-1]
	if last.OK || last.Defence != DefenceWorkspace || last.Word != 1 || last.Arg != "/etc/passwd" {
		t.Errorf("last verdict = %+v", last)
	}
	if Defence(9).String() != "defence(9)" {
		t.Errorf("Defence(9) = %q", Defence(9))
	}
}

// TestBareKernelGetsPrograms: a tool built on a bare kernel.New (no
// preset) still runs each program with its configuration forced safe: New
// gives the kernel package programs' hook when it has none.
func TestBareKernelGetsPrograms(t *testing.T) {
	ws := gitWorkspace(t)
	tl := realTool(t, ws, "git")
	if tl.Kernel().Programs() == nil {
		t.Fatal("the tool's kernel has no Programs hook")
	}
	git, err := tl.Kernel().LookPath("git")
	if err != nil {
		guarantee.Missing(t, "git is not installed: %v", err)
	}
	env := strings.Join(tl.Kernel().ChildEnv([]string{git, "status"}), "\n")
	for _, want := range []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat"} {
		if !strings.Contains(env, want) {
			t.Errorf("the child environment of git lacks %s", want)
		}
	}
}
