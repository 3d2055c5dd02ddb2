//go:build unix

package trust

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestTrustWritten: only the files the caller wrote are trusted, with the
// digest of the bytes it wrote (a file swapped in meanwhile stays
// untrusted); descriptors already there are named and stay untrusted; files
// an older record trusted are kept; a name that is no descriptor file of
// the directory is refused and nothing is recorded.
func TestTrustWritten(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "repo.tool.json"), "EVIL")
	write(t, filepath.Join(dir, "a-repo.tool.json"), "EVIL2")
	write(t, filepath.Join(dir, "mine.tool.json"), "SWAPPED")
	s := Open(filepath.Join(t.TempDir(), "trust.json"))
	rec, untrusted, err := s.TrustWritten(dir, map[string][]byte{"mine.tool.json": []byte("MINE")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(untrusted, []string{"a-repo.tool.json", "repo.tool.json"}) {
		t.Errorf("untrusted = %q", untrusted)
	}
	if len(rec.Files) != 1 || rec.Files["mine.tool.json"] != Digest([]byte("MINE")) {
		t.Errorf("files = %v", rec.Files)
	}
	if err := rec.Check("f", "mine.tool.json", []byte("SWAPPED")); err == nil {
		t.Error("a file swapped in after it was written is trusted")
	}
	for _, name := range []string{"repo.tool.json", "a-repo.tool.json"} {
		if err := rec.Check("f", name, []byte("EVIL")); err == nil {
			t.Errorf("%s, there before, is trusted", name)
		}
	}

	// The user trusts the repository's file; a later write keeps it.
	if _, err := s.Trust(dir); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "new.tool.json"), "NEW")
	rec, untrusted, err = s.TrustWritten(dir, map[string][]byte{"new.tool.json": []byte("NEW")})
	if err != nil || len(untrusted) != 0 {
		t.Fatalf("untrusted %q, err %v", untrusted, err)
	}
	if rec.Files["repo.tool.json"] != Digest([]byte("EVIL")) || rec.Files["new.tool.json"] != Digest([]byte("NEW")) {
		t.Errorf("files = %v", rec.Files)
	}

	for _, bad := range []string{"../x.tool.json", "sub/x.tool.json", "notes.txt", ""} {
		before, _, _ := s.Lookup(dir)
		if _, _, err := s.TrustWritten(dir, map[string][]byte{bad: []byte("x")}); err == nil {
			t.Errorf("name %q accepted", bad)
		}
		after, _, _ := s.Lookup(dir)
		if len(after.Files) != len(before.Files) {
			t.Errorf("name %q: the record changed", bad)
		}
	}
}
