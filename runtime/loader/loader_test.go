package loader_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/loader"
	"github.com/nanogpt/toolgen/runtime/tool"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func write(t testing.TB, dir, name, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
}

// desc returns a valid descriptor of a tool named name.
func desc(name, description string) string {
	return fmt.Sprintf(`{
  "name": %q,
  "description": %q,
  "command": "grep -rn {pattern} {path}",
  "arguments": {
    "pattern": {"type": "string", "description": "Pattern to search", "required": true},
    "path": {"type": "path", "description": "Where to search", "default": "."}
  }
}
`, name, description)
}

func newLoader(t testing.TB, dir string, opts ...loader.Option) *loader.Loader {
	t.Helper()
	l, err := loader.New(dir, kerneltest.New(t, nil), opts...)
	require.NoError(t, err)
	return l
}

// render prints a load's outcome: the tools (name, file, description), then
// every problem line.
func render(tools []loader.Loaded, problems []error) string {
	var b strings.Builder
	for _, l := range tools {
		fmt.Fprintf(&b, "tool %s from %s: %s\n", l.Tool.Name(), l.File, l.Tool.Description())
	}
	for _, p := range problems {
		for _, e := range tool.Flatten(p) {
			fmt.Fprintln(&b, e.Error())
		}
	}
	return b.String()
}

func names(tools []loader.Loaded) []string {
	var out []string
	for _, l := range tools {
		out = append(out, l.Tool.Name())
	}
	return out
}

func TestNew(t *testing.T) {
	k := kerneltest.New(t, nil)
	dir := filepath.Join(t.TempDir(), "a", "tools")
	_, err := loader.New(dir, k)
	require.NoError(t, err)
	assert.DirExists(t, dir, "New creates the directory")
	missing := filepath.Join(t.TempDir(), "missing")
	_, err = loader.New(missing, k, loader.WithoutCreate())
	assert.Error(t, err, "WithoutCreate: a missing directory was accepted")
	assert.NoDirExists(t, missing, "WithoutCreate created the directory")
	file := filepath.Join(t.TempDir(), "f")
	write(t, filepath.Dir(file), "f", "x")
	_, err = loader.New(file, k)
	assert.ErrorContains(t, err, "not a directory")
	_, err = loader.New(dir, nil)
	assert.Error(t, err, "nil kernel accepted")
}

// TestLoadAllMixed pins the outcome of a directory holding good files,
// broken ones, a name conflict and files that are not descriptors.
func TestLoadAllMixed(t *testing.T) {
	l := newLoader(t, filepath.Join("testdata", "mixed"))
	got := render(l.LoadAll())
	golden := filepath.Join("testdata", "mixed.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got, "LoadAll(testdata/mixed) against %s", golden)
}

// TestFiftyWithThreeBroken is the example: 50 files, 3 broken, 47
// load.
func TestFiftyWithThreeBroken(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		content := desc(fmt.Sprintf("tool_%02d", i), "Tool")
		switch i {
		case 7:
			content = content[:len(content)/2]
		case 23:
			content = strings.Replace(content, "grep", "rm", 1)
		case 41:
			content = strings.Replace(content, `"path"`, `"paht"`, 1)
		}
		write(t, dir, fmt.Sprintf("t%02d.tool.json", i), content)
	}
	tools, problems := newLoader(t, dir).LoadAll()
	require.Len(t, tools, 47, render(nil, problems))
	require.Len(t, problems, 3, render(nil, problems))
	for i, want := range []string{"t07.tool.json:", "t23.tool.json:4:3: error 613: binary", "t41.tool.json:"} {
		assert.True(t, strings.HasPrefix(problems[i].Error(), filepath.Join(dir, want)), "problem %d = %s, want it to start %s", i, problems[i], want)
		assert.Equal(t, tool.CodeSpec, tool.CodeOf(problems[i]), "problem %d", i)
	}
}

