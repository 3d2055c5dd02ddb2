//go:build unix

package fileid

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIdentity: a hard link is the same file under another name, a copy
// is not; SingleLink tells the two apart, and RegularAt finds the same key
// through the directory, refusing a directory and a missing name.
func TestIdentity(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	for _, p := range []string{a, c} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ic := stat(t, c)
	if !SingleLink(ic) {
		t.Error("a file with one name is not SingleLink")
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	ia, ib := stat(t, a), stat(t, b)
	ka, _ := Of(ia)
	kb, _ := Of(ib)
	kc, ok := Of(ic)
	if !ok || ka != kb || ka == kc {
		t.Errorf("Of: a %v, its hard link %v, another file %v", ka, kb, kc)
	}
	if SingleLink(ia) {
		t.Error("a hard-linked file is SingleLink")
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if k, ok := RegularAt(d, "b"); !ok || k != ka {
		t.Errorf("RegularAt(b) = %v, %v; want %v", k, ok, ka)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sub", "missing"} {
		if _, ok := RegularAt(d, name); ok {
			t.Errorf("RegularAt(%s) reports a regular file", name)
		}
	}
}

func stat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
