package programs

import (
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// referenceBaseName is baseName without its fast path for bare names.
func referenceBaseName(p string) string {
	s := strings.ReplaceAll(p, `\`, "/")
	if len(s) >= 2 && s[1] == ':' && (s[0]|0x20) >= 'a' && (s[0]|0x20) <= 'z' {
		s = s[2:]
	}
	s = path.Base(path.Clean("/" + s))
	if s == "/" {
		return ""
	}
	return s
}

var baseNameSeeds = []string{
	"", ".", "..", "...", "rm", "RM", "c:", "C:rm", "c:.", "c:..", "c:...", "1:rm", ":rm", "c:/rm",
	`c:\rm`, "a:b:c", "rm.", "rm. ", " rm", "./rm", "../rm", "rm/", "/", "//", `\`, "x/..", "é:rm",
	"\x00", "cmd.exe", "rm:stream", "..:x", "z:", "Z:..",
}

// TestBaseNameFastPath: the fast path for names without a separator gives
// what the general case gives.
func TestBaseNameFastPath(t *testing.T) {
	for _, p := range baseNameSeeds {
		assert.Equal(t, referenceBaseName(p), baseName(p), "%q", p)
	}
}

func FuzzBaseName(f *testing.F) {
	for _, p := range baseNameSeeds {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := baseName(p), referenceBaseName(p); got != want {
			t.Fatalf("baseName(%q) = %q, want %q", p, got, want)
		}
	})
}
