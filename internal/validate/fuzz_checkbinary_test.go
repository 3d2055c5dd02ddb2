package validate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/within"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// FuzzCheckBinary: whatever the binary word, CheckBinary never accepts one
// that the kernel would find inside the workspace, nor a relative path.
func FuzzCheckBinary(f *testing.F) {
	for _, s := range []string{"good", "into_ws", "via_ws", "dirlink/tool", "ls", "./evil", "bin/tool", "x/",
		"/usr/bin/ls", "/usr/bin/../bin/ls", "/tmp", "/", "//", "/usr/bin/x86_64", "py", "a\u2215b", ".", "..", "/WS/evil", "/WS/sys/ls", "/WS/../ws/evil"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, bin string) {
		if strings.ContainsRune(bin, 0) {
			return // not a template word: the template parser refuses it first
		}
		e := newBinEnv(t)
		look := lookPathIn(e.pathdir, "/usr/bin")
		if strings.HasPrefix(bin, "/WS/") { // let the fuzzer aim at the workspace
			bin = e.ws + bin[3:]
		}
		err := CheckBinary(bin, e.ws, look)
		if err != nil {
			if tool.CodeOf(err) != tool.CodeSpec {
				t.Fatalf("CheckBinary(%q) = %v, want a 613", bin, err)
			}
			return
		}
		if strings.Contains(bin, "/") && !strings.HasPrefix(bin, "/") {
			t.Fatalf("CheckBinary(%q) accepted a relative path", bin)
		}
		p := bin
		if !strings.HasPrefix(bin, "/") {
			found, lerr := look(bin)
			if lerr != nil {
				return
			}
			p = found
		}
		if real, rerr := filepath.EvalSymlinks(p); rerr == nil && within.Clean(e.ws, real) {
			t.Fatalf("CheckBinary(%q) accepted %s, inside the workspace", bin, real)
		}
		if within.Clean(e.ws, filepath.Clean(p)) {
			t.Fatalf("CheckBinary(%q) accepted %s, inside the workspace", bin, p)
		}
	})
}