// TestAttacks puts every hostile file of the issue in one directory with two
// good ones: each gives exactly one precise 613 and the good ones load.
func TestAttacks(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "good-a.tool.json", desc("good_a", "Good"))
	write(t, dir, "good-b.tool.json", desc("good_b", "Good"))
	bigFile := filepath.Join(dir, "huge.tool.json")
	f, err := os.Create(bigFile)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(100<<20)) // sparse: 100 MB on paper
	f.Close()
	deep := `{"name": "deep", "description": "d", "command": "ls", "examples": [{"args": {"a": ` +
		strings.Repeat("[", 200000) + strings.Repeat("]", 200000) + `}, "argv": ["ls"]}]}`
	withCommand := func(name, command string) string {
		return fmt.Sprintf(`{"name": %q, "description": "d", "command": %q, "arguments": {"path": {"type": "path", "description": "p", "default": "."}}}`, name, command)
	}
	cases := []struct{ file, content, want string }{
		{"empty", "", "F: error 613: file is empty: a descriptor is a JSON object with name, description and command"},
		{"null", "null", "F:1:1: error 613: a descriptor must be a JSON object, found null"},
		{"array", `[{"name": "x"}]`, "F:1:1: error 613: a descriptor must be a JSON object, found an array"},
		{"bom", "\xef\xbb\xbf" + desc("bom", "d"), "F:1:1: error 613: file starts with a UTF-8 byte order mark; save it as UTF-8 without BOM"},
		{"utf8", "{\"name\": \"\xff\"}", "F:1:11: error 613: file is not valid UTF-8"},
		{"nul", "{\"name\": \"a\x00\"}", "F:1:12: error 613: file holds a NUL byte; a descriptor is UTF-8 text"},
		{"huge", "", "F: error 613: file is 104857600 bytes, larger than the limit of 1048576 bytes (1 MiB); a descriptor is a small JSON file"},
		{"deep", deep, "F:1:10079: error 613: invalid JSON: invalid character '[' exceeded max depth"},
		{"dupkey", `{"name": "a", "name": "b", "description": "d", "command": "ls"}`, `F:1:15: error 613: duplicate key "name" in a descriptor`},
		{"semicolon", withCommand("semi", "ls {path};id"), `F:1:38: error 613: template: character ';' (U+003B SEMICOLON) at byte offset 9 is not allowed: shell operator and quote characters (' " ` + "`" + ` ; | & $ < >) are rejected`},
		{"subst", withCommand("subst", "ls $(id) {path}"), `F:1:39: error 613: template: character '$' (U+0024 DOLLAR SIGN) at byte offset 3 is not allowed: shell operator and quote characters (' " ` + "`" + ` ; | & $ < >) are rejected`},
		{"rm", withCommand("rm1", "rm {path}"), `F:1:37: error 613: binary "rm" is on the deny list (entry "rm")`},
		{"binrm", withCommand("rm2", "/bin/rm {path}"), `F:1:37: error 613: binary "/bin/rm" is on the deny list (entry "rm")`},
		{"upperrm", withCommand("rm3", "RM {path}"), `F:1:37: error 613: binary "RM" is on the deny list (entry "rm")`},
		{"dotdotsh", withCommand("sh1", "/usr/../bin/sh {path}"), `F:1:37: error 613: binary "/usr/../bin/sh" is on the deny list (entry "sh")`},
		{"relative", withCommand("rel1", "../../bin/ls {path}"), `F:1:38: error 613: binary "../../bin/ls" is a relative path, which names a file of the workspace (a repository's own script or program is not a trusted binary); write a bare name found on PATH (git) or an absolute path outside the workspace (/usr/bin/git)`},
		{"undeclared", withCommand("undecl", "grep {pattern} {path}"), `F:1:40: error 613: slot {pattern} is used in the template but not declared in arguments`},
		{"unused", withCommand("unused", "ls ."), `F:1:73: error 613: slot "path" is declared but not used in the template "ls ."`},
		{"enumdefault", `{"name": "ed", "description": "d", "command": "git show {rev}", "arguments": {"rev": {"type": "string", "description": "r", "enum": ["HEAD"], "default": "main"}}}`,
			`F:1:143: error 613: slot "rev": default "main" is not a valid value: value "main" is not one of the allowed values: "HEAD"`},
		{"re2", `{"name": "re", "description": "d", "command": "grep {w} .", "arguments": {"w": {"type": "string", "description": "w", "required": true, "pattern": "(?<=a)b"}}}`,
			"F:1:137: error 613: slot \"w\": pattern is not a valid RE2 expression: error parsing regexp: invalid named capture: `(?<=a)b`"},
		{"zclash", desc("good_a", "Same name as good-a"), `F:2:3: error 613: tool name "good_a" is already defined by D/good-a.tool.json`},
	}
	for _, c := range cases {
		if c.file != "huge" {
			write(t, dir, c.file+".tool.json", c.content)
		}
	}
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	tools, problems := newLoader(t, dir).LoadAll()
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	alloc := m1.TotalAlloc - m0.TotalAlloc
	assert.LessOrEqual(t, alloc, uint64(16<<20), "LoadAll allocated %d MB: the 100 MB file was read", alloc>>20)
	assert.Equal(t, []string{"good_a", "good_b"}, names(tools))
	byFile := map[string][]error{}
	for _, p := range problems {
		for _, e := range tool.Flatten(p) {
			var te *tool.Error
			if !assert.ErrorAs(t, e, &te) || !assert.Equal(t, tool.CodeSpec, te.Code, "problem is not a 613: %v", e) {
				continue
			}
			byFile[te.File] = append(byFile[te.File], e)
		}
	}
	for _, c := range cases {
		file := filepath.Join(dir, c.file+".tool.json")
		got := byFile[file]
		want := strings.ReplaceAll(strings.Replace(c.want, "F", file, 1), "D/", dir+"/")
		if assert.Len(t, got, 1, c.file) {
			assert.Equal(t, want, got[0].Error(), c.file)
		}
		delete(byFile, file)
	}
	assert.Empty(t, byFile, "unexpected problems")
}

