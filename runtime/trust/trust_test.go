//go:build unix

package trust

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nanogpt/toolgen/internal/descdir"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTrustAndCheck: the record holds the descriptor files the loader would
// read (dot files and other names left out, a symlink inside followed) and
// Check tells unchanged, changed and added files apart.
func TestTrustAndCheck(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.tool.json"), "A")
	write(t, filepath.Join(dir, ".swp.tool.json"), "x")
	write(t, filepath.Join(dir, "notes.txt"), "x")
	if err := os.Symlink("a.tool.json", filepath.Join(dir, "b.tool.json")); err != nil {
		t.Fatal(err)
	}
	s := Open(filepath.Join(t.TempDir(), "cfg", "trust.json"))
	rec, err := s.Trust(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Files) != 2 || rec.Files["a.tool.json"] != Digest([]byte("A")) || rec.Files["b.tool.json"] != Digest([]byte("A")) {
		t.Errorf("files = %v", rec.Files)
	}
	if err := rec.Check("f", "a.tool.json", []byte("A")); err != nil {
		t.Errorf("unchanged file refused: %v", err)
	}
	for name, data := range map[string]string{"a.tool.json": "A ", "c.tool.json": "A", "A.tool.json": "A"} {
		err := rec.Check("shown/"+name, name, []byte(data))
		if err == nil || !strings.HasPrefix(err.Error(), "shown/"+name+": error 613: not loaded") || !strings.Contains(err.Error(), "toolgen trust "+rec.Dir) {
			t.Errorf("%s %q: %v", name, data, err)
		}
	}
	info, err := os.Stat(s.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("store mode: %v %v", info, err)
	}
	if d, _ := os.Stat(filepath.Dir(s.Path())); d.Mode().Perm() != 0o700 {
		t.Errorf("store dir mode %v", d.Mode().Perm())
	}
	// Through a symlinked path: the same record.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.Lookup(link); err != nil || !ok || got.Dir != rec.Dir {
		t.Errorf("Lookup through a symlink: %v %v %v", got.Dir, ok, err)
	}
}

// TestTrustRefusesWhatTheLoaderWouldNot: a symlink out of the directory, a
// FIFO and an oversized file fail the whole trust; nothing is recorded.
func TestTrustRefusesWhatTheLoaderWouldNot(t *testing.T) {
	for name, setup := range map[string]func(dir string) error{
		"symlink out": func(dir string) error { return os.Symlink("/etc/passwd", filepath.Join(dir, "x.tool.json")) },
		"dotdot link": func(dir string) error { return os.Symlink("../x.tool.json", filepath.Join(dir, "x.tool.json")) },
		"fifo":        func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "x.tool.json"), 0o644) },
		"huge": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "x.tool.json"), make([]byte, descdir.MaxFileSize+1), 0o644)
		},
	} {
		dir := filepath.Join(t.TempDir(), "tools")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "..", "x.tool.json"), "{}")
		if err := setup(dir); err != nil {
			t.Fatal(err)
		}
		s := Open(filepath.Join(t.TempDir(), "trust.json"))
		if _, err := s.Trust(dir); err == nil {
			t.Errorf("%s: trusted", name)
		}
		if _, ok, _ := s.Lookup(dir); ok {
			t.Errorf("%s: recorded", name)
		}
	}
}

// TestStoreRefused: a store others can write, or that is no trust store,
// is an error, never a trust.
func TestStoreRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(t.TempDir(), "trust.json")
	s := Open(path)
	if _, err := s.Trust(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o620); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Lookup(dir); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Errorf("group-writable store: %v", err)
	}
	for _, body := range []string{"", "{", `{"version":2,"dirs":[]}`, `{"version":1,"dirs":[],"extra":1}`, "[]"} {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Lookup(dir); err == nil {
			t.Errorf("store %q accepted", body)
		}
	}
	if found, err := Open(filepath.Join(t.TempDir(), "none.json")).Revoke(dir); found || err != nil {
		t.Errorf("revoke in an empty store: %v %v", found, err)
	}
}

// FuzzStore: any store file is loaded without panic; one that loads has
// version 1.
func FuzzStore(f *testing.F) {
	f.Add([]byte(`{"version":1,"dirs":[{"dir":"/x","files":{"a.tool.json":"sha256:00"},"trusted":"2026-01-01T00:00:00Z"}]}`))
	f.Add([]byte(`{"version":1,"dirs":null}`))
	f.Add([]byte(`{"version":1,"dirs":[{"dir":1}]}`))
	f.Add([]byte("\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "trust.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		recs, err := Open(path).load()
		if err == nil && !strings.Contains(string(data), `"version"`) {
			t.Fatalf("store without a version loaded: %q → %v", data, recs)
		}
	})
}
