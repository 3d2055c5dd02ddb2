package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// pathErr runs Path and returns its rejection as an error (nil when
// accepted).
func pathErr(slot, v, root string) (string, error) {
	p, e := Path(slot, v, root)
	if e != nil {
		return p, e
	}
	return p, nil
}

// workspace builds, in a fresh temporary directory, a workspace "ws" next to
// a directory "outside" holding a secret, and returns both, resolved:
//
//	ws/src/main.go
//	ws/dir/sub/
//	ws/-rf                    a file whose name begins with a dash
//	ws/...  ws/..test  ws/%2e%2e
//	ws/out_file  -> outside/secret       (absolute)
//	ws/out_dir   -> outside              (absolute)
//	ws/out_rel   -> ../outside           (relative)
//	ws/dir/up    -> ../../outside/secret (relative, from a subdirectory)
//	ws/in        -> src                  (inside)
//	ws/abs_in    -> ws/src               (absolute, inside: its walk starts at /)
//	ws/back_in   -> ../ws/src            (leaves and comes back: inside)
//	ws/self      -> .                    (the workspace itself)
//	ws/root      -> /
//	ws/chain1 -> chain2 -> chain3 -> outside
//	ws/chain_in1 -> chain_in2 -> dir/sub
//	ws/dangling_out -> outside/missing
//	ws/dangling_in  -> not_yet/file
//	ws/loop1 <-> ws/loop2
func workspace(t testing.TB) (ws, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws = filepath.Join(base, "ws")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{ws, outside, filepath.Join(ws, "src"), filepath.Join(ws, "dir", "sub"),
		filepath.Join(ws, "..."), filepath.Join(ws, "..test"), filepath.Join(ws, "%2e%2e")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(ws, "src", "main.go"), filepath.Join(ws, "-rf"), filepath.Join(outside, "secret")} {
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"out_file":     filepath.Join(outside, "secret"),
		"out_dir":      outside,
		"out_rel":      "../outside",
		"dir/up":       "../../outside/secret",
		"in":           "src",
		"abs_in":       filepath.Join(ws, "src"),
		"back_in":      "../ws/src",
		"self":         ".",
		"root":         "/",
		"chain1":       "chain2",
		"chain2":       "chain3",
		"chain3":       outside,
		"chain_in1":    "chain_in2",
		"chain_in2":    "dir/sub",
		"dangling_out": filepath.Join(outside, "missing"),
		"dangling_in":  "not_yet/file",
		"loop1":        "loop2",
		"loop2":        "loop1",
	} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	return ws, outside
}