func TestKnown(t *testing.T) {
	dir := t.TempDir()
	generated := desc("gen_same", "Generated")
	write(t, dir, "gen-same.tool.json", generated)
	write(t, dir, "gen-changed.tool.json", desc("gen_changed", "Edited since generation"))
	write(t, dir, "builtin.tool.json", desc("grep_text", "Shadows a builtin"))
	write(t, dir, "fresh.tool.json", desc("fresh", "Not known"))
	spec, _, err := tool.DecodeSpec("g", []byte(generated))
	require.NoError(t, err)
	known := map[string]loader.Known{
		"gen_same":    {Source: "example.com/agent/tools (gen_same)", Digest: tool.Digest(spec)},
		"gen_changed": {Source: "example.com/agent/tools (gen_changed)", Digest: "sha256:0000"},
		"grep_text":   {Source: "builtin grep_text"},
	}
	lookup := func(name string) (loader.Known, bool) { k, ok := known[name]; return k, ok }
	got := render(newLoader(t, dir, loader.WithKnown(lookup)).LoadAll())
	want := "tool fresh from D/fresh.tool.json: Not known\n" +
		`D/builtin.tool.json:2:3: error 613: tool name "grep_text" is already defined by builtin grep_text` + "\n" +
		`D/gen-changed.tool.json:2:3: error 613: tool "gen_changed" differs from the generated tool of that name (example.com/agent/tools (gen_changed)): the descriptor changed since generation, run go generate (or, if this file is not its source, rename the tool)` + "\n"
	assert.Equal(t, strings.ReplaceAll(want, "D/", dir+"/"), got)
}

func TestOnlyDescriptorFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.tool.json", desc("a", "A"))
	for _, name := range []string{"README.md", "b.json", ".c.tool.json", "d.tool.json~", "e.tool.json.swp", ".tool.json", "f.TOOL.JSON", "g.tool.jsonx"} {
		write(t, dir, name, "not json at all")
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	write(t, filepath.Join(dir, "sub"), "h.tool.json", desc("h", "Nested"))
	tools, problems := newLoader(t, dir).LoadAll()
	assert.Equal(t, []string{"a"}, names(tools), render(tools, problems))
	assert.Empty(t, problems, render(tools, problems))
}

func TestWithFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.tool.json", desc("a", "A"))
	write(t, dir, "b.tool.json", "broken")
	write(t, dir, "c.tool.json", desc("c", "C"))
	tools, problems := newLoader(t, dir, loader.WithFiles("c.tool.json", filepath.Join(dir, "a.tool.json"))).LoadAll()
	assert.Equal(t, []string{"a", "c"}, names(tools), render(tools, problems))
	assert.Empty(t, problems, render(tools, problems))
}

func TestSymlinks(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "evil.json", desc("evil", "Outside"))
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "store"), 0o755))
	write(t, filepath.Join(dir, "store"), "inside.json", desc("inside", "Inside"))
	links := map[string]string{
		"inside.tool.json":   filepath.Join("store", "inside.json"),
		"outside.tool.json":  filepath.Join(outside, "evil.json"),
		"relout.tool.json":   filepath.Join("..", filepath.Base(outside), "evil.json"),
		"dangling.tool.json": "nowhere.json",
		"loop.tool.json":     "loop.tool.json",
		"dir.tool.json":      "store",
	}
	for name, target := range links {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, name)))
	}
	tools, problems := newLoader(t, dir).LoadAll()
	got := render(tools, problems)
	realOut, _ := filepath.EvalSymlinks(outside)
	realDir, _ := filepath.EvalSymlinks(dir)
	want := "tool inside from D/inside.tool.json: Inside\n" +
		"D/dangling.tool.json: error 613: file is a symlink to a file that does not exist\n" +
		"D/dir.tool.json: error 613: file is not a regular file (d---------); a descriptor is a plain JSON file\n" +
		"D/loop.tool.json: error 613: file is a symlink that cannot be resolved: EvalSymlinks: too many links\n" +
		"D/outside.tool.json: error 613: file is a symlink to O/evil.json, outside R; a symlinked descriptor must stay inside the directory\n" +
		"D/relout.tool.json: error 613: file is a symlink to O/evil.json, outside R; a symlinked descriptor must stay inside the directory\n"
	want = strings.NewReplacer("D/", dir+"/", "O/", realOut+"/", " R;", " "+realDir+";").Replace(want)
	assert.Equal(t, want, got)
}