func TestPathAccepted(t *testing.T) {
	ws, _ := workspace(t)
	// What runs is what the model wrote: Path never hands back another
	// path, only "./" in front of a leading dash.
	for _, tc := range []struct{ v, want string }{
		{".", "."},
		{"./", "./"},
		{"src", "src"},
		{"src/", "src/"},
		{"./src/main.go", "./src/main.go"},
		{"src//main.go", "src//main.go"},
		{"src/./main.go", "src/./main.go"},
		{"src/../src/main.go", "src/../src/main.go"},
		{"dir/sub", "dir/sub"},
		{"src/new.go", "src/new.go"},                   // missing file in an existing directory
		{"new/deeper/file.txt", "new/deeper/file.txt"}, // nothing of it exists
		{"new/../src/main.go", "new/../src/main.go"},   // a missing name is a directory to come
		{"dir/sub/../../src", "dir/sub/../../src"},
		{"src/main.go/x", "src/main.go/x"}, // below a file: fails at run time, harmlessly
		// A name that begins with a dash comes back with ./ in front, never bare.
		{"./-rf", "./-rf"},
		{"-rf", "./-rf"}, // the leading dash itself is Value's concern
		{"dir/../-rf", "dir/../-rf"},
		{"./--exec=x", "./--exec=x"},
		{"./\u2010rf", "./\u2010rf"},
		{"\u2010rf", "./\u2010rf"},
		{"./\uff0drf", "./\uff0drf"},
		{"dir/-rf", "dir/-rf"},
		// Dots that are not "..": ordinary names.
		{"...", "..."},
		{"..test", "..test"},
		{"te..st", "te..st"},
		{"%2e%2e", "%2e%2e"},
		{"%2e%2e/%2e%2e", "%2e%2e/%2e%2e"},
		{"..test/../src", "..test/../src"},
		{".../x", ".../x"},
		// Symlinks that stay inside, ".." after them included.
		{"in", "in"},
		{"in/main.go", "in/main.go"},
		{"abs_in/main.go", "abs_in/main.go"}, // only where the link leads counts, not the way there
		{"abs_in/..", "abs_in/.."},
		{"in/..", "in/.."}, // src/.. is the workspace
		{"in/../src/main.go", "in/../src/main.go"},
		{"chain_in1/..", "chain_in1/.."}, // dir/sub/.. is dir
		{"self", "self"},
		{"self/src/main.go", "self/src/main.go"},
		{"chain_in1", "chain_in1"},
		{"back_in/main.go", "back_in/main.go"}, // the target leaves and comes back: only where it ends counts
		{"chain_in1/new", "chain_in1/new"},
		{"dangling_in", "dangling_in"}, // judged by its target, which is inside
	} {
		got, err := pathErr("path", tc.v, ws)
		if err != nil {
			t.Errorf("Path(%q): %v", tc.v, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Path(%q) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestPathRejected(t *testing.T) {
	ws, outside := workspace(t)
	for _, tc := range []struct{ v, why string }{
		{"", "empty"},
		{"/etc/passwd", "absolute"},
		{"/", "absolute"},
		{ws, "absolute"},                       // even when it names the workspace
		{filepath.Join(ws, "src"), "absolute"}, // or a place inside it
		{`\etc\passwd`, "absolute"},            // Windows-rooted
		{"..", "climbs"},
		{"../", "climbs"},
		{"./..", "climbs"},
		{"../ws/src", "climbs"},
		{"a/../../x", "climbs"},
		{"src/../../outside/secret", "climbs"},
		{"src/../..", "climbs"},
		{"out_file", "outside"},
		{"out_dir", "outside"},
		{"out_dir/secret", "outside"},
		{"out_dir/new_file", "outside"},
		{"out_dir/new/deeper", "outside"},
		{"out_rel", "outside"},
		{"out_rel/secret", "outside"},
		{"dir/up", "outside"},
		{"in/../out_dir", "outside"},
		// link/.. is resolved as the kernel resolves it: the parent of the
		// link's target (issue 13: escape -> /etc, escape/.. is /).
		{"out_dir/..", "outside"},
		{"out_dir/../src/main.go", "outside"},
		{"out_dir/../ws/src/main.go", "outside"}, // leaves the workspace on the way back in
		{"out_file/..", "outside"},
		{"root/..", "outside"},
		{"dangling_out/../x", "outside"}, // mkdir -p would create outside/missing
		{"dir/up/..", "outside"},
		{"chain1/..", "outside"},
		{"loop1/..", "symlinks"},
		{"chain_in1/../../src", "climbs"}, // physically inside (dir/sub/../.. is ws), but .. is never allowed past the start
		{"self/..", "outside"},            // self is ., so self/.. is the workspace's parent
		{"self/../ws/src", "outside"},
		{"chain1", "outside"},
		{"chain1/secret", "outside"},
		{"dangling_out", "outside"},
		{"dangling_out/x", "outside"},
		{"root", "outside"},
		{"root/etc/passwd", "outside"},
		{"self/out_dir", "outside"},
		{"loop1", "symlinks"},
		{"loop2/x", "symlinks"},
	} {
		got, err := pathErr("path", tc.v, ws)
		if err == nil {
			t.Errorf("Path(%q) = %q, want a rejection (%s)", tc.v, got, tc.why)
			continue
		}
		te := asToolError(t, err, tool.CodeValue)
		if te.Slot != "path" {
			t.Errorf("Path(%q): slot %q", tc.v, te.Slot)
		}
		if !strings.Contains(te.Msg, tc.why) {
			t.Errorf("Path(%q): message %q does not say %q", tc.v, te.Msg, tc.why)
		}
		// The model is not told where the workspace is on the host.
		if strings.Contains(te.Msg, outside) || (tc.v != ws && !strings.HasPrefix(tc.v, ws) && strings.Contains(te.Msg, ws)) {
			t.Errorf("Path(%q): message %q reveals a host path", tc.v, te.Msg)
		}
	}
}

// A trailing separator or a dot in the root must not weaken the check (it
// used to let "link/new" through: the walk up stopped early).
func TestPathRootNotClean(t *testing.T) {
	ws, _ := workspace(t)
	for _, root := range []string{ws + "/", ws + "/.", ws + "//", ws + "/src/.."} {
		for _, v := range []string{"out_dir/new_file", "out_dir", "out_file", "dangling_out", "chain1/x"} {
			if got, err := pathErr("p", v, root); err == nil {
				t.Errorf("root %q: Path(%q) = %q, want a rejection", root, v, got)
			}
		}
		if got, err := pathErr("p", "src/main.go", root); err != nil || got != "src/main.go" {
			t.Errorf("root %q: Path(src/main.go) = %q, %v", root, got, err)
		}
	}
}

// A workspace at the file-system root is allowed; everything is inside it.
func TestPathRootIsSlash(t *testing.T) {
	if got, err := pathErr("p", "etc", "/"); err != nil || got != "etc" {
		t.Errorf("Path(etc) under / = %q, %v", got, err)
	}
	if _, err := pathErr("p", "/etc", "/"); err == nil {
		t.Error("an absolute path is rejected even under /")
	}
}

func TestPathUnreadableDirectory(t *testing.T) {
	guarantee.AsUser(t, "root reads every directory")
	ws, outside := workspace(t)
	locked := filepath.Join(ws, "locked")
	if err := os.Mkdir(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(locked, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	// What cannot be looked at cannot be vouched for.
	_, err := pathErr("p", "locked/out/secret", ws)
	te := asToolError(t, err, tool.CodeValue)
	if !strings.Contains(te.Msg, "cannot be checked") {
		t.Errorf("message %q", te.Msg)
	}
}

// TestResolve checks the resolver directly against filepath.EvalSymlinks
// where both apply (every prefix exists).
func TestResolve(t *testing.T) {
	ws, _ := workspace(t)
	for _, rel := range []string{"src", "src/main.go", "in/main.go", "self/src", "chain_in1", "out_dir", "chain1", "dir/up", "out_rel", "root"} {
		want, err := filepath.EvalSymlinks(filepath.Join(ws, rel))
		if err != nil {
			t.Fatal(err)
		}
		got, err := resolve(ws, rel)
		if err != nil || got != want {
			t.Errorf("resolve(%q) = %q, %v; want %q", rel, got, err, want)
		}
	}
}

// The leading dash is rejected by Value where the value starts a word; a
// name that begins with a dash is reached as ./-rf, which Path keeps.
func TestPathAndValueTogether(t *testing.T) {
	ws, _ := workspace(t)
	a := &tool.Arg{Name: "path", Type: tool.Path}
	te := asToolError(t, valueErr(a, "-rf", true), tool.CodeValue)
	if !strings.Contains(te.Msg, `write "./-rf"`) {
		t.Errorf("message %q does not teach ./-rf", te.Msg)
	}
	if err := valueErr(a, "./-rf", true); err != nil {
		t.Fatal(err)
	}
	got, err := pathErr("path", "./-rf", ws)
	if err != nil || got != "./-rf" {
		t.Errorf("Path(./-rf) = %q, %v; want ./-rf", got, err)
	}
}

// TestPathEscapeDotDot is issue 13's case: escape -> /etc, and the value
// escape/.. — cleaned lexically it is ".", but the kernel takes it to "/".
// Path must judge it where the kernel goes, and hand back the value as
// written, never another path.
func TestPathEscapeDotDot(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(ws, "escape")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := os.Mkdir(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// What the kernel does with the value.
	entries, err := os.ReadDir(ws + "/escape/..")
	if err != nil {
		t.Fatal(err)
	}
	sawEtc := false
	for _, e := range entries {
		sawEtc = sawEtc || e.Name() == "etc"
	}
	if !sawEtc {
		t.Fatalf("the kernel did not take escape/.. to /: %v", entries)
	}
	for _, v := range []string{"escape/..", "escape/../", "escape/../etc/passwd", "./escape/..", "sub/../escape/..",
		"escape/./..", "escape//..", "escape/../tmp", "escape/../" + strings.TrimPrefix(ws, "/")} {
		got, err := pathErr("path", v, ws)
		if err == nil {
			t.Errorf("Path(%q) = %q, want a 614", v, got)
			continue
		}
		if te := asToolError(t, err, tool.CodeValue); !strings.Contains(te.Msg, "outside the workspace") {
			t.Errorf("Path(%q): %s", v, te.Msg)
		}
	}
	for _, v := range []string{"sub/..", "sub/../sub", "./sub/./..", "escape2/.."} {
		got, err := pathErr("path", v, ws)
		if err != nil || got != v {
			t.Errorf("Path(%q) = %q, %v; want it accepted as written", v, got, err)
		}
	}
}