func TestSizeLimit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "small.tool.json", desc("small", "Small"))
	write(t, dir, "padded.tool.json", desc("padded", "Padded")+strings.Repeat(" ", 400))
	tools, problems := newLoader(t, dir, loader.WithMaxFileSize(512)).LoadAll()
	want := "tool small from D/small.tool.json: Small\n" +
		"D/padded.tool.json: error 613: file is 682 bytes, larger than the limit of 512 bytes (512 B); a descriptor is a small JSON file\n"
	assert.Equal(t, strings.ReplaceAll(want, "D/", dir+"/"), render(tools, problems))
}

func TestExamplesChecked(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ex.tool.json", `{
  "name": "ex",
  "description": "Examples",
  "command": "grep -rn {pattern} {path}",
  "arguments": {
    "pattern": {"type": "string", "description": "p", "required": true},
    "path": {"type": "path", "description": "w", "default": "."}
  },
  "examples": [
    {"args": {"pattern": "x"}, "argv": ["grep", "-rn", "x", "."]},
    {"args": {"pattern": "x"}, "argv": ["grep", "x", "."]},
    {"args": {"pattern": "x"}, "rejects": "nope"},
    {"args": {"pattern": "x;"}, "rejects": "nope"},
    {"args": {"pattern": "x;"}, "argv": ["grep"]},
    {"args": {"pattern": "x;"}, "rejects": "SEMICOLON"},
    {"rejects": "required argument is missing"}
  ]
}
`)
	// The examples are judged by base.CheckExamples (its wording is its own);
	// the loader locates each failing one at its object in the file.
	tools, problems := newLoader(t, dir).LoadAll()
	require.Empty(t, tools, render(tools, problems))
	require.Len(t, problems, 1, render(tools, problems))
	lines := tool.Flatten(problems[0])
	require.Len(t, lines, 4, "want 4 failing examples:\n%s", render(nil, problems))
	for i, e := range lines {
		prefix := fmt.Sprintf("%s:%d:5: error 613: example %d: ", filepath.Join(dir, "ex.tool.json"), 11+i, i+1)
		assert.True(t, strings.HasPrefix(e.Error(), prefix), "problem %d = %s\nwant it to start %s", i, e, prefix)
	}
}

func TestLoadedToolRuns(t *testing.T) {
	dir := t.TempDir()
	ws := t.TempDir()
	write(t, ws, "a.txt", "alpha\nneedle here\n")
	write(t, dir, "find.tool.json", desc("find_text", "Find text"))
	k, err := kernel.New(ws)
	require.NoError(t, err)
	l, err := loader.New(dir, k, loader.WithDenyList(programs.DefaultDenyList()))
	require.NoError(t, err)
	tools, problems := l.LoadAll()
	require.Len(t, tools, 1, render(tools, problems))
	require.Empty(t, problems, render(tools, problems))
	e := tools[0].Entry()
	assert.Equal(t, tool.FormDescriptor, e.Form)
	assert.Equal(t, filepath.Join(dir, "find.tool.json"), e.Source)
	assert.Equal(t, "find_text", e.Tool.Name())
	assert.True(t, strings.HasPrefix(tools[0].Digest, "sha256:"), tools[0].Digest)
	assert.Equal(t, tool.Digest(tools[0].Tool.Spec()), tools[0].Digest)
	out, err := tools[0].Tool.Call(context.Background(), json.RawMessage(`{"pattern":"needle"}`))
	require.NoError(t, err)
	assert.Contains(t, out, "a.txt:2:needle here")
	_, err = tools[0].Tool.Call(context.Background(), json.RawMessage(`{"pattern":"$(id)"}`))
	assert.Equal(t, tool.CodeValue, tool.CodeOf(err), "Call with $(id) = %v, want a 614", err)
}

func TestDenyListOption(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "grep.tool.json", desc("g", "Grep"))
	_, problems := newLoader(t, dir, loader.WithDenyList(programs.DefaultDenyList().With("grep"))).LoadAll()
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), `binary "grep" is on the deny list`)
}

func TestLoadAllUnreadableDirectory(t *testing.T) {
	dir := t.TempDir()
	l := newLoader(t, dir)
	write(t, dir, "a.tool.json", desc("a", "A"))
	tools, _ := l.LoadAll()
	require.Len(t, tools, 1, "a did not load")
	require.NoError(t, os.RemoveAll(dir))
	tools, problems := l.LoadAll()
	msg := "after the directory vanished: want the last tools kept and one plain error, got:\n" + render(tools, problems)
	assert.Len(t, tools, 1, msg)
	if assert.Len(t, problems, 1, msg) {
		assert.Equal(t, tool.Code(0), tool.CodeOf(problems[0]), msg)
	}
}
